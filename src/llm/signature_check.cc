#include "llm/signature_check.h"

#include <algorithm>
#include <vector>

#include "llm/launcher_definition.h"

namespace kblaster {
namespace {

using ParameterLists = std::vector<std::vector<std::string>>;

ParameterLists parameter_lists(std::string_view source, std::string_view launcher) {
  ParameterLists lists;
  for (auto& definition : find_launcher_definitions(source, launcher))
    lists.push_back(std::move(definition.parameter_types));
  std::sort(lists.begin(), lists.end());
  return lists;
}

std::string lists_text(const ParameterLists& lists) {
  std::string text;
  for (std::size_t i = 0; i < lists.size(); ++i)
    text += (i ? " and " : "") + parameter_list_text(lists[i]);
  return text;
}

}  // namespace

std::optional<std::string> launcher_signature_change(std::string_view parent,
                                                     std::string_view answer,
                                                     std::string_view launcher) {
  const auto before = parameter_lists(parent, launcher);
  const auto after = parameter_lists(answer, launcher);
  const std::string name(launcher);
  if (before == after) return std::nullopt;
  if (after.empty()) return "the answer does not define the launcher " + name;
  if (before.empty())
    return "the answer defines the launcher " + name +
           ", which the parent's source does not (it comes from a header)";
  if (before.size() == 1 && after.size() == 1)
    return "the answer changes the parameters of the launcher " + name + " from " +
           lists_text(before) + " to " + lists_text(after);
  return "the answer changes the launcher " + name + "'s definitions from " + lists_text(before) +
         " to " + lists_text(after);
}

}  // namespace kblaster
