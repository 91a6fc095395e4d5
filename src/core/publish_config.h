// The [publish] table of kblaster.toml: how optimize's verified speedups become pull
// requests (docs/publishing.md, "Optimization pull requests").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

// One pull request per kernel (branch kblaster/optimize/<kernel>), or one for the whole
// optimize run (branch kblaster/optimize/sweep).
enum class PrGrouping { per_kernel, per_sweep };

// "per_kernel", "per_sweep": the config's spelling.
std::string_view pr_grouping_name(PrGrouping grouping);

// GitHub's limit on the characters of a label's name.
inline constexpr std::size_t kMaxLabelLength = 50;

struct PublishConfig {
  PrGrouping optimization_prs = PrGrouping::per_kernel;
  std::vector<std::string> labels = {"kblaster", "performance"};  // [] = none
};

}  // namespace kblaster
