#include "git/kernel_deps.h"

#include "core/include_search.h"

namespace kblaster {

DependencyScanner::DependencyScanner(SourceReader read, SourceLister list)
    : read_(std::move(read)), list_(std::move(list)) {
  cached_ = [this](const std::string& path) -> std::optional<std::string> {
    auto it = texts_.find(path);
    if (it == texts_.end()) it = texts_.emplace(path, read_(path)).first;
    return it->second;
  };
}

const std::vector<IncludedFile>& DependencyScanner::includes(
    const std::string& file, const std::vector<std::string>& include_dirs) {
  auto key = std::make_pair(file, include_dirs);
  auto it = closures_.find(key);
  if (it == closures_.end()) {
    auto graph = graphs_.find(include_dirs);
    if (graph == graphs_.end())
      graph = graphs_.emplace(include_dirs, IncludeGraph(include_dirs, cached_, list_)).first;
    it = closures_.emplace(std::move(key), graph->second.tree(file)).first;
  }
  return it->second;
}

namespace {

// `root`, each includer on the way, then `file`, from a closure's includers.
std::vector<std::string> chain_to(const std::string& root, const std::string& file,
                                  const std::vector<IncludedFile>& closure) {
  std::map<std::string, std::string> from;
  for (const auto& f : closure) from.emplace(f.path, f.included_from);
  std::vector<std::string> chain = {file};
  for (auto at = from.find(file); at != from.end() && chain.size() <= closure.size();
       at = from.find(chain.back()))
    chain.push_back(at->second);
  if (chain.back() != root) chain.push_back(root);  // unreachable for a closure of `root`
  return {chain.rbegin(), chain.rend()};
}

}  // namespace

std::vector<DependencyHit> DependencyScanner::hits(const KernelSpec& kernel,
                                                   const std::set<std::string>& changed) {
  std::vector<DependencyHit> found;
  if (changed.empty()) return found;
  std::vector<std::string> roots = {kernel.source};
  if (kernel.reference.kind != ReferenceSpec::Kind::base_revision && !kernel.reference.path.empty())
    roots.push_back(kernel.reference.path);
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (changed.count(roots[i]))
      found.push_back(
          {i == 0 ? DependencyHit::Via::source : DependencyHit::Via::reference, roots[i], {}});
  std::set<std::string> seen(roots.begin(), roots.end());
  const std::vector<std::string> dirs = include_search_dirs(kernel);
  for (const auto& root : roots) {
    const auto& closure = includes(root, dirs);
    for (const auto& file : closure)
      if (changed.count(file.path) && seen.insert(file.path).second)
        found.push_back(
            {DependencyHit::Via::include, file.path, chain_to(root, file.path, closure)});
  }
  // Files nvcc_flags include before the source's first line, and what they include.
  for (const auto& forced : forced_includes(kernel)) {
    if (!cached_(forced)) continue;
    if (changed.count(forced) && seen.insert(forced).second)
      found.push_back({DependencyHit::Via::include, forced, {kernel.source, forced}});
    const auto& closure = includes(forced, dirs);
    for (const auto& file : closure)
      if (changed.count(file.path) && seen.insert(file.path).second) {
        std::vector<std::string> chain = {kernel.source};
        for (auto& step : chain_to(forced, file.path, closure)) chain.push_back(std::move(step));
        found.push_back({DependencyHit::Via::include, file.path, std::move(chain)});
      }
  }
  return found;
}

}  // namespace kblaster
