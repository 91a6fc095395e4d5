// What a check run says about a check result: its conclusion, and annotations on the
// source lines of the kernels that got slower or wrong, in batches GitHub accepts.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

// One check-run annotation (GitHub's fields).
struct Annotation {
  std::string path;  // from the repository root
  std::size_t start_line = 1, end_line = 1;
  std::string level;  // "failure", "warning" or "notice"
  std::string title;  // at most 255 bytes
  std::string message;
};

// GitHub takes at most this many annotations per create or update request.
inline constexpr std::size_t kAnnotationsPerRequest = 50;

// The conclusion of `check` (a check result value) under its own `fail_on`:
// "failure" when a kernel regressed, failed to build or had its timing rejected, or,
// with fail_on "slower", got slower; "neutral" when nothing was measured (every row
// SKIPPED, or no rows); else "success".
std::string_view check_conclusion(const nlohmann::json& check);

// An annotation for each kernel of `check` that got slower (a "failure" under fail_on
// "slower", else a "warning") or wrong (REGRESSION, BUILD_FAILED, REJECTED: a
// "failure"), on the line of its launcher in its head source. A kernel with no
// `source` (deleted) gets none; one with no `line` is annotated on line 1.
std::vector<Annotation> check_annotations(const nlohmann::json& check);

// {"path", "start_line", "end_line", "annotation_level", "title", "message"}.
nlohmann::json to_json(const Annotation& a);

// `annotations` cut into requests of at most kAnnotationsPerRequest, in order.
std::vector<std::vector<Annotation>> annotation_batches(const std::vector<Annotation>& annotations);

}  // namespace kblaster
