#include "cli/repository.h"

#include <algorithm>
#include <string_view>

#include "core/config_loader.h"
#include "core/source_tree.h"
#include "core/suggest.h"

namespace kblaster {
namespace {

// `location` ("file:line:col", relative to the kernel repository) as the user
// names it: below REPO.
std::string behind(const std::string& repo, const std::string& location) {
  return (std::filesystem::path(repo) / location).lexically_normal().string();
}

}  // namespace

Result<LoadedRepo> load_repository(const CommonOptions& options) {
  std::error_code ec;
  auto root = std::filesystem::absolute(options.repo, ec);
  if (ec || !std::filesystem::is_directory(root))
    return Error::usage("kernel repository `" + options.repo + "` is not a directory");
  // Absolute, so a missing kblaster.toml, located at the tree itself, is not prefixed.
  DirectoryTree tree(root.lexically_normal());
  auto config = load_config(tree);
  if (!config) return prefix_config_paths(config.error(), options.repo);
  LoadedRepo repo{tree.root(), std::move(*config), {}};
  auto selected = select_kernels(repo.config, options.kernels);
  if (!selected) return selected.error();
  repo.selected = std::move(*selected);
  return repo;
}

Result<ChangePlan> load_change_plan(const CommonOptions& options, const Repo& git,
                                    const RequestedRange& want, BaseMode mode) {
  auto plan = plan_revisions(git, want.base, want.head, mode);
  if (!plan) return prefix_config_paths(plan.error(), options.repo);
  auto& base_error = plan->changes.base_config_error;
  if (base_error) base_error = prefix_config_paths(*base_error, options.repo);
  auto selected = select_kernels(plan->head_config, options.kernels);
  if (!selected) return at_head_revision(selected.error(), plan->range.head);
  keep_kernels(*plan, options.kernels);
  return plan;
}

Result<std::vector<const KernelSpec*>> select_kernels(const Config& config,
                                                      const std::vector<std::string>& names) {
  std::vector<std::string> all;
  for (const auto& k : config.kernels) all.push_back(k.name);
  for (const auto& wanted : names)
    if (std::find(all.begin(), all.end(), wanted) == all.end()) {
      std::string list;
      for (const auto& n : all) list += (list.empty() ? "" : ", ") + n;
      return Error::usage("--kernel " + wanted + ": no such kernel" + did_you_mean(wanted, all) +
                          " (kernels: " + list + ")");
    }
  std::vector<const KernelSpec*> selected;
  for (const auto& k : config.kernels)
    if (names.empty() || std::find(names.begin(), names.end(), k.name) != names.end())
      selected.push_back(&k);
  return selected;
}

Error prefix_config_paths(Error error, const std::string& repo) {
  if (error.kind != ErrorKind::config || error.where.empty() ||
      std::filesystem::path(error.where).is_absolute())
    return error;
  error.where = behind(repo, error.where);
  // The first declaration of a kernel declared twice is named only in the message.
  const auto at = error.message.find(kDeclaredTwiceFirstAt);
  if (at != std::string::npos) {
    const auto begin = at + kDeclaredTwiceFirstAt.size();
    const auto end = std::min(error.message.find(' ', begin), error.message.size());
    error.message.replace(begin, end - begin,
                          behind(repo, error.message.substr(begin, end - begin)));
  }
  return error;
}

}  // namespace kblaster
