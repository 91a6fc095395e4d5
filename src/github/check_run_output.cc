#include "github/check_run_output.h"

#include <algorithm>

#include "core/failing_verdict.h"

namespace kblaster {
namespace {

std::string fail_on(const nlohmann::json& check) {
  return check.is_object() ? check.value("fail_on", std::string("slower")) : "slower";
}

const nlohmann::json& rows(const nlohmann::json& check) {
  static const nlohmann::json none = nlohmann::json::array();
  if (!check.is_object() || !check.contains("kernels") || !check["kernels"].is_array()) return none;
  return check["kernels"];
}

std::string verdict_of(const nlohmann::json& row) {
  return row.is_object() ? row.value("verdict", std::string()) : std::string();
}

// At most `limit` bytes, cut at a UTF-8 character boundary.
std::string clip(std::string text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

}  // namespace

std::string_view check_conclusion(const nlohmann::json& check) {
  bool measured = false, failed = false;
  const bool slower_fails = fail_on(check) == "slower";
  for (const auto& row : rows(check)) {
    const std::string v = verdict_of(row);
    measured = measured || v != "SKIPPED";
    failed = failed || is_failing_verdict(v) || (slower_fails && fails_under_slower(v));
  }
  if (fail_on(check) == "never") failed = false;
  if (failed) return "failure";
  return measured ? "success" : "neutral";
}

std::vector<Annotation> check_annotations(const nlohmann::json& check) {
  std::vector<Annotation> out;
  const bool slower_fails = fail_on(check) != "error" && fail_on(check) != "never";
  for (const auto& row : rows(check)) {
    const std::string v = verdict_of(row);
    if (!is_failing_verdict(v) && !fails_under_slower(v)) continue;
    if (!row.contains("source") || !row["source"].is_object()) continue;
    const auto& source = row["source"];
    const std::string path = source.value("path", std::string());
    if (path.empty()) continue;
    const bool has_line = source.contains("line") && source["line"].is_number_integer() &&
                          source["line"].get<std::int64_t>() > 0;
    const std::size_t line = has_line ? source["line"].get<std::size_t>() : 1;
    const std::string kernel = row.value("kernel", std::string());
    out.push_back({.path = path,
                   .start_line = line,
                   .end_line = line,
                   .level = fails_under_slower(v) && !slower_fails ? "warning" : "failure",
                   .title = clip(kernel + ": " + v, 255),
                   .message = clip(row.value("reason", std::string()), 64 * 1024)});
  }
  return out;
}

nlohmann::json to_json(const Annotation& a) {
  return {{"path", a.path},         {"start_line", a.start_line},
          {"end_line", a.end_line}, {"annotation_level", a.level},
          {"title", a.title},       {"message", a.message}};
}

std::vector<std::vector<Annotation>> annotation_batches(
    const std::vector<Annotation>& annotations) {
  std::vector<std::vector<Annotation>> batches;
  for (std::size_t i = 0; i < annotations.size(); i += kAnnotationsPerRequest)
    batches.emplace_back(
        annotations.begin() + static_cast<std::ptrdiff_t>(i),
        annotations.begin() +
            static_cast<std::ptrdiff_t>(std::min(annotations.size(), i + kAnnotationsPerRequest)));
  return batches;
}

}  // namespace kblaster
