#include "transform/launch_bounds.h"

#include <map>
#include <set>

#include "transform/constant_table.h"
#include "transform/kernel_sites.h"
#include "transform/source_text.h"

namespace kblaster {
namespace {

constexpr std::int64_t kMaxThreadsPerBlock = 1024;

// The bound for all launches of one kernel, or why there is none.
struct Bound {
  std::int64_t threads = 0;
  std::string expression;  // empty: write the number
  std::string skipped;     // why not, when set
};

Bound bound_for(const std::string& masked, const ConstantTable& table,
                const std::vector<const LaunchSite*>& launches,
                const std::vector<const FunctionSite*>& definitions) {
  Bound bound;
  std::set<std::int64_t> sizes;
  std::set<std::string> expressions;
  bool portable = true;  // the expression means the same at every definition
  for (const auto* launch : launches) {
    if (launch->config.size() < 2) return {0, "", "launch has no block size"};
    const auto size = table.block_size(launch->config[1], launch->at);
    if (!size)
      return {0, "",
              "block size `" + collapse_spaces(launch->config[1].of(masked)) +
                  "` is not a compile-time constant"};
    sizes.insert(size->threads);
    expressions.insert(size->expression);
    for (const auto& [name, def] : size->names)
      for (const auto* site : definitions)
        portable = portable && def && table.lookup(name, site->qualifier) == def;
    if (size->names.empty()) portable = false;
    bound.threads = size->threads;
  }
  if (sizes.size() > 1) {
    std::string list;
    for (const auto s : sizes) list += (list.empty() ? "" : ", ") + std::to_string(s);
    return {0, "", "launched with different block sizes (" + list + ")"};
  }
  if (bound.threads > kMaxThreadsPerBlock)
    return {0, "", "block size " + std::to_string(bound.threads) + " exceeds 1024"};
  for (const auto* site : definitions)
    if (site->has_launch_bounds) return {0, "", "already has __launch_bounds__"};
  if (portable && expressions.size() == 1) bound.expression = *expressions.begin();
  return bound;
}

}  // namespace

SourceRewrite add_launch_bounds(std::string_view source) {
  const std::string masked = mask_source(source);
  const ConstantTable table(masked);
  const auto launches = find_launches(masked);
  const auto kernels = find_functions(masked, "__global__");
  std::map<std::string, std::vector<const LaunchSite*>> by_kernel;
  for (const auto& l : launches) by_kernel[l.kernel].push_back(&l);

  std::vector<Insertion> edits;
  std::string added;
  std::string skipped;
  for (const auto& [name, sites] : by_kernel) {
    std::vector<const FunctionSite*> definitions;
    for (const auto& k : kernels)
      if (k.name == name) definitions.push_back(&k);
    const Bound bound = definitions.empty() ? Bound{0, "", "not declared in this file"}
                                            : bound_for(masked, table, sites, definitions);
    if (!bound.skipped.empty()) {
      skipped += (skipped.empty() ? "" : "; ") + name + ": " + bound.skipped;
      continue;
    }
    const std::string number = std::to_string(bound.threads);
    const std::string value = bound.expression.empty() ? number : bound.expression;
    for (const auto* site : definitions)
      edits.push_back({site->qualifier + std::string_view("__global__").size(),
                       " __launch_bounds__(" + value + ")"});
    added += (added.empty() ? "" : ", ") + name + " (" +
             (value == number ? number : value + " = " + number) + ")";
  }
  if (edits.empty())
    return {false, std::string(source),
            launches.empty() ? "no kernel launch in this file"
                             : "no __launch_bounds__ added: " + skipped};
  return {true, apply_insertions(source, std::move(edits)),
          "added __launch_bounds__ to " + added + (skipped.empty() ? "" : "; skipped " + skipped)};
}

}  // namespace kblaster
