#include "git/kernel_comparison.h"

#include <algorithm>

#include "core/config_loader.h"
#include "core/spec_json.h"

namespace kblaster {
namespace {

// The [[kernel]] fields that decide what is built and measured, without where it
// is declared, its name or its source (renames are judged apart).
nlohmann::json definition(const KernelSpec& k) {
  auto j = to_json(k);
  j.erase("name");
  j.erase("declared_at");
  j.erase("source");
  j["sizes"] = k.sizes;
  return j;
}

// The [project] fields that reach every kernel's build: arch, and the flags and
// include directories (also merged into each KernelSpec).
bool same_project(const ProjectConfig& a, const ProjectConfig& b) {
  return a.arch == b.arch && a.nvcc_flags == b.nvcc_flags && a.include_dirs == b.include_dirs;
}

KernelHit::Why why_of(DependencyHit::Via via) {
  switch (via) {
    case DependencyHit::Via::source:
      return KernelHit::Why::source_changed;
    case DependencyHit::Via::reference:
      return KernelHit::Why::reference_changed;
    case DependencyHit::Via::include:
      return KernelHit::Why::include_changed;
  }
  return KernelHit::Why::include_changed;
}

}  // namespace

ChangedPaths::ChangedPaths(const std::vector<PathChange>& changes) {
  for (const auto& change : changes) {
    if (!change.old_path.empty()) paths.insert(change.old_path);
    if (!change.new_path.empty()) paths.insert(change.new_path);
    if (change.kind == PathChange::Kind::renamed) moved[change.old_path] = change.new_path;
    if (change.kind == PathChange::Kind::added || change.kind == PathChange::Kind::renamed)
      adds = true;
  }
}

KernelComparison::KernelComparison(const RevisionFiles& base, const RevisionFiles& head,
                                   const ChangedPaths& changes)
    : changes_(changes),
      at_base_(base.read, base.list),
      at_head_(head.read, head.list),
      project_changed_(base.config && head.config &&
                       !same_project(base.config->project, head.config->project)),
      specs_unchanged_(base.config && head.config &&
                       base.config->spec_files == head.config->spec_files &&
                       std::none_of(head.config->spec_files.begin(), head.config->spec_files.end(),
                                    [&](const std::string& f) { return changes.paths.count(f); })) {
}

std::optional<KernelHit> KernelComparison::compare(const KernelSpec& b, const KernelSpec& h) {
  std::set<KernelHit::Why> whys;
  std::set<std::string> because;
  std::map<std::string, std::vector<std::string>> chains;
  const auto add = [&](const DependencyHit& hit) {
    whys.insert(why_of(hit.via));
    because.insert(hit.path);
    if (!hit.chain.empty()) chains.emplace(hit.path, hit.chain);  // base's chain first
  };
  if (b.name != h.name || b.source != h.source) {
    whys.insert(KernelHit::Why::renamed);
    because.insert({b.source, h.source});
  }
  // Specs read from the same, unchanged files are the same: no need to compare them.
  if (project_changed_ || (!specs_unchanged_ && definition(b) != definition(h))) {
    whys.insert(KernelHit::Why::spec_changed);
    // Name the files whose text changed: kblaster.toml for [project], and the
    // kernel's own spec file if it changed (or moved).
    if (project_changed_) because.insert(kConfigFile);
    for (const auto* file : {&b.where.file, &h.where.file})
      if (changes_.paths.count(*file)) because.insert(*file);
    if (because.empty()) because.insert(h.where.file);
  }
  for (const auto& hit : at_base_.hits(b, changes_.paths)) add(hit);
  // Unless a file appeared or something already differs, head's closure is base's:
  // the same unchanged files resolve their includes the same way.
  if (changes_.adds || !whys.empty())
    for (const auto& hit : at_head_.hits(h, changes_.paths)) add(hit);
  if (whys.empty()) return std::nullopt;
  return KernelHit{h.name, *whys.begin(), {because.begin(), because.end()},
                   b.name, b.source,      std::move(chains)};
}

}  // namespace kblaster
