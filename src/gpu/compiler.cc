#include "gpu/compiler.h"

#include <unistd.h>

#include <cstdlib>

#include "gpu/subprocess.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;

bool is_executable_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

bool sets_language_standard(const std::vector<std::string>& flags) {
  for (const auto& f : flags)
    if (f == "-std" || f == "--std" || f.starts_with("-std=") || f.starts_with("--std="))
      return true;
  return false;
}

// The flags every candidate object is built with.
//
// cudart: each object links its own copy of the static CUDA runtime
// (-cudart static). The harness links cudart statically too, so a process
// holds several runtimes; they cooperate because all of them use the device's
// primary context, so device pointers, cudaStream_t and cudaEvent_t (driver
// handles) pass between them freely. What stays private to each runtime is its
// error state, which is why the shim returns the object's own
// cudaGetLastError(); a failed launch in one object leaves the harness's and
// the other object's state clean. libcudart_static's symbols are hidden, and
// with -fvisibility=hidden and RTLD_LOCAL the objects of an A/B pair cannot
// bind to each other's or the harness's symbols. `-cudart shared` would not
// give one runtime (the harness's stays static), would let the two objects of
// a pair share error state, and would make every object need libcudart.so.N on
// the runner's library path. tests/gpu/cudart_interop/ has the H200 check.
//
// -z defs turns an undefined host symbol into a link error now rather than a
// dlopen failure later.
std::vector<std::string> base_flags(const CompileJob& job) {
  std::vector<std::string> flags = {
      "-shared", "-Xcompiler", "-fPIC",    "-Xcompiler", "-fvisibility=hidden",
      "-cudart", "static",     "-Xlinker", "-z,defs",    "-arch=" + job.arch};
  if (!sets_language_standard(job.flags)) flags.push_back("-std=c++17");
  flags.push_back("-lineinfo");
  return flags;
}

// "release 13.0, V13.0.88" from nvcc --version's "Cuda compilation tools, ..." line.
std::optional<std::string> parse_release(const std::string& text) {
  const auto at = text.find("release ");
  if (at == std::string::npos) return std::nullopt;
  auto end = text.find('\n', at);
  if (end == std::string::npos) end = text.size();
  return text.substr(at, end - at);
}

}  // namespace

std::vector<fs::path> repository_read_roots(const fs::path& root) {
  std::vector<fs::path> roots;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const auto name = it->path().filename();
    // A link is not a root: Landlock would grant its target, which a repository's `rootfs -> /`
    // or `g -> .git` points outside or at `.git`. A link to a folder inside is read through
    // that folder's own root.
    std::error_code link_ec;
    if (it->is_symlink(link_ec) || link_ec) continue;
    if (name != ".git" && name != ".kblaster") roots.push_back(it->path());
  }
  return roots;
}

Result<NvccCompiler> NvccCompiler::at(const fs::path& nvcc) {
  ProcessOptions options;
  options.timeout_seconds = 60.0;
  auto run = run_process({nvcc.string(), "--version"}, options);
  if (!run) return run.error();
  auto version = parse_release(run->output);
  if (run->exit_code != 0 || !version)
    return Error::environment(std::string("'").append(nvcc.string()) +
                              " --version' failed (exit code " + std::to_string(run->exit_code) +
                              "): " + run->output);
  return NvccCompiler(nvcc, *version);
}

Result<NvccCompiler> NvccCompiler::find(const EnvironmentLookup& env,
                                        const std::vector<fs::path>& fallback_dirs) {
  if (auto explicit_path = env("KBLASTER_NVCC")) {
    if (!is_executable_file(*explicit_path))
      return Error::environment("KBLASTER_NVCC=" + *explicit_path + " is not an executable file");
    return at(*explicit_path);
  }
  std::vector<fs::path> dirs;
  std::string path = env("PATH").value_or("");
  for (std::size_t start = 0; start <= path.size();) {
    auto end = std::min(path.find(':', start), path.size());
    if (end > start) dirs.emplace_back(path.substr(start, end - start));
    start = end + 1;
  }
  if (auto cuda_home = env("CUDA_HOME")) dirs.push_back(fs::path(*cuda_home) / "bin");
  dirs.insert(dirs.end(), fallback_dirs.begin(), fallback_dirs.end());
  for (const auto& dir : dirs)
    if (is_executable_file(dir / "nvcc")) return at(dir / "nvcc");
  std::string fallbacks;
  for (const auto& dir : fallback_dirs) fallbacks += ", " + dir.string();
  return Error::environment(
      "nvcc not found: looked at $KBLASTER_NVCC, on $PATH, in $CUDA_HOME/bin" + fallbacks +
      ". Install the CUDA toolkit "
      "(https://developer.nvidia.com/cuda-downloads) and put its bin directory on PATH, "
      "or set KBLASTER_NVCC to the nvcc executable.");
}

