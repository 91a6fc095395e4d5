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

// The directive on one comment-free line, if it is an #include.
std::optional<IncludeDirective> parse_line(std::string_view line) {
  line = skip_blanks(line);
  if (line.empty() || line.front() != '#') return std::nullopt;
  line = skip_blanks(line.substr(1));
  if (!line.starts_with("include")) return std::nullopt;
  line = skip_blanks(line.substr(7));
  if (line.empty() || (line.front() != '"' && line.front() != '<')) return std::nullopt;
  const bool quoted = line.front() == '"';
  const auto close = line.find(quoted ? '"' : '>', 1);
  if (close == std::string_view::npos || close == 1) return std::nullopt;
  return IncludeDirective{quoted ? IncludeDirective::Form::quoted : IncludeDirective::Form::angled,
                          std::string(line.substr(1, close - 1))};
}

std::string parent_dir(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// Reads each path at most once and answers which candidates exist.
class IncludeResolver {
 public:
  IncludeResolver(const std::vector<std::string>& include_dirs, const SourceReader& read)
      : include_dirs_(include_dirs), read_(read) {}

  const std::optional<std::string>& text(const std::string& path) {
    auto it = texts_.find(path);
    if (it == texts_.end()) it = texts_.emplace(path, read_(path)).first;
    return it->second;
  }

  // The repository path `d`, written in `from`, refers to; nullopt if none.
  std::optional<std::string> resolve(const std::string& from, const IncludeDirective& d) {
    if (d.form == IncludeDirective::Form::quoted)
      if (auto p = existing(parent_dir(from), d.target)) return p;
    for (const auto& dir : include_dirs_)
      if (auto p = existing(dir, d.target)) return p;
    return std::nullopt;
  }

 private:
  std::optional<std::string> existing(const std::string& dir, const std::string& target) {
    if (target.starts_with('/')) return std::nullopt;
    auto path = normalize_relative(dir.empty() ? target : dir + "/" + target);
    if (!path || *path == "." || !text(*path)) return std::nullopt;
    return path;
  }

  const std::vector<std::string>& include_dirs_;
  const SourceReader& read_;
  std::map<std::string, std::optional<std::string>> texts_;
};

void walk(const std::string& file, IncludeResolver& resolver, std::set<std::string>& seen,
          std::vector<IncludedFile>& out) {
  const auto& text = resolver.text(file);
  if (!text) return;
  for (const auto& d : find_include_directives(*text)) {
    auto path = resolver.resolve(file, d);
    if (!path || !seen.insert(*path).second) continue;
    out.push_back({*path, file});
    walk(*path, resolver, seen, out);
  }
}

}  // namespace

std::vector<IncludeDirective> find_include_directives(std::string_view text) {
  const std::string code = blank_source(text, Blank::comments);  // literals hold the paths
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
                                            const SourceReader& read) {
  IncludeResolver resolver(include_dirs, read);
  std::set<std::string> seen;
  std::vector<IncludedFile> out;
  const auto root = normalize_relative(source);
  if (!root) return out;
  seen.insert(*root);
  walk(*root, resolver, seen, out);
  return out;
}

std::vector<std::string> scan_includes(const std::string& source,
                                       const std::vector<std::string>& include_dirs,
                                       const SourceReader& read) {
  std::vector<std::string> paths;
  for (auto& f : scan_include_tree(source, include_dirs, read)) paths.push_back(std::move(f.path));
  return paths;
}

}  // namespace kblaster
