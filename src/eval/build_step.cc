#include "eval/build_step.h"

#include <iomanip>

#include "core/units.h"
#include "gpu/compiler.h"
#include "gpu/python_module_stage.h"

namespace kblaster {
namespace {

void resolve_arch(const LoadedRepo& repo, const BuildFlags& flags, const DeviceInfo& device,
                  BuildReport& report) {
  if (!flags.arch.empty()) {
    report.arch = flags.arch;
    report.arch_reason = "--arch";
  } else if (repo.config.project.arch != "auto") {
    report.arch = repo.config.project.arch;
    report.arch_reason = "[project].arch";
  } else if (device.present) {
    report.arch = device.arch();
    report.arch_reason = "auto: " + device.name;
  } else {
    report.arch = "sm_90";
    report.arch_reason = "auto: no GPU present, so the default";
  }
}

void print_progress(Session& session, std::size_t index, std::size_t total, const KernelBuild& b) {
  std::ostream& p = session.progress;
  const std::string& name = b.spec->name;
  p << "[" << index << "/" << total << "] " << name
    << std::string(name.size() < 16 ? 16 - name.size() : 2, ' ');
  const BuildResult& r = b.result;
  switch (r.outcome) {
    case BuildOutcome::built:
      p << "built in " << format_seconds(r.seconds) << "  -> " << r.object.string();
      break;
    case BuildOutcome::cache_hit:
      p << "cache hit  -> " << r.object.string();
      break;
    default:
      p << build_outcome_name(r.outcome) << ": " << r.summary;
      break;
  }
  if (!r.cache_repair.empty()) p << "; " << r.cache_repair;
  if (!b.reference && b.spec->reference.kind == ReferenceSpec::Kind::base_revision)
    p << "; reference: the base revision, which `kblaster check` builds";
  if (b.reference) {
    const BuildResult& ref = *b.reference;
    p << "; reference ";
    if (b.spec->reference.kind == ReferenceSpec::Kind::python && ref.ok())
      p << "PyTorch module " << b.spec->reference.path << ":" << b.spec->reference.function
        << " (run by the harness's Python worker)";
    else if (ref.outcome == BuildOutcome::built)
      p << "built in " << format_seconds(ref.seconds);
    else if (ref.outcome == BuildOutcome::cache_hit)
      p << "cache hit";
    else
      p << build_outcome_name(ref.outcome) << ": " << ref.summary;
  }
  p << "\n";
}

}  // namespace

std::optional<ReferenceObject> reference_object(const KernelBuild& b) {
  if (!b.reference || !b.reference->ok()) return std::nullopt;
  switch (b.spec->reference.kind) {
    case ReferenceSpec::Kind::cpu:
      return ReferenceObject{ReferenceObject::Kind::cpu, b.reference->object.string(), ""};
    case ReferenceSpec::Kind::python:
      return ReferenceObject{ReferenceObject::Kind::python, b.reference->object.string(),
                             b.spec->reference.function, b.spec->reference.train};
    default:
      return ReferenceObject{ReferenceObject::Kind::gpu, b.reference->object.string(), ""};
  }
}

Result<BuildReport> build_kernels(const LoadedRepo& repo, const BuildFlags& flags,
                                  const DeviceInfo& device, Session& session,
                                  ReferenceBuilds references) {
  BuildReport report;
  resolve_arch(repo, flags, device, report);
  report.cache_dir = flags.cache_dir.empty() ? repo.root / ".kblaster" / "cache"
                                             : std::filesystem::absolute(flags.cache_dir);
  auto nvcc = NvccCompiler::find();
  if (!nvcc) return nvcc.error();
  report.compiler_version = nvcc->version();
  CompileCache cache(report.cache_dir);
  CandidateBuilder builder(*nvcc, cache, report.cache_dir / "shims");
  session.progress << "building " << repo.selected.size() << " kernel(s) for " << report.arch
                   << " (" << report.arch_reason << ") with nvcc " << nvcc->version() << "; cache "
                   << report.cache_dir.string() << "\n";
  BuildRequest request;
  request.repo_root = repo.root;
  request.arch = report.arch;
  for (const KernelSpec* spec : repo.selected) {
    auto result = builder.build(*spec, request);
    if (!result) return result.error();
    KernelBuild b{spec, std::move(*result), std::nullopt};
    if (references == ReferenceBuilds::build && b.result.ok() &&
        spec->reference.kind == ReferenceSpec::Kind::python) {
      auto staged = stage_python_module(*spec, repo.root, report.cache_dir);
      if (!staged) return staged.error();
      b.reference = std::move(*staged);
    } else if (references == ReferenceBuilds::build && b.result.ok() &&
               spec->reference.kind != ReferenceSpec::Kind::base_revision) {
      BuildRequest ref_request = request;
      ref_request.shim = spec->reference.kind == ReferenceSpec::Kind::cpu ? ShimKind::cpu_reference
                                                                          : ShimKind::candidate;
      ref_request.reference = true;
      auto ref = builder.build(reference_spec(*spec), ref_request);
      if (!ref) return ref.error();
      b.reference = std::move(*ref);
    }
    if (!b.ok())
      ++report.failed;
    else if (b.result.outcome == BuildOutcome::cache_hit)
      ++report.cache_hits;
    else
      ++report.compiled;
    report.kernels.push_back(std::move(b));
    print_progress(session, report.kernels.size(), repo.selected.size(), report.kernels.back());
  }
  for (const auto& b : report.kernels)
    if (b.result.sandbox) {
      session.progress << "nvcc ran sandboxed: its network: " << network_summary(*b.result.sandbox)
                       << "; its files: " << filesystem_summary(*b.result.sandbox) << "\n";
      break;
    }
  int by_reference = 0;  // failed although the kernel itself built: its reference did not
  for (const auto& b : report.kernels) by_reference += !b.ok() && b.result.ok();
  session.progress << "build: " << report.compiled << " compiled, " << report.cache_hits
                   << " from cache, " << report.failed << " failed";
  if (by_reference > 0)
    session.progress << " (" << by_reference << " of them built, but not "
                     << (by_reference == 1 ? "its" : "their") << " reference)";
  session.progress << "\n";
  return report;
}

nlohmann::json to_json(const BuildReport& report) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& b : report.kernels) {
    const BuildResult& r = b.result;
    nlohmann::json diagnostics = nlohmann::json::array();
    for (const auto& d : r.diagnostics)
      diagnostics.push_back({{"file", d.file},
                             {"line", d.line},
                             {"column", d.column},
                             {"severity", severity_name(d.severity)},
                             {"message", d.message}});
    nlohmann::json reference = nullptr;
    if (b.reference)
      reference = {{"outcome", build_outcome_name(b.reference->outcome)},
                   {"object", b.reference->object.string()},
                   {"summary", b.reference->summary}};
    kernels.push_back({{"name", b.spec->name},
                       {"reference", reference},
                       {"outcome", build_outcome_name(r.outcome)},
                       {"object", r.object.string()},
                       {"cache_key", r.cache_key},
                       {"seconds", r.seconds},
                       {"summary", r.summary},
                       {"diagnostics", diagnostics}});
  }
  return {{"arch", report.arch},
          {"arch_reason", report.arch_reason},
          {"nvcc", report.compiler_version},
          {"cache_dir", report.cache_dir.string()},
          {"cache",
           {{"hits", report.cache_hits}, {"compiled", report.compiled}, {"failed", report.failed}}},
          {"kernels", kernels}};
}

}  // namespace kblaster
