// The repository files a source file includes, transitively: what a compile
// cache key and a change set must cover. Pure: all file access goes through a
// reader, so the same scan works on a checkout or on git blobs.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

// Returns the text of a repository file ('/'-separated, relative to the root),
// or nullopt when there is no such file.
using SourceReader =
    std::function<std::optional<std::string>(const std::string& repo_relative_path)>;

// Every repository file, '/'-separated and relative to the root: what a computed include
// (`#include MACRO`) may reach. Called only when a scan meets one.
using SourceLister = std::function<std::vector<std::string>()>;

// Every repository file `source` includes directly or indirectly, in the order a
// depth-first walk of the #include lines meets them; `source` itself is not listed.
// "x" resolves against the including file's directory, then `include_dirs`; <x>
// against `include_dirs` only; "a/../b" is normalised to "b". Includes that
// resolve nowhere (system headers), leave the repository, or sit in comments
// are skipped. Cycles terminate. A computed include (`#include MACRO`), which only the
// preprocessor resolves, reaches every file `list` gives under the including file's directory
// or an include dir, each walked in turn: a wasted rebuild is acceptable, a missed dependency
// is not. Without `list` it reaches nothing.
std::vector<std::string> scan_includes(const std::string& source,
                                       const std::vector<std::string>& include_dirs,
                                       const SourceReader& read, const SourceLister& list = {});

// One file of an include closure, and the file whose #include first reached it
// on the depth-first walk (`source` itself for a direct include).
struct IncludedFile {
  std::string path;
  std::string included_from;
};

// scan_includes with each file's includer: following `included_from` back to
// `source` gives an include chain that reaches the file, for saying why it matters.
std::vector<IncludedFile> scan_include_tree(const std::string& source,
                                            const std::vector<std::string>& include_dirs,
                                            const SourceReader& read,
                                            const SourceLister& list = {});

// The include graph of one revision under one list of include dirs: each file read once and its
// directives parsed and resolved once, so that the closures of many sources that share headers
// share that work (scan_include_tree is one closure of a fresh graph). Not thread-safe; holds
// `read` and `list` by value.
class IncludeGraph {
 public:
  IncludeGraph(std::vector<std::string> include_dirs, SourceReader read, SourceLister list = {})
      : include_dirs_(std::move(include_dirs)), read_(std::move(read)), list_(std::move(list)) {}

  // What scan_include_tree answers for `source`, in the same order with the same includers.
  std::vector<IncludedFile> tree(const std::string& source);
  // The files `file` includes directly, resolved, in directive order; a computed include
  // expands to every file it may reach. `file` is a normalised repository path.
  const std::vector<std::string>& children(const std::string& file);

 private:
  const std::optional<std::string>& text(const std::string& path);
  std::vector<std::string> reachable(const std::string& from);
  std::optional<std::string> existing(const std::string& dir, const std::string& target);
  void walk(const std::string& file, std::set<std::string>& seen, std::vector<IncludedFile>& out);

  std::vector<std::string> include_dirs_;
  SourceReader read_;
  SourceLister list_;
  std::optional<std::vector<std::string>> listed_;
  std::map<std::string, std::optional<std::string>> texts_;
  std::map<std::string, std::vector<std::string>> children_;
};

// One #include directive as written.
struct IncludeDirective {
  // computed: `#include MACRO`, whose file only the preprocessor knows.
  enum class Form { quoted, angled, computed } form = Form::quoted;
  std::string target;  // the text between the delimiters; computed: the tokens as written
};

// The #include directives of `text`, in order, ignoring any inside comments, as the
// preprocessor finds them: lines spliced at backslash-newlines first, `%:` as `#`, and
// `#include_next` as `#include`.
std::vector<IncludeDirective> find_include_directives(std::string_view text);

}  // namespace kblaster
