// Which kernels of an optimize result an optimization pull request may carry, and why
// each other kernel may not: pure rules over the result value (docs/publishing.md,
// "Optimization pull requests"), and the pull requests they make.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/publish_config.h"

namespace kblaster {

// Why a kernel is not in a pull request, in the order the rules are tried.
enum class LeftOutReason {
  not_searched,         // the search skipped it (skip_reason says why)
  unusable_name,        // its name cannot name a branch, or its source is no repository path
  not_faster,           // the final A/B did not say FASTER
  untrusted_timing,     // the final A/B's timing was rejected or not trusted
  soft_verification,    // the static rules found something in the best
  needs_build_setting,  // the gain needs build settings, and no verified source form has it
  no_source_text,       // the result does not carry the verified text (best_source)
  source_not_verified,  // best_source is not the text best_candidate names
  base_differs,         // the base branch's file is not the source the search started from
  same_file,            // a sweep's pull request already changes its source for another kernel
};

// "needs a build setting", …: how a report and the progress name the reason.
std::string_view left_out_phrase(LeftOutReason reason);

struct LeftOut {
  std::string kernel;
  LeftOutReason reason = LeftOutReason::not_searched;
  std::string detail;  // the result's own words: the settings needed, the verdict, …
  // "needs a build setting (nvcc_flags: add \"-use_fast_math\")".
  std::string why() const;
};

// One kernel's verified source change, as the result records it.
struct VerifiedChange {
  std::string kernel;
  std::string source;    // the file, relative to the kernel repository
  std::string text;      // its whole new text (best_source)
  std::string baseline;  // baseline_candidate: what the base branch's file must hash to
  double speedup = 1.0, ci_low = 1.0, ci_high = 1.0;  // baseline time / best time
  std::vector<std::string> path;                      // the techniques, in order
  // Set when the search's best needed build settings and this is its verified source form
  // (search/source_form_check.h): one line per setting written as source, and the -D
  // tunables whose value now lives in the source's #define.
  std::vector<std::string> written_as_source;
  std::vector<std::string> source_defaults;
};

struct OptimizationSelection {
  std::vector<VerifiedChange> changes;  // in the result's order
  std::vector<LeftOut> left_out;
};

// Every kernel of `result` (kind optimize) either as a change, when its final A/B says
// FASTER with a trusted timing and a speedup, its soft verification passed, and either it
// needs no build setting and the result carries the text whose fingerprint is
// best_candidate, or it needs some and its source form (written as source, verified, and
// FASTER against the baseline with a trusted timing) carries the text its fingerprint
// names, with the form's own speedup; or left out with the first rule it fails. Never fails: a
// field of the wrong type fails its rule.
OptimizationSelection select_verified_changes(const nlohmann::json& result);

// A pull request to make: its head branch, title and commit message, and the changes.
struct PlannedPr {
  std::string branch;  // kblaster/optimize/<kernel>, or kblaster/optimize/sweep
  std::string title, commit_message;
  std::vector<VerifiedChange> changes;
};

// One pull request per change, or one for them all, as `grouping` says; none for none.
// For one pull request, a change to a file an earlier change already rewrites is moved to
// `left_out` (same_file): a file is replaced whole, so only one verified text can go in.
std::vector<PlannedPr> plan_optimization_prs(std::vector<VerifiedChange> changes,
                                             PrGrouping grouping, std::vector<LeftOut>& left_out);

// The folder, among `config_dirs` (each holding a kblaster.toml: "" for the repository's
// root, else "examples/kernels/"), that the optimize result's `repository` (an absolute
// path on the machine that ran it) ends with; the longest such. nullopt when none is.
std::optional<std::string> kernel_repository_dir(const std::vector<std::string>& config_dirs,
                                                 std::string_view repository);

}  // namespace kblaster
