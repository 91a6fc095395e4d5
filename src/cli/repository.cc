#include "cli/repository.h"

#include <algorithm>

#include "core/config_loader.h"
#include "core/source_tree.h"
#include "core/suggest.h"

namespace kblaster {

Result<LoadedRepo> load_repository(const CommonOptions& options) {
  std::error_code ec;
  auto root = std::filesystem::absolute(options.repo, ec);
  if (ec || !std::filesystem::is_directory(root))
    return Error::usage("kernel repository `" + options.repo + "` is not a directory");
  DirectoryTree tree(root.lexically_normal());
  auto config = load_config(tree);
  if (!config) {
    Error e = config.error();
    // Locations are repo-relative; prefix the repo so the path can be opened as printed.
    if (e.kind == ErrorKind::config && !e.where.empty() && e.where != tree.describe())
      e.where = (std::filesystem::path(options.repo) / e.where).lexically_normal().string();
    return e;
  }
  LoadedRepo repo{tree.root(), std::move(*config), {}};
  std::vector<std::string> names;
  for (const auto& k : repo.config.kernels) names.push_back(k.name);
  for (const auto& wanted : options.kernels)
    if (std::find(names.begin(), names.end(), wanted) == names.end())
      return Error::usage("--kernel " + wanted + ": no such kernel" + did_you_mean(wanted, names) +
                          " (kernels: " +
                          [&] {
                            std::string all;
                            for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
                            return all;
                          }() +
                          ")");
  for (const auto& k : repo.config.kernels)
    if (options.kernels.empty() ||
        std::find(options.kernels.begin(), options.kernels.end(), k.name) != options.kernels.end())
      repo.selected.push_back(&k);
  return repo;
}

}  // namespace kblaster
