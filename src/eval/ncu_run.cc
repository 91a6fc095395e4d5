#include "eval/ncu_run.h"

#include "core/bounded_read.h"
#include "core/file_write.h"
#include "core/input_limits.h"
#include "eval/gpu_context.h"
#include "gpu/harness_client.h"
#include "gpu/harness_session.h"
#include "profile/metric_list.h"

namespace kblaster {

Result<NcuRun> run_under_ncu(const NcuTool& ncu, const KernelBuild& build, const SizePlan& size,
                             NcuMetrics metrics, const std::filesystem::path& csv, double timeout_s,
                             std::uint64_t seed) {
  KB_TRY(make_directories(csv.parent_path()));
  std::error_code ec;
  std::filesystem::remove(csv, ec);  // a stale log must not pass for this run's
  SandboxPolicy policy;
  policy.max_open_files = 4096;
  policy.wall_timeout_s = timeout_s;
  // Where counters are admin-only, a root ncu needs CAP_SYS_ADMIN to read them.
  policy.capabilities = Capabilities::keep;
  HarnessSession session(ncu_command(ncu, harness_path(), csv, metrics, profile_metric_names()),
                         policy);
  HarnessClient client(session, {timeout_s, timeout_s});
  // Any failure under ncu ends in a run with a problem, not an Error: the caller
  // then times the kernel instead. ncu's own log says why where it can.
  std::string failed;
  if (auto hello = client.hello(); !hello) failed = hello.error().message;
  if (failed.empty())
    // The reference comes too: an input generator lives in its object.
    if (auto loaded = client.load({build.result.object.string()}, reference_object(build)); !loaded)
      failed = loaded.error().message;
  if (failed.empty())
    if (auto set = client.setup(harness_args(*build.spec, size)); !set)
      failed = set.error().message;
  if (failed.empty())
    if (auto t = client.profile(0, seed); !t) failed = t.error().message;
  auto exit = session.finish(timeout_s);
  const auto sandbox = session.sandbox();  // kept after the run ended, to explain a failure
  if (failed.empty() && !exit) failed = exit.error().message;
  NcuRun run;
  // ncu writes the kernel's names into it, so it is read as untrusted: within kMaxCsvBytes.
  auto text = read_bounded(csv, kMaxCsvBytes, "ncu's log");
  const bool written = text.ok();
  if (written) run.csv = std::move(*text);
  const auto from_log = written ? ncu_log_problem(run.csv) : std::nullopt;
  if (!failed.empty())
    run.problem = "the harness under ncu failed (" + failed + ")" +
                  (from_log ? "; ncu says: " + *from_log : std::string()) +
                  (sandbox && sandbox->network_isolated && !sandbox->loopback_up
                       ? "; its network: " + network_summary(*sandbox)
                       : std::string());
  else if (!written)
    run.problem = "ncu wrote no log that kblaster could read: " + text.error().message;
  else
    run.problem = from_log;
  return run;
}

}  // namespace kblaster
