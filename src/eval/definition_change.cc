#include "eval/definition_change.h"

#include <algorithm>
#include <sstream>

#include "eval/base_reference.h"

namespace kblaster {
namespace {

std::string named(const ReferenceSpec& r) {
  if (r.kind == ReferenceSpec::Kind::base_revision) return "base's output";
  return r.path + ":" + r.function + (r.train ? " (train mode)" : "");
}

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

std::vector<std::string> check_definition_changes(const KernelSpec& base, const KernelSpec& head) {
  std::vector<std::string> out;
  const ReferenceSpec &was = base.reference, &now = head.reference;
  if (was.kind != now.kind || was.path != now.path || was.function != now.function ||
      was.train != now.train)
    out.push_back("head changes its reference from " + named(was) + " to " + named(now));
  const Tolerance &a = base.tolerance, &b = head.tolerance;
  if (b.rtol > a.rtol || b.atol > a.atol)
    out.push_back("head loosens its tolerance (rtol " + number(a.rtol) + " -> " + number(b.rtol) +
                  ", atol " + number(a.atol) + " -> " + number(b.atol) + "); base's holds");
  for (const auto& line : sizes_to_verify_with_reference(base, head).left_out) out.push_back(line);
  return out;
}

std::optional<std::string> reference_edit(const KernelSpec& base, const KernelSpec& head,
                                          const SourceTree& base_tree,
                                          const SourceTree& head_tree) {
  const ReferenceSpec &was = base.reference, &now = head.reference;
  if (now.kind == ReferenceSpec::Kind::base_revision || was.kind != now.kind ||
      was.path != now.path)
    return std::nullopt;  // none, or repointed (check_definition_changes says so)
  const auto before = base_tree.read(now.path), after = head_tree.read(now.path);
  if (!before || !after)
    return "head's reference file `" + now.path + "` could not be compared with base's" +
           leaves_tree_note(before ? head_tree : base_tree, now.path);
  if (*before == *after) return std::nullopt;
  return "head edits its reference file `" + now.path + "`";
}

Tolerance stricter_tolerance(const Tolerance& base, const Tolerance& head) {
  Tolerance t = head;
  t.rtol = std::min(base.rtol, head.rtol);
  t.atol = std::min(base.atol, head.atol);
  return t;
}

}  // namespace kblaster
