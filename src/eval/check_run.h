// `kblaster check` below the command line: both ends of a revision range, already
// written to disk, built; then each hit kernel verified at head and timed against
// base on the GPU, one verdict per kernel. Git stays above: the caller plans the
// range and materialises its trees.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "eval/build_step.h"
#include "eval/check_step.h"
#include "eval/loaded_repo.h"
#include "eval/provenance.h"
#include "eval/session.h"
#include "eval/verify_step.h"

namespace kblaster {

// A kernel the range hits.
struct CheckTarget {
  std::string kernel;                    // its name at head (at base when deleted)
  std::string why;                       // why the range hits it, e.g. "source_changed"
  std::optional<std::string> base_name;  // its name at base; nullopt when new
  bool at_head = true;                   // false: deleted at head
};

// What a new kernel's row says when the change also deletes kernels (a kernel renamed and
// rewritten reads as one new and one deleted, and the new one is compared with nothing): "the
// change also deletes `k`: …", naming three at most and counting the rest; "" when none.
std::string deleted_kernels_note(const std::vector<CheckTarget>& targets);

// One end of the range: its tree on disk, its config, and the kernels to build
// (`repo.selected`), with the line that says which revision it is.
struct CheckSide {
  LoadedRepo repo;
  std::string label;  // "revision 1a2b3c4 in /repo/.kblaster/trees/1a2b…"
};

struct CheckInputs {
  std::string source;  // where the range came from: "--base/--head", "pull_request event", …
  std::vector<CheckTarget> targets;
  CheckSide head;
  std::optional<CheckSide> base;  // nullopt: no base, or its config did not load
  CheckConfig policy;             // head's [check], where not looser than base's (check_policy)
  std::vector<std::string> policy_kept_from_base;  // CheckPolicy::kept_from_base
};

// What check found: both ends' builds, one row per target in order, and the seeds.
// Its builds point into the CheckInputs' configs, so keep the inputs with it.
struct CheckRun {
  Provenance provenance;  // the caller's, with the GPU, nvcc, seeds and times filled in
  BuildReport head_builds, base_builds;
  std::vector<CheckRow> rows;
  std::vector<std::uint64_t> seeds;  // verification seeds; empty when nothing ran on the GPU
  std::string skipped;               // why GPU work was skipped; "" when it was not
};

// Builds head (with references) and base, gives each target its row, then verifies
// and times the pending ones on the GPU. With no CUDA device they are SKIPPED and
// `skipped` says why. Errors: a missing nvcc, an unusable cache, harness failures
// that are not verdicts.
// `provenance` carries what only the caller knows (version, command line, repository,
// revisions); the run adds the rest.
Result<CheckRun> run_check(const CheckInputs& inputs, const BuildFlags& build,
                           const VerifyFlags& verify, Provenance provenance, Session& session);

// The version of the check result's JSON; reports/schema/check.schema.json describes it.
inline constexpr int kCheckSchemaVersion = 1;

// The check result: {"kind": "check", "schema_version", "provenance", "base", "head",
// "source", "fail_on", "min_effect", "summary": {verdict name: kernels}, "kernels": [a
// row each], "builds": {"head", "base"}, "skipped" when GPU work was, and
// "policy_kept_from_base" when head's [check] was looser than base's}.
nlohmann::json to_json(const CheckInputs& inputs, const CheckRun& run);

// The exit code of a run: check_exit_code's, but a run whose GPU work was skipped
// without a problem found exits 3 (the environment lacked a GPU).
ExitCode check_run_exit_code(const CheckRun& run, CheckConfig::FailOn fail_on);

}  // namespace kblaster
