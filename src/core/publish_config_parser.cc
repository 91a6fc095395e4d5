#include "core/publish_config_parser.h"

#include <algorithm>

#include "core/suggest.h"
#include "core/toml_fields.h"

namespace kblaster {
namespace {

const std::vector<std::string> kPublishFields = {"optimization_prs", "labels"};

constexpr PrGrouping kGroupings[] = {PrGrouping::per_kernel, PrGrouping::per_sweep};

// Characters as GitHub counts them: UTF-8 code points.
std::size_t code_points(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

}  // namespace

Result<PublishConfig> parse_publish(const toml::table& root, const std::string& file) {
  PublishConfig publish;
  auto t = TomlFields(root, file, file).table("publish");
  if (!t) return t.error();
  if (!*t) return publish;
  TomlFields f(**t, file, "[publish]");
  KB_TRY(f.check_known(kPublishFields));

  auto grouping = f.string("optimization_prs");
  if (!grouping) return grouping.error();
  if (grouping->has_value()) {
    const std::string& v = **grouping;
    std::vector<std::string> names;
    for (PrGrouping g : kGroupings) names.emplace_back(pr_grouping_name(g));
    auto it = std::find(names.begin(), names.end(), v);
    if (it == names.end())
      return f.error_at("optimization_prs", "`" + v + "` is not a grouping" +
                                                did_you_mean(v, names) +
                                                " (groupings: per_kernel, per_sweep)");
    publish.optimization_prs = kGroupings[it - names.begin()];
  }
  auto labels = f.string_list("labels");
  if (!labels) return labels.error();
  for (std::size_t i = 0; i < labels->size(); ++i) {
    const std::string& label = (*labels)[i];
    const auto where = f.location_of_item("labels", i).str();
    if (label.empty()) return Error::config(where, "[publish]: field `labels`: a label is empty");
    if (const std::size_t length = code_points(label); length > kMaxLabelLength)
      return Error::config(where, "[publish]: field `labels`: a label of " +
                                      std::to_string(length) + " characters is longer than " +
                                      "GitHub's " + std::to_string(kMaxLabelLength));
    if (std::find(labels->begin(), labels->begin() + i, label) != labels->begin() + i)
      return Error::config(where, "[publish]: field `labels`: `" + label + "` is given twice");
  }
  if (f.has("labels")) publish.labels = std::move(*labels);
  return publish;
}

}  // namespace kblaster
