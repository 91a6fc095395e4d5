// The CUDA compiler behind a narrow interface: turns one generated shim into a
// shared object the harness can dlopen. Tests may substitute a fake Compiler.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/environment.h"
#include "core/status.h"
#include "gpu/sandbox.h"

namespace kblaster {

// One compilation of a shim into a shared object.
struct CompileJob {
  std::filesystem::path source;  // the shim (.cu)
  std::filesystem::path output;  // the .so to write; its directory must exist
  std::string arch = "sm_90";
  std::vector<std::filesystem::path> include_dirs;  // absolute
  std::vector<std::string> defines;                 // "NAME=VALUE" or "NAME"
  std::vector<std::string> flags;                   // the user's flags, after kblaster's own
  double timeout_seconds = 600.0;                   // a hung compiler counts as a failed compile
  // What the compile may read besides the system's and the toolkit's files: the
  // repository's sources (never its .git). It writes only in output's directory.
  std::vector<std::filesystem::path> read_roots;
  // Where nvcc runs: the repository's root, so that relative paths in the user's flags
  // (-I, -include) mean what plan takes them to mean. Empty: kblaster's own directory.
  std::filesystem::path working_dir;
};

struct CompileOutput {
  int exit_code = 0;  // 0 = the object was written
  std::string log;    // everything the compiler printed
  double seconds = 0.0;
  std::optional<SandboxReport> sandbox;  // what the compiler's sandbox gave it
};

class Compiler {
 public:
  virtual ~Compiler() = default;
  // Runs the compilation. A compiler that rejects the code is a CompileOutput
  // with a non-zero exit code; only a compiler that cannot run is an Error.
  virtual Result<CompileOutput> compile(const CompileJob& job) = 0;
  // Identifies the compiler build; part of every cache key.
  virtual const std::string& version() const = 0;
};

// What a compile may read of the repository at `root`: each entry at its top
// level except .git (whose config may hold a token), .kblaster and symbolic links (whose
// targets may lie outside, or be .git).
std::vector<std::filesystem::path> repository_read_roots(const std::filesystem::path& root);

// nvcc, building position-independent shared objects with a private, static
// cudart (compiler.cc says why). Each compile runs sandboxed (compile_sandbox):
// nvcc and the host compiler it starts see no secrets and no network, and may
// write only beside the output. Stateless between compiles; thread-safe.
class NvccCompiler final : public Compiler {
 public:
  // Looks for nvcc at $KBLASTER_NVCC (which, when set, must work), then on
  // $PATH, then in $CUDA_HOME/bin, then in `fallback_dirs`. Error::environment
  // says where it looked and how to install or point at nvcc.
  static Result<NvccCompiler> find(const EnvironmentLookup& env = process_environment,
                                   const std::vector<std::filesystem::path>& fallback_dirs = {
                                       "/usr/local/cuda/bin"});
  // Uses the nvcc at `nvcc`; Error::environment if `nvcc --version` fails.
  static Result<NvccCompiler> at(const std::filesystem::path& nvcc);

  Result<CompileOutput> compile(const CompileJob& job) override;
  // The "release X.Y, VX.Y.Z" part of `nvcc --version`.
  const std::string& version() const override { return version_; }
  const std::filesystem::path& path() const { return path_; }
  // The argv compile() runs for `job`.
  std::vector<std::string> command(const CompileJob& job) const;
  // The sandbox compile() runs `job` in, with `temp_dir` as its TMPDIR.
  SandboxPolicy compile_sandbox(const CompileJob& job, const std::filesystem::path& temp_dir) const;

 private:
  NvccCompiler(std::filesystem::path path, std::string version)
      : path_(std::move(path)), version_(std::move(version)) {}
  std::filesystem::path path_;
  std::string version_;
};

}  // namespace kblaster
