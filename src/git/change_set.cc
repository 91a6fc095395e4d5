#include "git/change_set.h"

#include <algorithm>
#include <map>
#include <set>

#include "git/kernel_comparison.h"

namespace kblaster {

const char* why_name(KernelHit::Why why) {
  switch (why) {
    case KernelHit::Why::new_kernel:
      return "new_kernel";
    case KernelHit::Why::deleted:
      return "deleted";
    case KernelHit::Why::renamed:
      return "renamed";
    case KernelHit::Why::spec_changed:
      return "spec_changed";
    case KernelHit::Why::source_changed:
      return "source_changed";
    case KernelHit::Why::reference_changed:
      return "reference_changed";
    case KernelHit::Why::include_changed:
      return "include_changed";
  }
  return "source_changed";
}

const KernelHit* ChangeSet::find(const std::string& kernel) const {
  auto it = std::find_if(hits.begin(), hits.end(),
                         [&](const KernelHit& h) { return h.kernel == kernel; });
  return it == hits.end() ? nullptr : &*it;
}

ChangeSet compute_change_set(const RevisionFiles& base, const RevisionFiles& head,
                             const std::vector<PathChange>& changes) {
  static const std::vector<KernelSpec> kNone;
  const auto& base_kernels = base.config ? base.config->kernels : kNone;
  const auto& head_kernels = head.config ? head.config->kernels : kNone;
  const ChangedPaths indexed(changes);
  std::set<std::string> head_names;
  for (const auto& h : head_kernels) head_names.insert(h.name);
  std::map<std::string, const KernelSpec*> base_by_name;
  for (const auto& b : base_kernels) base_by_name.emplace(b.name, &b);

  // A head kernel's base is the base kernel of the same name, else one that left
  // under another name whose source is the same file or was renamed to it.
  std::set<const KernelSpec*> matched;
  auto base_of = [&](const KernelSpec& h) -> const KernelSpec* {
    if (auto it = base_by_name.find(h.name); it != base_by_name.end()) return it->second;
    for (const auto& b : base_kernels) {
      if (head_names.count(b.name) || matched.count(&b)) continue;
      auto moved = indexed.moved.find(b.source);
      if (b.source == h.source || (moved != indexed.moved.end() && moved->second == h.source))
        return &b;
    }
    return nullptr;
  };

  ChangeSet out;
  KernelComparison comparison(base, head, indexed);
  for (const auto& h : head_kernels) {
    const KernelSpec* b = base_of(h);
    if (!b) {
      out.hits.push_back({h.name, KernelHit::Why::new_kernel, {h.where.file}, {}, {}, {}});
      continue;
    }
    matched.insert(b);
    if (auto hit = comparison.compare(*b, h)) out.hits.push_back(std::move(*hit));
  }
  for (const auto& b : base_kernels)
    if (!matched.count(&b))
      out.hits.push_back({b.name, KernelHit::Why::deleted, {b.where.file}, b.name, b.source, {}});
  return out;
}

}  // namespace kblaster
