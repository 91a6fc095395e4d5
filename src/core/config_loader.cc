#include "core/config_loader.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "core/arch_name.h"
#include "core/input_limits.h"
#include "core/kernel_spec_parser.h"
#include "core/nvcc_flags_field.h"
#include "core/path_glob.h"
#include "core/publish_config_parser.h"
#include "core/suggest.h"
#include "core/toml_fields.h"
#include "core/toml_text_guard.h"

namespace kblaster {
namespace {

// [llm] is read by src/llm (llm/llm_setup.h), which refuses what a pull request must not set.
const std::vector<std::string> kRootTables = {"project", "check", "publish", "kernel", "llm"};
const std::vector<std::string> kCheckFields = {"fail_on", "min_effect"};
const std::vector<std::string> kProjectFields = {"arch", "include_dirs", "nvcc_flags",
                                                 "kernel_specs"};

Result<toml::table> parse_toml(const SourceTree& tree, const std::string& file) {
  auto text = tree.read(file);
  if (!text)
    return Error::config(
        file, "cannot read `" + file + "` in " + tree.describe() + leaves_tree_note(tree, file));
  return parse_toml_text(*text, file);
}

Result<ProjectConfig> parse_project(const toml::table& root, const SourceTree& tree) {
  ProjectConfig project;
  auto t = TomlFields(root, kConfigFile, kConfigFile).table("project");
  if (!t) return t.error();
  if (!*t) return project;
  TomlFields f(**t, kConfigFile, "[project]");
  KB_TRY(f.check_known(kProjectFields));

  auto arch = f.string("arch");
  if (!arch) return arch.error();
  if (arch->has_value()) {
    if (**arch != "auto" && !is_arch_name(**arch))
      return f.error_at(
          "arch", "`" + **arch + "` is not an architecture; use \"auto\" or one like \"sm_90\"");
    project.arch = **arch;
  }
  auto flags = read_nvcc_flags(f, tree);
  if (!flags) return flags.error();
  if (f.has("nvcc_flags")) project.nvcc_flags = std::move(flags->flags);
  auto dirs = f.string_list("include_dirs");
  if (!dirs) return dirs.error();
  for (const auto& d : *dirs) {
    auto p = normalize_relative(d);
    if (!p)
      return f.error_at("include_dirs",
                        "`" + d + "` must be a relative path inside the repository");
    if (!tree.is_directory(*p))
      return f.error_at("include_dirs",
                        "directory `" + *p + "` does not exist" + leaves_tree_note(tree, *p));
    project.include_dirs.push_back(*p);
  }
  project.include_dirs.insert(project.include_dirs.end(), flags->include_dirs.begin(),
                              flags->include_dirs.end());
  auto globs = f.string_list("kernel_specs");
  if (!globs) return globs.error();
  for (const auto& g : *globs)
    if (g.size() > kMaxGlobLength)
      return f.error_at("kernel_specs", too_long(g, kMaxGlobLength, "a glob"));
  if (f.has("kernel_specs")) project.spec_globs = *globs;
  return project;
}

Result<CheckConfig> parse_check(const toml::table& root) {
  CheckConfig check;
  auto t = TomlFields(root, kConfigFile, kConfigFile).table("check");
  if (!t) return t.error();
  if (!*t) return check;
  TomlFields f(**t, kConfigFile, "[check]");
  KB_TRY(f.check_known(kCheckFields));
  auto fail_on = f.string("fail_on");
  if (!fail_on) return fail_on.error();
  if (fail_on->has_value()) {
    const std::string& v = **fail_on;
    if (v == "slower")
      check.fail_on = CheckConfig::FailOn::slower;
    else if (v == "error")
      check.fail_on = CheckConfig::FailOn::error;
    else if (v == "never")
      check.fail_on = CheckConfig::FailOn::never;
    else
      return f.error_at("fail_on", "`" + v + "` is not a policy" +
                                       did_you_mean(v, {"slower", "error", "never"}) +
                                       " (policies: slower, error, never)");
  }
  auto min_effect = f.number("min_effect");
  if (!min_effect) return min_effect.error();
  if (min_effect->has_value()) {
    const double e = **min_effect;
    if (!(e > 0 && e < 1)) {
      std::ostringstream message;
      message << "`" << e << "` is not a fraction between 0 and 1 (e.g. 0.02 for 2%)";
      return f.error_at("min_effect", message.str());
    }
    check.min_effect = e;
  }
  return check;
}

// Parses the [[kernel]] tables of one file into `config`.
Status parse_kernels(const toml::table& root, const std::string& file, const SourceTree& tree,
                     Config& config) {
  const toml::node* n = root.get("kernel");
  if (!n) return Ok{};
  TomlFields top(root, file, file);
  const toml::array* arr = n->as_array();
  if (!arr || !arr->is_array_of_tables())
    return top.error_at("kernel", "declare kernels as [[kernel]] tables");
  for (std::size_t i = 0; i < arr->size(); ++i) {
    auto spec = parse_kernel(*arr->get(i)->as_table(), file, i, config.project, tree);
    if (!spec) return spec.error();
    for (const auto& prior : config.kernels)
      if (prior.name == spec->name)
        return Error::config(spec->where.str(), "kernel `" + spec->name + "` is " +
                                                    std::string(kDeclaredTwiceFirstAt) +
                                                    prior.where.str());
    config.kernels.push_back(std::move(*spec));
  }
  return Ok{};
}

Status check_root_tables(const toml::table& root, const std::string& file, bool is_root) {
  std::vector<std::string> allowed = is_root ? kRootTables : std::vector<std::string>{"kernel"};
  for (const auto& [key, value] : root) {
    std::string name(key.str());
    if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
    std::string where = file + ":" + std::to_string(key.source().begin.line) + ":" +
                        std::to_string(key.source().begin.column);
    if (std::find(kRootTables.begin(), kRootTables.end(), name) != kRootTables.end())
      return Error::config(where, "[" + name + "] belongs in kblaster.toml only; " + file +
                                      " may only declare [[kernel]] tables");
    return Error::config(where, "unknown table `" + name + "`" + did_you_mean(name, kRootTables));
  }
  return Ok{};
}

}  // namespace

Result<Config> load_config(const SourceTree& tree) {
  if (!tree.is_file(kConfigFile))
    return Error::config(tree.describe(),
                         "no kblaster.toml here; is this the kernel repository's root?");
  auto root = parse_toml(tree, kConfigFile);
  if (!root) return root.error();
  KB_TRY(check_root_tables(*root, kConfigFile, true));
  Config config;
  auto project = parse_project(*root, tree);
  if (!project) return project.error();
  config.project = std::move(*project);
  auto check = parse_check(*root);
  if (!check) return check.error();
  config.check = *check;
  auto publish = parse_publish(*root, kConfigFile);
  if (!publish) return publish.error();
  config.publish = std::move(*publish);
  config.spec_files.push_back(kConfigFile);
  KB_TRY(parse_kernels(*root, kConfigFile, tree, config));

  std::vector<PathGlob> spec_globs;
  for (const auto& g : config.project.spec_globs) spec_globs.emplace_back(g);
  for (const auto& file : tree.list_files()) {
    if (file == kConfigFile) continue;
    bool matched = std::any_of(spec_globs.begin(), spec_globs.end(),
                               [&](const PathGlob& g) { return g.matches(file); });
    if (!matched) continue;
    auto table = parse_toml(tree, file);
    if (!table) return table.error();
    KB_TRY(check_root_tables(*table, file, false));
    config.spec_files.push_back(file);
    KB_TRY(parse_kernels(*table, file, tree, config));
  }
  if (config.kernels.empty())
    return Error::config(kConfigFile,
                         "no kernels declared; add a [[kernel]] table (see docs/config.md)");
  return config;
}

Result<toml::table> parse_toml_text(std::string_view text, const std::string& file) {
  if (auto bad = find_unsafe_toml_character(text)) {
    char code[16];
    std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(bad->code_point));
    return Error::config(file + ":" + std::to_string(bad->line) + ":" + std::to_string(bad->column),
                         std::string("the character ") + code +
                             " cannot be read safely by the TOML library this kblaster is built "
                             "with (toml++ 3.3); write it as an escape (\\u" +
                             (code + 2) + ") inside a string, or remove it");
  }
  if (auto deep = find_deep_toml_key(text))
    return Error::config(
        file + ":" + std::to_string(deep->line) + ":" + std::to_string(deep->column),
        "a dotted key of " + std::to_string(deep->parts) + "+ parts; at most " +
            std::to_string(kMaxTomlKeyParts) +
            " are read (the TOML library recurses once per part)");
  try {
    return toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    const auto& at = e.source().begin;
    return Error::config(file + ":" + std::to_string(at.line) + ":" + std::to_string(at.column),
                         "TOML syntax: " + std::string(e.description()));
  }
}

Result<PublishConfig> load_publish_config(std::string_view text, const std::string& file) {
  auto root = parse_toml_text(text, file);
  if (!root) return root.error();
  return parse_publish(*root, file);
}

}  // namespace kblaster
