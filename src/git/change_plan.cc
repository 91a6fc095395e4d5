#include "git/change_plan.h"

#include <algorithm>

#include "core/config_loader.h"

namespace kblaster {
namespace {

SourceReader reader_of(const SourceTree& tree) {
  return [&tree](const std::string& path) { return tree.read(path); };
}

SourceLister lister_of(const SourceTree& tree) {
  return [&tree] { return tree.list_files(); };
}

// The configuration of `tree`. Its errors locate paths in the kernel repository,
// except a missing kblaster.toml's, located at the tree's name (its commit's short
// id): that location is dropped, since the caller names the revision.
Result<Config> load_tree_config(const SourceTree& tree) {
  auto config = load_config(tree);
  if (config || config.error().where != tree.describe()) return config;
  Error e = config.error();
  e.where.clear();
  return e;
}

}  // namespace

Result<ChangePlan> plan_change(const Repo& repo, const RevisionRange& range) {
  auto head_tree = repo.tree_at(range.head);
  if (!head_tree) return head_tree.error();
  auto base_tree = repo.tree_at(range.base);
  if (!base_tree) return base_tree.error();
  auto paths = repo.changed_paths(range.base, range.head);
  if (!paths) return paths.error();

  // The config reads the spec files' text and which paths exist. When the range only modifies
  // files and none of them is a spec file, head reads what base read: its config is base's.
  auto base_config = load_tree_config(**base_tree);
  const bool same_config_inputs =
      base_config && std::all_of(paths->begin(), paths->end(), [&](const PathChange& c) {
        return c.kind == PathChange::Kind::modified &&
               std::find(base_config->spec_files.begin(), base_config->spec_files.end(),
                         c.new_path) == base_config->spec_files.end();
      });
  auto head_config =
      same_config_inputs ? Result<Config>(*base_config) : load_tree_config(**head_tree);
  if (!head_config) return at_head_revision(head_config.error(), range.head);
  ChangePlan plan{range, std::move(*head_config), std::nullopt, std::move(*paths), {}};
  if (base_config) plan.base_config = std::move(*base_config);

  RevisionFiles base{plan.base_config ? &*plan.base_config : nullptr, reader_of(**base_tree),
                     lister_of(**base_tree)};
  RevisionFiles head{&plan.head_config, reader_of(**head_tree), lister_of(**head_tree)};
  plan.changes = compute_change_set(base, head, plan.paths);
  if (!base_config) plan.changes.base_config_error = base_config.error();
  return plan;
}

Result<ChangePlan> plan_new_branch(const Repo& repo, const CommitId& head) {
  auto head_tree = repo.tree_at(head);
  if (!head_tree) return head_tree.error();
  auto head_config = load_tree_config(**head_tree);
  if (!head_config) return at_head_revision(head_config.error(), head);
  ChangePlan plan{{head, head}, std::move(*head_config), std::nullopt, {}, {}, true};
  RevisionFiles none{nullptr, [](const std::string&) { return std::optional<std::string>(); }};
  RevisionFiles at_head{&plan.head_config, reader_of(**head_tree), lister_of(**head_tree)};
  plan.changes = compute_change_set(none, at_head, {});
  return plan;
}

Result<ChangePlan> plan_revisions(const Repo& repo, const std::optional<std::string>& base,
                                  const std::string& head, BaseMode mode) {
  if (!base) {
    auto at = repo.resolve(head);
    if (!at) return at.error();
    return plan_new_branch(repo, *at);
  }
  auto range = resolve_range(repo, *base, head, mode);
  if (!range) return range.error();
  return plan_change(repo, *range);
}

void keep_kernels(ChangePlan& plan, const std::vector<std::string>& kernels) {
  if (kernels.empty()) return;
  auto named = [&kernels](const std::string& name) {
    return std::find(kernels.begin(), kernels.end(), name) != kernels.end();
  };
  std::erase_if(plan.changes.hits, [&](const KernelHit& hit) {
    return hit.why == KernelHit::Why::deleted || !named(hit.kernel);
  });
  std::erase_if(plan.head_config.kernels, [&](const KernelSpec& k) { return !named(k.name); });
}

Error at_head_revision(Error error, const CommitId& head) {
  error.message += " (at head revision " + head.short_hex() + ")";
  return error;
}

}  // namespace kblaster
