#include "core/nvcc_flags_field.h"

namespace kblaster {

Result<AllowedNvccFlags> read_nvcc_flags(const TomlFields& fields, const SourceTree& tree) {
  static const std::string kKey = "nvcc_flags";
  auto flags = fields.string_list(kKey);
  if (!flags) return flags.error();
  NvccFlagCheck check = check_nvcc_flags(*flags);
  if (check.refusal)
    return Error::config(fields.location_of_item(kKey, check.refusal->index).str(),
                         fields.context() + ": field `" + kKey + "`[" +
                             std::to_string(check.refusal->index) + "]: " + check.refusal->message);
  for (const auto& dir : check.allowed.include_dirs)
    if (!tree.is_directory(dir))
      return fields.error_at(kKey, "-I directory `" + dir + "` does not exist in the repository" +
                                       leaves_tree_note(tree, dir));
  return std::move(check.allowed);
}

}  // namespace kblaster
