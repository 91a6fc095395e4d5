#include "gpu/candidate_builder.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <set>

#include "core/file_write.h"
#include "core/include_scan.h"
#include "core/include_search.h"
#include "core/source_tree.h"
#include "gpu/elf_object.h"
#include "gpu/shim.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;

// Reads repository files under `root`, each at most once, so the scan and the
// cache key see the same bytes.
SourceReader tree_reader(const fs::path& root) {
  auto tree = std::make_shared<DirectoryTree>(root);
  auto seen = std::make_shared<std::map<std::string, std::optional<std::string>>>();
  return [tree, seen](const std::string& path) -> std::optional<std::string> {
    if (auto it = seen->find(path); it != seen->end()) return it->second;
    return seen->emplace(path, tree->read(path)).first->second;
  };
}

// -D values: each tunable's requested or first value (none for a source default), then
// other requested macros.
std::vector<std::string> resolve_defines(const KernelSpec& spec, const BuildRequest& request) {
  std::vector<std::string> defines;
  std::map<std::string, std::string> rest = request.macros;
  for (const auto& t : spec.tunables) {
    if (request.source_defaults.contains(t.name)) continue;
    auto it = rest.find(t.name);
    if (it != rest.end()) {
      defines.push_back(t.name + "=" + it->second);
      rest.erase(it);
    } else if (!t.values.empty()) {
      defines.push_back(t.name + "=" + t.values.front());
    }
  }
  for (const auto& [name, value] : rest) defines.push_back(name + "=" + value);
  return defines;
}

// The first error, or null when the log named none.
Diagnostic* first_error(std::vector<Diagnostic>& diagnostics) {
  for (auto& d : diagnostics)
    if (d.severity == Diagnostic::Severity::error) return &d;
  return nullptr;
}

// An error in the shim, or an undefined launcher at link time, is the
// launcher's fault; anything else is the user's code.
BuildOutcome classify_failure(const Diagnostic* first, const fs::path& shim) {
  const bool in_shim =
      first && (fs::path(first->file).lexically_normal() == shim.lexically_normal() ||
                first->message.find("kblaster_entry") != std::string::npos ||
                first->message.find("kblaster_reference") != std::string::npos);
  return in_shim ? BuildOutcome::launcher_mismatch : BuildOutcome::compile_error;
}

std::string failure_summary(const KernelSpec& spec, BuildOutcome outcome, const Diagnostic* first,
                            int exit_code, bool reference) {
  if (outcome == BuildOutcome::launcher_mismatch)
    return std::string(reference ? "reference '" : "launcher '") + spec.launcher +
           "' cannot be called as " + launcher_signature(spec) +
           " (input buffers may be T* or const T*): " + first->message;
  if (first) return "compile error: " + first->str();
  return "compile failed with exit code " + std::to_string(exit_code) + " and no diagnostic";
}

void make_repo_relative(std::vector<Diagnostic>& diagnostics, const fs::path& root) {
  for (auto& d : diagnostics) {
    const fs::path file(d.file);
    if (!file.is_absolute()) continue;
    const fs::path relative = file.lexically_normal().lexically_relative(root.lexically_normal());
    if (!relative.empty() && *relative.begin() != "..") d.file = relative.generic_string();
  }
}

// The function the shim of `kind` exports, which the harness looks up in the object.
const char* entry_symbol(ShimKind kind) {
  return kind == ShimKind::cpu_reference ? "kblaster_reference" : "kblaster_entry";
}

// What a compile that exited 0 left at `object`: nothing to say if it is a sound
// shared object, an entry_missing summary if it lacks the entry point, else an
// environment Error (the compiler, not the user's code, failed).
Result<std::string> check_built_object(const fs::path& object, ShimKind kind,
                                       const std::string& compiler_version) {
  const ObjectCheck check = check_shared_object(object, entry_symbol(kind));
  if (check.ok()) return std::string();
  if (check.defect == ObjectDefect::symbol_missing)
    return std::string("the built object does not export `") + entry_symbol(kind) +
           "` (does the source hide it, with a visibility pragma or a macro of that name?)";
  const std::string found = check.defect == ObjectDefect::missing
                                ? "wrote no object at " + object.string()
                                : "wrote " + object.string() +
                                      ", which is not a shared object for this machine (" +
                                      check.detail + ")";
  return Error::environment("the compiler (nvcc " + compiler_version + ") exited 0 but " + found +
                            "; check the CUDA installation (or KBLASTER_NVCC) and the kernel's "
                            "nvcc_flags");
}

