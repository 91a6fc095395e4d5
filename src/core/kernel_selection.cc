#include "core/kernel_selection.h"

#include <algorithm>
#include <filesystem>
#include <string_view>

#include "core/config_loader.h"
#include "core/suggest.h"

namespace kblaster {
namespace {

// `location` ("file:line:col", relative to the kernel repository) as the user
// names it: below REPO.
std::string behind(const std::string& repo, const std::string& location) {
  return (std::filesystem::path(repo) / location).lexically_normal().string();
}

}  // namespace

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
