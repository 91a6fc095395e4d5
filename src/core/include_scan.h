// The repository files a source file includes, transitively: what a compile
// cache key and a change set must cover. Pure: all file access goes through a
// reader, so the same scan works on a checkout or on git blobs.
#pragma once

#include <functional>
#include <optional>
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
