#include "eval/loaded_repo.h"

#include "core/config_loader.h"
#include "core/kernel_selection.h"
#include "core/source_tree.h"

namespace kblaster {

Result<LoadedRepo> load_repository(const std::string& repo,
                                   const std::vector<std::string>& kernels) {
  std::error_code ec;
  auto root = std::filesystem::absolute(repo, ec);
  if (ec || !std::filesystem::is_directory(root))
    return Error::usage("kernel repository `" + repo + "` is not a directory");
  // Absolute, so a missing kblaster.toml, located at the tree itself, is not prefixed.
  DirectoryTree tree(root.lexically_normal());
  auto config = load_config(tree);
  if (!config) return prefix_config_paths(config.error(), repo);
  LoadedRepo loaded{tree.root(), std::move(*config), {}};
  auto selected = select_kernels(loaded.config, kernels);
  if (!selected) return selected.error();
  loaded.selected = std::move(*selected);
  return loaded;
}

}  // namespace kblaster
