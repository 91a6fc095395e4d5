#include "git/kernel_deps.h"

#include "core/include_search.h"
#include "core/source_tree.h"

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
  if (it == closures_.end())
    it = closures_.emplace(std::move(key), graph(include_dirs).tree(file)).first;
  return it->second;
}

IncludeGraph& DependencyScanner::graph(const std::vector<std::string>& include_dirs) {
  auto it = graphs_.find(include_dirs);
  if (it == graphs_.end())
    it = graphs_.emplace(include_dirs, IncludeGraph(include_dirs, cached_, list_)).first;
  return it->second;
}

bool DependencyScanner::reaches(const std::string& file,
                                const std::vector<std::string>& include_dirs,
                                const std::set<std::string>& changed) {
  const auto root = normalize_relative(file);
  if (!root) return false;
  Reach& r = reach_[include_dirs];
  if (r.changed != changed) r = Reach{changed, {}, {}, {}};
  IncludeGraph& g = graph(include_dirs);
  const auto mark = [&r](const std::string& start) {
    std::vector<std::string> todo = {start};
    while (!todo.empty()) {
      std::string at = std::move(todo.back());
      todo.pop_back();
      if (!r.reaching.insert(at).second) continue;
      if (const auto it = r.includers.find(at); it != r.includers.end())
        for (const auto& p : it->second) todo.push_back(p);
    }
  };
  std::vector<std::string> todo = {*root};
  while (!todo.empty()) {
    std::string at = std::move(todo.back());
    todo.pop_back();
    if (!r.discovered.insert(at).second) continue;
    if (r.changed.contains(at)) mark(at);
    for (const auto& child : g.children(at)) {
      r.includers[child].push_back(at);
      if (r.reaching.contains(child) || r.changed.contains(child)) mark(at);
      if (!r.discovered.contains(child)) todo.push_back(child);
    }
  }
  // The root's own change is not a reason here: hits() reports it apart.
  for (const auto& child : g.children(*root))
    if (r.reaching.contains(child)) return true;
  return false;
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
    if (!reaches(root, dirs, changed)) continue;  // no changed file in its closure
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
    if (!reaches(forced, dirs, changed)) continue;
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
