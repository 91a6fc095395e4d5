#include "github/optimization_selection.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "core/between_machines.h"
#include "core/candidate_fingerprint.h"
#include "core/identifier.h"
#include "core/source_tree.h"
#include "core/text_join.h"

namespace kblaster {
namespace {

using nlohmann::json;

// The string at `key` of `j`; "" when absent or not a string.
std::string text_at(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

// The strings of the array at `key`; non-strings are skipped.
std::vector<std::string> texts_at(const json& j, const char* key) {
  std::vector<std::string> out;
  if (j.is_object() && j.contains(key) && j[key].is_array())
    for (const auto& item : j[key])
      if (item.is_string()) out.push_back(item.get<std::string>());
  return out;
}

std::optional<double> number_at(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
  return j[key].get<double>();
}

// What a change carries: the verified text and its speedup, from the best or its source form.
struct Carried {
  std::string text;
  json speedup;
  std::vector<std::string> written_as_source;  // the source form's rewrites; empty for the best
  std::vector<std::string> source_defaults;
};

// A kernel name git takes as a branch's last component: no "..", no ".lock" or "." end.
bool names_a_branch(const std::string& kernel) {
  return is_kernel_name(kernel) && kernel.find("..") == std::string::npos &&
         !kernel.ends_with(".lock") && !kernel.ends_with(".");
}

// Why the timing of `speedup` (with its `ab`) does not stand: "" when it is FASTER,
// trusted and not rejected.
std::string untrusted(const json& speedup, const json& ab) {
  if (!number_at(speedup, "value") || !ab.is_object() || ab.value("trusted", false) != true ||
      !text_at(ab, "rejected").empty())
    return text_at(ab, "rejected").empty() ? "not trusted" : text_at(ab, "rejected");
  return "";
}

// Why `k`'s source form (search/source_form_check.h) cannot stand in for a best that
// needs build settings; "" when it can, with `carried` set to the form.
std::string form_rule_out(const json& k, Carried& carried) {
  const json form = k.value("source_form", json());
  if (!form.is_object()) return "no source form was made (the result predates them)";
  const std::string status = text_at(form, "status");
  if (status == "incomplete") return "no source form: " + join_texts(texts_at(form, "not_carried"));
  if (status != "verified")
    return "its source form " + status + ": " +
           text_at(form.value("verification", json()), "detail");
  const json speedup = form.value("speedup", json());
  if (text_at(speedup, "verdict") != "FASTER")
    return "its source form is " + text_at(speedup, "verdict") + " against the baseline (" +
           text_at(speedup, "reason") + ")";
  if (const auto why = untrusted(speedup, form.value("final_ab", json())); !why.empty())
    return "its source form's timing: " + why;
  if (const auto soft = texts_at(form, "soft_verification"); !soft.empty())
    return "its source form fails the soft verification: " + join_texts(soft);
  const auto defaults = texts_at(form, "source_defaults");
  if (!form.contains("source") || !form["source"].is_string() ||
      candidate_fingerprint(form["source"].get<std::string>(),
                            source_defaults_setting({defaults.begin(), defaults.end()})) !=
          text_at(form, "candidate"))
    return "its source form's text is not the one verified";
  carried = {.text = form["source"].get<std::string>(),
             .speedup = speedup,
             .written_as_source = texts_at(form, "rewrites"),
             .source_defaults = defaults};
  return "";
}

// Why `k`, a kernel of the result, stays out of a pull request; nullopt when it may go in,
// with `carried` set to what it carries.
std::optional<LeftOut> rule_out(const json& k, const std::string& name, Carried& carried) {
  const auto out = [&](LeftOutReason reason, std::string detail) {
    return LeftOut{.kernel = name, .reason = reason, .detail = std::move(detail)};
  };
  if (text_at(k, "status") != "searched")
    return out(LeftOutReason::not_searched, text_at(k, "skip_reason"));
  const std::string source = text_at(k, "source");
  if (!names_a_branch(name) || normalize_relative(source) != source)
    return out(LeftOutReason::unusable_name, "kernel `" + name + "`, source `" + source + "`");
  const json speedup = k.is_object() ? k.value("speedup", json()) : json();
  if (text_at(speedup, "verdict") != "FASTER")
    return out(LeftOutReason::not_faster, text_at(speedup, "reason"));
  const json ab = k.value("final_ab", json());
  if (!untrusted(speedup, ab).empty())
    return out(LeftOutReason::untrusted_timing, text_at(ab, "rejected"));
  if (const auto soft = texts_at(k, "soft_verification"); !soft.empty())
    return out(LeftOutReason::soft_verification, join_texts(soft));
  if (const auto settings = texts_at(k, "settings_needed"); !settings.empty()) {
    const std::string why = form_rule_out(k, carried);
    if (!why.empty())
      return out(LeftOutReason::needs_build_setting, join_texts(settings) + "; " + why);
    return std::nullopt;
  }
  if (!k.contains("best_source") || !k["best_source"].is_string())
    return out(LeftOutReason::no_source_text,
               "the result was written before kblaster recorded best_source; run optimize again");
  if (candidate_fingerprint(k["best_source"].get<std::string>()) != text_at(k, "best_candidate"))
    return out(LeftOutReason::source_not_verified,
               "best_source does not hash to best_candidate " + text_at(k, "best_candidate"));
  carried = {.text = k["best_source"].get<std::string>(),
             .speedup = speedup,
             .written_as_source = {},
             .source_defaults = {}};
  return std::nullopt;
}

std::string times(double speedup) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", speedup);
  return text;
}

// "matmul_naive 1.21x (99% CI 1.21x-1.21x): launch_geometry_tuning".
std::string change_line(const VerifiedChange& c) {
  std::string techniques;
  for (const auto& t : c.path) techniques += (techniques.empty() ? "" : " -> ") + t;
  return c.kernel + " " + times(c.speedup) + " (99% CI " + times(c.ci_low) + "-" +
         times(c.ci_high) + "): " + techniques;
}

}  // namespace

std::string_view left_out_phrase(LeftOutReason reason) {
  switch (reason) {
    case LeftOutReason::not_searched:
      return "not searched";
    case LeftOutReason::unusable_name:
      return "its name or source path cannot be used in git";
    case LeftOutReason::not_faster:
      return "no verified speedup";
    case LeftOutReason::untrusted_timing:
      return "the final A/B's timing was not trusted";
    case LeftOutReason::soft_verification:
      return "the soft verification failed";
    case LeftOutReason::needs_build_setting:
      return "needs a build setting";
    case LeftOutReason::no_source_text:
      return "the result does not carry the verified source";
    case LeftOutReason::source_not_verified:
      return "the source in the result is not the one verified";
    case LeftOutReason::base_differs:
      return "the base branch's source differs from the one optimized";
    case LeftOutReason::same_file:
      return "its source is the one another kernel's change rewrites";
  }
  return "";
}

std::string LeftOut::why() const {
  return std::string(left_out_phrase(reason)) + (detail.empty() ? "" : " (" + detail + ")");
}

OptimizationSelection select_verified_changes(const json& result) {
  OptimizationSelection selection;
  const json kernels = result.is_object() ? result.value("kernels", json::array()) : json();
  if (!kernels.is_array()) return selection;
  for (const json& k : kernels) {
    const std::string name = text_at(k, "kernel");
    Carried carried;
    if (auto left = rule_out(k, name, carried)) {
      selection.left_out.push_back(std::move(*left));
      continue;
    }
    const double value = *number_at(carried.speedup, "value");
    selection.changes.push_back({.kernel = name,
                                 .source = text_at(k, "source"),
                                 .text = std::move(carried.text),
                                 .baseline = text_at(k, "baseline_candidate"),
                                 .speedup = value,
                                 .ci_low = number_at(carried.speedup, "ci_low").value_or(value),
                                 .ci_high = number_at(carried.speedup, "ci_high").value_or(value),
                                 .path = texts_at(k, "path"),
                                 .written_as_source = std::move(carried.written_as_source),
                                 .source_defaults = std::move(carried.source_defaults)});
  }
  return selection;
}

std::vector<PlannedPr> plan_optimization_prs(std::vector<VerifiedChange> all, PrGrouping grouping,
                                             std::vector<LeftOut>& left_out) {
  std::vector<PlannedPr> prs;
  std::vector<VerifiedChange> changes;
  for (VerifiedChange& c : all) {
    const auto same = std::find_if(changes.begin(), changes.end(),
                                   [&](const VerifiedChange& e) { return e.source == c.source; });
    if (grouping == PrGrouping::per_sweep && same != changes.end())
      left_out.push_back({.kernel = c.kernel,
                          .reason = LeftOutReason::same_file,
                          .detail = c.source + ", with " + same->kernel + "'s"});
    else
      changes.push_back(std::move(c));
  }
  if (grouping == PrGrouping::per_kernel) {
    for (const VerifiedChange& c : changes) {
      const std::string title = "kblaster: " + c.kernel + " " + times(c.speedup) + " faster";
      prs.push_back({.branch = "kblaster/optimize/" + c.kernel,
                     .title = title,
                     .commit_message = title + "\n\nVerified and timed by kblaster optimize: " +
                                       change_line(c) + "\n\n" + speedup_caveat() + "\n",
                     .changes = {c}});
    }
    return prs;
  }
  if (changes.empty()) return prs;
  double best = 1.0;
  std::string lines;
  for (const VerifiedChange& c : changes) {
    best = std::max(best, c.speedup);
    lines += "- " + change_line(c) + "\n";
  }
  const std::string title = "kblaster: " + std::to_string(changes.size()) + " kernel" +
                            (changes.size() == 1 ? "" : "s") + " faster, up to " + times(best);
  prs.push_back({.branch = "kblaster/optimize/sweep",
                 .title = title,
                 .commit_message = title + "\n\nVerified and timed by kblaster optimize:\n" +
                                   lines + "\n" + speedup_caveat() + "\n",
                 .changes = changes});
  return prs;
}

std::optional<std::string> kernel_repository_dir(const std::vector<std::string>& config_dirs,
                                                 std::string_view repository) {
  while (repository.size() > 1 && repository.ends_with('/')) repository.remove_suffix(1);
  std::optional<std::string> best;
  for (const std::string& dir : config_dirs) {
    const std::string_view folder =
        std::string_view(dir).substr(0, dir.empty() ? 0 : dir.size() - 1);
    const bool matches =
        folder.empty() || repository == folder ||
        (repository.ends_with(folder) && repository[repository.size() - folder.size() - 1] == '/');
    if (matches && (!best || dir.size() > best->size())) best = dir;
  }
  return best;
}

}  // namespace kblaster