std::vector<std::string> NvccCompiler::command(const CompileJob& job) const {
  std::vector<std::string> argv = {path_.string()};
  for (auto& f : base_flags(job)) argv.push_back(std::move(f));
  argv.insert(argv.end(), job.flags.begin(), job.flags.end());
  for (const auto& dir : job.include_dirs) argv.push_back("-I" + dir.string());
  for (const auto& d : job.defines) argv.push_back("-D" + d);
  argv.insert(argv.end(), {"-o", job.output.string(), job.source.string()});
  return argv;
}

SandboxPolicy NvccCompiler::compile_sandbox(const CompileJob& job, const fs::path& temp_dir) const {
  SandboxPolicy policy;
  policy.env_allow = {"PATH", "LANG", "LC_ALL"};
  policy.env_set = {"TMPDIR=" + temp_dir.string()};
  policy.wall_timeout_s = job.timeout_seconds;
  policy.max_open_files = 1024;
  // The search builds ahead while the GPU times other candidates: compiles yield the CPU to
  // the harness, whose launches a busy core would delay.
  policy.niceness = 10;
  policy.filesystem = FilesystemIsolation::when_available;
  // The system's programs, headers and libraries, and the toolkit's.
  policy.files.read = {"/usr",  "/lib", "/lib32", "/lib64", "/bin",
                       "/sbin", "/etc", "/proc",  "/dev",   "/sys/devices/system/cpu"};
  std::error_code ec;
  const fs::path toolkit = fs::canonical(path_, ec).parent_path().parent_path();
  if (!ec) policy.files.read.push_back(toolkit);
  // The host compiler nvcc starts is found on PATH, which the runner set.
  const std::string search = process_environment("PATH").value_or("");
  for (std::size_t start = 0; start < search.size();) {
    const auto end = std::min(search.find(':', start), search.size());
    if (end > start && search[start] == '/')
      policy.files.read.emplace_back(search.substr(start, end - start));
    start = end + 1;
  }
  policy.files.read.insert(policy.files.read.end(), job.read_roots.begin(), job.read_roots.end());
  for (const auto& dir : job.include_dirs) policy.files.read.push_back(dir);
  policy.files.write = {job.output.parent_path(), temp_dir, "/dev/null"};
  return policy;
}

Result<CompileOutput> NvccCompiler::compile(const CompileJob& job) {
  // A directory of its own for nvcc's and the host compiler's temporary files.
  const fs::path temp_dir = job.output.string() + ".tmp";
  std::error_code ec;
  fs::create_directories(temp_dir, ec);
  if (ec) return Error::environment("cannot create " + temp_dir.string() + ": " + ec.message());
  ProcessOptions options;
  options.timeout_seconds = job.timeout_seconds;
  options.working_dir = job.working_dir;
  options.sandbox = compile_sandbox(job, temp_dir);
  auto run = run_process(command(job), options);
  fs::remove_all(temp_dir, ec);
  if (!run) return run.error();
  CompileOutput out{run->exit_code, std::move(run->output), run->seconds, std::move(run->sandbox)};
  if (run->output_dropped > 0)
    out.log += "\nkblaster: nvcc's output was cut after " +
               std::to_string(options.max_output_bytes) + " bytes; " +
               std::to_string(run->output_dropped) + " more were dropped\n";
  if (run->timed_out)
    out.log += "\nkblaster: nvcc was killed after " + std::to_string(job.timeout_seconds) + " s\n";
  return out;
}

}  // namespace kblaster
