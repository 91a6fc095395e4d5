#include "core/include_scan.h"

#include <map>
#include <set>

#include "core/source_regions.h"
#include "core/source_tree.h"

namespace kblaster {
namespace {

std::string_view skip_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

bool identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The directive on one comment-free, spliced line, if it is an #include (or #include_next,
// or %:include, the digraph). A target that is neither "x" nor <x> is a macro's: computed.
std::optional<IncludeDirective> parse_line(std::string_view line) {
  line = skip_blanks(line);
  if (line.starts_with('#'))
    line.remove_prefix(1);
  else if (line.starts_with("%:"))
    line.remove_prefix(2);
  else
    return std::nullopt;
  line = skip_blanks(line);
  std::size_t word = 0;
  while (word < line.size() && identifier_char(line[word])) ++word;
  if (line.substr(0, word) != "include" && line.substr(0, word) != "include_next")
    return std::nullopt;
  line = skip_blanks(line.substr(word));
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
    line.remove_suffix(1);
  if (line.empty()) return std::nullopt;
  if (line.front() == '"' || line.front() == '<') {
    const bool quoted = line.front() == '"';
    const auto close = line.find(quoted ? '"' : '>', 1);
    if (close != std::string_view::npos && close > 1)
      return IncludeDirective{
          quoted ? IncludeDirective::Form::quoted : IncludeDirective::Form::angled,
          std::string(line.substr(1, close - 1))};
  }
  return IncludeDirective{IncludeDirective::Form::computed, std::string(line)};
}

// `text` with every backslash-newline removed, as the preprocessor splices lines before it
// looks for comments and directives.
std::string spliced(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\') {
      std::size_t j = i + 1;
      if (j < text.size() && text[j] == '\r') ++j;
      if (j < text.size() && text[j] == '\n') {
        i = j;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

std::string parent_dir(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

}  // namespace

const std::optional<std::string>& IncludeGraph::text(const std::string& path) {
  auto it = texts_.find(path);
  if (it == texts_.end()) it = texts_.emplace(path, read_(path)).first;
  return it->second;
}

std::vector<std::string> IncludeGraph::reachable(const std::string& from) {
  if (!list_) return {};
  if (!listed_) listed_ = list_();
  std::vector<std::string> dirs = {parent_dir(from)};
  for (const auto& d : include_dirs_)
    if (auto n = normalize_relative(d)) dirs.push_back(*n == "." ? std::string() : *n);
  std::vector<std::string> out;
  for (const auto& file : *listed_)
    for (const auto& dir : dirs)
      if (dir.empty() || file.starts_with(dir + "/")) {
        // Only what the reader gives: a file it refuses (too large, a link leading out) is
        // no more an include than a path that resolves nowhere.
        if (auto n = normalize_relative(file); n && text(*n)) out.push_back(*n);
        break;
      }
  return out;
}

std::optional<std::string> IncludeGraph::existing(const std::string& dir,
                                                  const std::string& target) {
  if (target.starts_with('/')) return std::nullopt;
  auto path = normalize_relative(dir.empty() ? target : dir + "/" + target);
  if (!path || *path == "." || !text(*path)) return std::nullopt;
  return path;
}

const std::vector<std::string>& IncludeGraph::children(const std::string& file) {
  if (auto it = children_.find(file); it != children_.end()) return it->second;
  std::vector<std::string> out;
  if (const auto& body = text(file)) {
    for (const auto& d : find_include_directives(*body)) {
      if (d.form == IncludeDirective::Form::computed) {
        for (auto& path : reachable(file)) out.push_back(std::move(path));
        continue;
      }
      std::optional<std::string> path;
      if (d.form == IncludeDirective::Form::quoted) path = existing(parent_dir(file), d.target);
      for (std::size_t i = 0; !path && i < include_dirs_.size(); ++i)
        path = existing(include_dirs_[i], d.target);
      if (path) out.push_back(std::move(*path));
    }
  }
  return children_.emplace(file, std::move(out)).first->second;
}

void IncludeGraph::walk(const std::string& file, std::set<std::string>& seen,
                        std::vector<IncludedFile>& out) {
  // By index: a child's walk may add to children_, which does not move this vector's elements
  // (std::map), but stays clear of holding an iterator across it.
  const std::vector<std::string>& kids = children(file);
  for (std::size_t i = 0; i < kids.size(); ++i) {
    const std::string& path = kids[i];
    if (!seen.insert(path).second) continue;
    out.push_back({path, file});
    walk(path, seen, out);
  }
}

std::vector<IncludedFile> IncludeGraph::tree(const std::string& source) {
  std::set<std::string> seen;
  std::vector<IncludedFile> out;
  const auto root = normalize_relative(source);
  if (!root) return out;
  seen.insert(*root);
  walk(*root, seen, out);
  return out;
}

namespace {}  // namespace

std::vector<IncludeDirective> find_include_directives(std::string_view text) {
  const std::string code = blank_source(spliced(text), Blank::comments);  // literals hold the paths
  std::vector<IncludeDirective> found;
  std::size_t start = 0;
  while (start < code.size()) {
    auto end = code.find('\n', start);
    if (end == std::string::npos) end = code.size();
    if (auto d = parse_line(std::string_view(code).substr(start, end - start))) found.push_back(*d);
    start = end + 1;
  }
  return found;
}

std::vector<IncludedFile> scan_include_tree(const std::string& source,
                                            const std::vector<std::string>& include_dirs,
                                            const SourceReader& read, const SourceLister& list) {
  return IncludeGraph(include_dirs, read, list).tree(source);
}

std::vector<std::string> scan_includes(const std::string& source,
                                       const std::vector<std::string>& include_dirs,
                                       const SourceReader& read, const SourceLister& list) {
  std::vector<std::string> paths;
  for (auto& f : scan_include_tree(source, include_dirs, read, list))
    paths.push_back(std::move(f.path));
  return paths;
}

}  // namespace kblaster
