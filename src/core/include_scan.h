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

// Every repository file `source` includes directly or indirectly, in the order a
// depth-first walk of the #include lines meets them; `source` itself is not listed.
// "x" resolves against the including file's directory, then `include_dirs`; <x>
// against `include_dirs` only; "a/../b" is normalised to "b". Includes that
// resolve nowhere (system headers), leave the repository, or sit in comments
// are skipped. Cycles terminate.
std::vector<std::string> scan_includes(const std::string& source,
                                       const std::vector<std::string>& include_dirs,
                                       const SourceReader& read);

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
                                            const SourceReader& read);

// One #include directive as written.
struct IncludeDirective {
  enum class Form { quoted, angled } form = Form::quoted;
  std::string target;  // the text between the delimiters
};

// The #include directives of `text`, in order, ignoring any inside comments.
std::vector<IncludeDirective> find_include_directives(std::string_view text);

}  // namespace kblaster
