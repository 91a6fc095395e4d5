#include "eval/verify_step.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "eval/seed_source.h"

namespace kblaster {
namespace {

std::string scientific(double v) {
  std::ostringstream s;
  s << std::setprecision(2) << std::scientific << v;
  return s.str();
}

KernelVerification verify_one(const KernelBuild& b, HarnessClient& harness,
                              const std::vector<std::uint64_t>& seeds, Session& session,
                              Result<bool>& error) {
  KernelVerification kv;
  kv.spec = b.spec;
  const KernelSpec& spec = *b.spec;
  if (!b.result.ok()) {
    kv.skip_reason = "it did not build";
    return kv;
  }
  if (b.reference && !b.reference->ok()) {
    kv.skip_reason = "its reference did not build";
    return kv;
  }
  if (spec.reference.kind == ReferenceSpec::Kind::base_revision) {
    kv.skip_reason = "its reference is the base revision, which only `kblaster check` has";
    return kv;
  }
  if (auto s = harness.load({b.result.object.string()}, reference_object(b)); !s) {
    error = s.error();
    return kv;
  }
  auto sizes = verify_at_every_size(harness, spec, 0, seeds, Against{}, [&](const SizeVerdict& s) {
    session.progress << "  " << spec.name << "  " << s.size << "  " << describe_verdict(s.verdict)
                     << "\n";
  });
  if (!sizes) {
    error = sizes.error();
    return kv;
  }
  kv.sizes = std::move(*sizes);
  for (const auto& [size, why] : spec.left_out)
    session.progress << "  " << spec.name << "  " << size_label(spec, size) << "  left out: " << why
                     << "\n";
  kv.status = first_failure(kv.sizes) ? KernelVerification::Status::failed
                                      : KernelVerification::Status::passed;
  return kv;
}

}  // namespace

std::string describe_verdict(const CheckVerdict& v) {
  if (v.passed)
    return "passed (max abs error " + scientific(v.number("max_abs_error")) + ", " +
           (v.detail.contains("max_rel_error") && v.detail["max_rel_error"].is_number()
                ? "max rel error " + scientific(v.number("max_rel_error"))
                : std::string(
                      "no relative error: no expected value is a normal float (integer outputs, "
                      "or only zeros, subnormals, infinities or NaNs)")) +
           ")" +
           (v.detail.is_object() && v.detail.value("synchronizes", false)
                ? std::string("; the launcher waits for the GPU (a device sync, or cudaFree of a "
                              "workspace), so it was verified unheld, without the check for work "
                              "outside its stream, and is timed by wall time: "
                              "cudaMallocAsync/cudaFreeAsync on its stream would not wait")
                : std::string());
  std::string line = "FAILED " + v.reason + ": " + v.message;
  if (v.detail.contains("seed")) line += " [seed " + v.detail["seed"].dump() + "]";
  return line;
}

double request_timeout(const VerifyFlags& flags) {
  return std::max(flags.timeout_s, flags.timeout_floor_s);
}

std::vector<std::uint64_t> verification_seeds(const VerifyFlags& flags,
                                              std::uint64_t default_first) {
  const std::uint64_t first = flags.seed_base != 0 ? flags.seed_base : default_first;
  std::vector<std::uint64_t> seeds;
  for (int i = 0; i < flags.seeds; ++i) seeds.push_back(first + static_cast<std::uint64_t>(i));
  return seeds;
}

VerifyFlags seeded(VerifyFlags flags) {
  if (flags.seed_base == 0) flags.seed_base = draw_seed();
  return flags;
}

const char* verification_status_name(KernelVerification::Status s) {
  switch (s) {
    case KernelVerification::Status::passed:
      return "passed";
    case KernelVerification::Status::failed:
      return "failed";
    case KernelVerification::Status::skipped:
      return "skipped";
  }
  return "?";
}

Result<std::vector<KernelVerification>> verify_kernels(const BuildReport& builds,
                                                       HarnessClient& harness,
                                                       const VerifyFlags& flags, Session& session) {
  const auto seeds = verification_seeds(flags, draw_seed());
  const std::uint64_t base = seeds.front();
  session.progress << "verifying " << builds.kernels.size() << " kernel(s) at every size with "
                   << flags.seeds << " seed(s) from " << base << " (repeat with --seed " << base
                   << ")\n";
  std::vector<KernelVerification> out;
  const ReferenceWork before = harness.reference_work();
  for (std::size_t i = 0; i < builds.kernels.size(); ++i) {
    const KernelBuild& b = builds.kernels[i];
    session.progress << "[" << i + 1 << "/" << builds.kernels.size() << "] " << b.spec->name
                     << "\n";
    Result<bool> error = true;
    KernelVerification kv = verify_one(b, harness, seeds, session, error);
    if (!error) return error.error();
    if (kv.status == KernelVerification::Status::skipped)
      session.progress << "  " << b.spec->name << "  skipped: " << kv.skip_reason << "\n";
    out.push_back(std::move(kv));
  }
  say_reference_work(session.progress, "", harness.reference_work() - before);
  return out;
}

void say_reference_work(std::ostream& progress, std::string_view prefix,
                        const ReferenceWork& work) {
  if (work.runs > 0 || work.reused > 0) progress << prefix << describe_reference_work(work) << "\n";
}

std::string describe_reference_work(const ReferenceWork& work) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f s", work.seconds);
  const std::string shared =
      work.shared > 0 ? ", " + std::to_string(work.shared) + " from an earlier harness's files"
                      : "";
  return "references: ran " + std::to_string(work.runs) + " time(s) in " + seconds + ", reused " +
         std::to_string(work.reused) + " time(s)" + shared +
         " (a seed's reference outputs are kept and reused within a command where they fit)";
}

std::vector<KernelVerification> skipped_verifications(const LoadedRepo& repo,
                                                      const std::string& reason) {
  std::vector<KernelVerification> out;
  for (const KernelSpec* spec : repo.selected)
    out.push_back({.spec = spec,
                   .status = KernelVerification::Status::skipped,
                   .skip_reason = reason,
                   .sizes = {}});
  return out;
}

nlohmann::json to_json(const KernelVerification& v) {
  nlohmann::json sizes = nlohmann::json::array();
  for (const auto& s : v.sizes)
    sizes.push_back({{"size", s.size},
                     {"passed", s.verdict.passed},
                     {"reason", s.verdict.reason},
                     {"message", s.verdict.message},
                     {"detail", s.verdict.detail}});
  nlohmann::json j = {
      {"name", v.spec->name}, {"status", verification_status_name(v.status)}, {"sizes", sizes}};
  if (!v.skip_reason.empty()) j["skip_reason"] = v.skip_reason;
  if (!v.spec->left_out.empty()) {
    nlohmann::json left_out = nlohmann::json::array();
    for (const auto& [size, why] : v.spec->left_out)
      left_out.push_back({{"size", size_label(*v.spec, size)}, {"why", why}});
    j["left_out"] = left_out;
  }
  return j;
}

}  // namespace kblaster
