#include "report/publish_text.h"

#include "core/stable_hash.h"
#include "report/headline.h"
#include "report/markdown_report.h"
#include "report/result_reader.h"

namespace kblaster {

Result<PublishText> publish_text(std::span<const nlohmann::json> results,
                                 const std::string& origin) {
  std::vector<ResultView> views;
  Fnv1a digest;
  for (const auto& result : results) {
    auto view = read_result(result, origin);
    if (!view) return view.error();
    digest.add(result_kind_name(view->kind));
    digest.add("\n");
    const auto& facts = result.contains("provenance") ? result["provenance"] : nlohmann::json();
    if (facts.is_object() && facts.contains("head_sha") && facts["head_sha"].is_string())
      digest.add(facts["head_sha"].get<std::string>());
    digest.add("\n");
    for (const KernelView& k : view->kernels) {
      digest.add(k.name);
      digest.add(" ");
      digest.add(finding_name(k.finding));
      digest.add("\n");
    }
    views.push_back(std::move(*view));
  }
  return PublishText{.markdown = render_markdown(views),
                     .headline = report_headline(views),
                     .digest = digest.hex()};
}

}  // namespace kblaster
