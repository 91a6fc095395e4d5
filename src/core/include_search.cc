#include "core/include_search.h"

#include <optional>
#include <string_view>

#include "core/source_tree.h"

namespace kblaster {
namespace {

// The values nvcc_flags give the options `names` (e.g. {"-I", "--include-path"}): "-Ix",
// "-I=x", "-I x", "--include-path=x", "--include-path x"; comma-separated lists split.
std::vector<std::string> values_of(const std::vector<std::string>& flags,
                                   const std::vector<std::string_view>& joined,
                                   const std::vector<std::string_view>& separate) {
  std::vector<std::string> raw;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    const std::string_view f = flags[i];
    bool taken = false;
    for (const auto name : separate)
      if (f == name) {
        if (i + 1 < flags.size()) raw.push_back(flags[++i]);
        taken = true;
        break;
      } else if (f.starts_with(name) && f.size() > name.size() && f[name.size()] == '=') {
        raw.emplace_back(f.substr(name.size() + 1));
        taken = true;
        break;
      }
    if (taken) continue;
    for (const auto name : joined)
      if (f.starts_with(name) && f.size() > name.size()) {
        raw.emplace_back(f.substr(f[name.size()] == '=' ? name.size() + 1 : name.size()));
        break;
      }
  }
  std::vector<std::string> out;
  for (const auto& r : raw)
    for (std::size_t start = 0; start <= r.size();) {
      const auto comma = std::min(r.find(',', start), r.size());
      if (comma > start) out.push_back(r.substr(start, comma - start));
      start = comma + 1;
    }
  return out;
}

// `path` relative to the repository root, normalised; nullopt when it is not the repository's.
std::optional<std::string> repository_path(const std::string& path) {
  if (path.empty() || path.starts_with('/')) return std::nullopt;
  auto n = normalize_relative(path);
  if (!n) return std::nullopt;
  return *n == "." ? std::string() : *n;
}

}  // namespace

std::vector<std::string> include_search_dirs(const KernelSpec& spec) {
  std::vector<std::string> dirs = spec.include_dirs;
  for (const auto& d : values_of(spec.nvcc_flags, {"-I", "-isystem"},
                                 {"-I", "-isystem", "--include-path", "--system-include"}))
    if (auto p = repository_path(d)) dirs.push_back(p->empty() ? "." : *p);
  return dirs;
}

std::vector<std::string> forced_includes(const KernelSpec& spec) {
  std::vector<std::string> files;
  for (const auto& f : values_of(spec.nvcc_flags, {}, {"-include", "--pre-include"}))
    if (auto p = repository_path(f); p && !p->empty()) files.push_back(*p);
  return files;
}

}  // namespace kblaster
