#include "gpu/python_module_stage.h"

#include <unistd.h>

#include "core/file_write.h"
#include "core/source_tree.h"
#include "gpu/content_hash.h"

namespace kblaster {

namespace fs = std::filesystem;

Result<BuildResult> stage_python_module(const KernelSpec& spec, const fs::path& repo_root,
                                        const fs::path& cache_dir) {
  BuildResult result;
  const auto text = DirectoryTree(fs::absolute(repo_root)).read(spec.reference.path);
  if (!text) {
    result.outcome = BuildOutcome::source_missing;
    result.summary = "reference module " + spec.reference.path + " of kernel '" + spec.name +
                     "' not found under " + repo_root.string();
    return result;
  }
  auto hash = sha256_hex(*text);
  if (!hash) return hash.error();
  result.cache_key = *hash;
  const fs::path objects = fs::absolute(cache_dir) / "objects";
  result.object = objects / (*hash + ".py");
  std::error_code ec;
  if (fs::is_regular_file(result.object, ec)) {
    result.outcome = BuildOutcome::cache_hit;
    result.summary = "cache hit";
    return result;
  }
  KB_TRY(make_directories(objects));
  // Whole or absent under its name: another process may be staging the same module.
  const fs::path temp = objects / (*hash + ".py.tmp" + std::to_string(::getpid()));
  KB_TRY(write_file(temp, *text));
  fs::rename(temp, result.object, ec);
  if (ec) {
    fs::remove(temp, ec);
    return write_failure(result.object, "rename a staged module to", ec);
  }
  result.outcome = BuildOutcome::built;
  result.summary = "staged";
  return result;
}

}  // namespace kblaster
