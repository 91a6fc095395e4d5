#include "transform/register_cap.h"

#include <set>
#include <string>
#include <vector>

#include "transform/kernel_sites.h"
#include "transform/source_text.h"

namespace kblaster {

SourceRewrite cap_registers_in_source(std::string_view source, int cap) {
  const std::string masked = mask_source(source);
  const auto kernels = find_functions(masked, "__global__");
  if (kernels.empty()) return {false, std::string(source), "the source defines no kernel"};
  std::vector<Insertion> edits;
  std::set<std::string> names;
  for (const FunctionSite& k : kernels) {
    const std::string_view header =
        std::string_view(masked).substr(k.qualifier, k.name_begin - k.qualifier);
    if (k.has_launch_bounds)
      return {false, std::string(source),
              k.name + " has __launch_bounds__, which nvcc does not accept beside __maxnreg__"};
    if (!find_words(header, "__maxnreg__").empty())
      return {false, std::string(source), k.name + " already has __maxnreg__"};
    edits.push_back({k.qualifier + std::string_view("__global__").size(),
                     " __maxnreg__(" + std::to_string(cap) + ")"});
    names.insert(k.name);
  }
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  return {true, apply_insertions(source, std::move(edits)),
          "__maxnreg__(" + std::to_string(cap) + ") on " + list + " in the source"};
}

}  // namespace kblaster