// Everything the object depends on, with repository-relative paths.
CacheKeyInputs key_inputs(const KernelSpec& spec, const BuildRequest& request,
                          const SourceReader& read, const std::string& compiler_version) {
  CacheKeyInputs key{generate_shim_of_kind(request.shim, spec, spec.source),
                     {{spec.source, *read(spec.source)}},
                     spec.include_dirs,
                     spec.nvcc_flags,
                     resolve_defines(spec, request),
                     request.arch,
                     compiler_version};
  key.flags.insert(key.flags.end(), request.extra_flags.begin(), request.extra_flags.end());
  const SourceLister list = [root = request.repo_root] { return DirectoryTree(root).list_files(); };
  const std::vector<std::string> dirs = include_search_dirs(spec);
  std::set<std::string> keyed = {spec.source};
  const auto add = [&](const std::string& path) {
    if (keyed.insert(path).second) key.files.emplace_back(path, *read(path));
  };
  for (const auto& path : scan_includes(spec.source, dirs, read, list)) add(path);
  for (const auto& forced : forced_includes(spec)) {  // -include FILE: part of the object too
    if (!read(forced)) continue;
    add(forced);
    for (const auto& path : scan_includes(forced, dirs, read, list)) add(path);
  }
  return key;
}

// A file name stem for one build's shim and object that no concurrent build shares.
std::string work_stem(const std::string& cache_key) {
  static std::atomic<unsigned> counter{0};
  return cache_key.substr(0, 16) + "-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter++);
}

}  // namespace

const char* build_outcome_name(BuildOutcome outcome) {
  switch (outcome) {
    case BuildOutcome::built:
      return "built";
    case BuildOutcome::cache_hit:
      return "cache_hit";
    case BuildOutcome::compile_error:
      return "compile_error";
    case BuildOutcome::launcher_mismatch:
      return "launcher_mismatch";
    case BuildOutcome::source_missing:
      return "source_missing";
    case BuildOutcome::entry_missing:
      return "entry_missing";
  }
  return "unknown";
}

Result<BuildResult> CandidateBuilder::build(const KernelSpec& spec, const BuildRequest& request) {
  BuildResult result;
  // Absolute: nvcc runs in it, so every path handed to nvcc must not depend on the caller's.
  const fs::path root = fs::absolute(request.repo_root);
  const SourceReader read = tree_reader(root);
  if (!read(spec.source)) {
    result.outcome = BuildOutcome::source_missing;
    result.summary =
        "source " + spec.source + " of kernel '" + spec.name + "' not found under " + root.string();
    return result;
  }

  const CacheKeyInputs key = key_inputs(spec, request, read, compiler_.version());
  auto cache_key = compute_cache_key(key);
  if (!cache_key) return cache_key.error();
  result.cache_key = *cache_key;
  auto hit = cache_.lookup(result.cache_key, entry_symbol(request.shim));
  if (hit.status == CacheStatus::hit) {
    result.outcome = BuildOutcome::cache_hit;
    result.object = hit.object;
    result.summary = "cache hit";
    return result;
  }
  result.cache_repair = std::move(hit.removed);

  const fs::path work = fs::absolute(work_dir_);
  KB_TRY(make_directories(work));
  std::error_code ec;
  const std::string stem = work_stem(result.cache_key);
  CompileJob job;
  job.source = work / (stem + ".shim.cu");
  job.output = work / (stem + ".so");
  job.arch = request.arch;
  job.defines = key.defines;
  job.flags = key.flags;
  for (const auto& dir : spec.include_dirs) job.include_dirs.push_back(root / dir);
  job.working_dir = root;  // relative paths in nvcc_flags (-I, -include) are the repository's
  job.read_roots = repository_read_roots(root);
  KB_TRY(write_file(job.source,
                    generate_shim_of_kind(request.shim, spec, (root / spec.source).string())));

  auto compiled = compiler_.compile(job);
  if (!compiled) return compiled.error();
  result.log = std::move(compiled->log);
  result.seconds = compiled->seconds;
  result.sandbox = compiled->sandbox;
  result.diagnostics = parse_diagnostics(result.log);
  if (compiled->exit_code != 0) {
    // Classified before paths are made relative, since the shim may sit inside the repository.
    const Diagnostic* first = first_error(result.diagnostics);
    result.outcome = classify_failure(first, job.source);
    make_repo_relative(result.diagnostics, root);
    result.summary =
        failure_summary(spec, result.outcome, first, compiled->exit_code, request.reference);
    fs::remove(job.output, ec);
    return result;
  }
  make_repo_relative(result.diagnostics, root);
  auto problem = check_built_object(job.output, request.shim, compiler_.version());
  if (!problem || !problem->empty()) {
    fs::remove(job.output, ec);
    if (!problem) return problem.error();
    result.outcome = BuildOutcome::entry_missing;
    result.summary = std::move(*problem);
    return result;
  }
  auto stored = cache_.store(result.cache_key, job.output, entry_symbol(request.shim));
  fs::remove(job.output, ec);
  fs::remove(job.source, ec);
  if (!stored) return stored.error();
  result.object = *stored;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", result.seconds);
  result.summary = std::string("built in ") + seconds + " s";
  return result;
}

}  // namespace kblaster
