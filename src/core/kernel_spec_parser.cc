#include "core/kernel_spec_parser.h"

#include "core/arg_spec_parser.h"
#include "core/identifier.h"
#include "core/input_limits.h"
#include "core/kernel_constants.h"
#include "core/kernel_rules.h"
#include "core/nvcc_flags_field.h"
#include "core/reference_placement.h"
#include "core/suggest.h"
#include "core/toml_fields.h"

namespace kblaster {
namespace {

const std::vector<std::string> kKernelFields = {
    "name",   "source",     "launcher",     "reference", "reference_on", "reference_mode",
    "args",   "sizes",      "flops",        "min_bytes", "tolerance",    "tunables",
    "stream", "nvcc_flags", "include_dirs", "constants", "requires"};

Result<std::string> existing_path(const TomlFields& f, const std::string& key,
                                  const std::string& text, const SourceTree& tree,
                                  bool want_directory) {
  auto path = resolve_beside(f.file(), text);
  if (!path) return f.error_at(key, "`" + text + "` must be a relative path inside the repository");
  bool found = want_directory ? tree.is_directory(*path) : tree.is_file(*path);
  if (!found)
    return f.error_at(key, std::string(want_directory ? "directory" : "file") + " `" + *path +
                               "` does not exist" + leaves_tree_note(tree, *path));
  return *path;
}

// "ref.py:Model": a PyTorch module's class, which the harness's Python worker runs wherever
// torch puts it, so `reference_on` does not apply.
Result<ReferenceSpec> parse_python_reference(const TomlFields& f, const SourceTree& tree,
                                             const std::string& path,
                                             const std::string& class_name) {
  if (!is_identifier(class_name))
    return f.error_at("reference", "`" + class_name +
                                       "` is not a Python class name (letters, digits and _): "
                                       "say \"file.py:Model\"");
  auto on = f.string("reference_on");
  if (!on) return on.error();
  if (*on)
    return f.error_at("reference_on", "`" + path +
                                          "` is a PyTorch module, which runs where torch puts "
                                          "its tensors; remove reference_on");
  auto resolved = existing_path(f, "reference", path, tree, false);
  if (!resolved) return resolved.error();
  auto mode = f.string("reference_mode");
  if (!mode) return mode.error();
  if (*mode && **mode != "eval" && **mode != "train")
    return f.error_at("reference_mode",
                      quote_input(**mode) + ": expected \"eval\" (the default) or \"train\"");
  return ReferenceSpec{ReferenceSpec::Kind::python, *resolved, class_name,
                       *mode && **mode == "train"};
}

Result<ReferenceSpec> parse_reference(const TomlFields& f, const SourceTree& tree) {
  auto text = f.string("reference");
  if (!text) return text.error();
  if (!text->has_value()) {
    if (f.node("reference_mode"))
      return f.error_at("reference_mode",
                        "only a PyTorch module (a .py reference) has a training mode");
    return ReferenceSpec{};
  }
  // "path:function": the path has no ':', the function may ("ns::f", "::f").
  const std::size_t colon = (*text)->find(':');
  if (colon == 0 || colon == std::string::npos)
    return f.error_at("reference", std::string("expected \"path/file.cpp:function\", got ") +
                                       quote_input(**text));
  const std::string path = (*text)->substr(0, colon), function = (*text)->substr(colon + 1);
  if (auto why = name_problem(function, NameKind::function)) return f.error_at("reference", *why);
  ReferenceSpec ref;
  const std::string ext =
      path.substr(path.rfind('.') == std::string::npos ? path.size() : path.rfind('.'));
  if (ext == ".py") return parse_python_reference(f, tree, path, function);
  if (f.node("reference_mode"))
    return f.error_at("reference_mode",
                      "only a PyTorch module (a .py reference) has a training mode");
  const bool host_file = ext == ".c" || ext == ".cc" || ext == ".cpp" || ext == ".cxx";
  if (!host_file && ext != ".cu")
    return f.error_at("reference", "`" + path +
                                       "` must be a .c/.cc/.cpp/.cxx file (CPU reference), a "
                                       ".cu file (a CPU or GPU reference) or a .py file (a "
                                       "PyTorch module)");
  auto resolved = existing_path(f, "reference", path, tree, false);
  if (!resolved) return resolved.error();
  ref.path = *resolved;
  ref.function = function;
  auto on = f.string("reference_on");
  if (!on) return on.error();
  if (*on && **on != "cpu" && **on != "gpu")
    return f.error_at("reference_on", "expected \"cpu\" or \"gpu\", got " + quote_input(**on));
  if (host_file) {
    if (*on && **on == "gpu")
      return f.error_at("reference_on", "`" + ref.path +
                                            "` is host code: a GPU reference is a launcher in a "
                                            ".cu file");
    ref.kind = ReferenceSpec::Kind::cpu;
    return ref;
  }
  // A .cu file may hold either: the function's definition says which, unless the spec does.
  const auto source = tree.read(ref.path);
  const auto body = source ? function_body(*source, function) : std::nullopt;
  const std::string gpu_work = body ? gpu_work_in(*body) : "";
  const std::string named = "`" + ref.path + ":" + function + "`";
  if (*on && **on == "cpu") {
    if (!gpu_work.empty())
      return f.error_at("reference_on", named + " is declared to run on the CPU, but " + gpu_work +
                                            ": it would be handed host pointers");
    ref.kind = ReferenceSpec::Kind::cpu;
  } else if (*on) {
    ref.kind = ReferenceSpec::Kind::gpu;
  } else if (!body) {
    return f.error_at("reference", "no definition of `" + function + "` found in `" + ref.path +
                                       "`, so where it runs cannot be told: say reference_on = "
                                       "\"cpu\" or \"gpu\"");
  } else if (gpu_work.empty()) {
    return f.error_at("reference",
                      named +
                          " launches no kernel and calls no CUDA API, so it looks like host "
                          "code, which a .cu file may hold: say reference_on = \"cpu\" (it is "
                          "compiled with nvcc as host code and given host pointers), or "
                          "reference_on = \"gpu\" if it reaches the GPU through other functions");
  } else {
    ref.kind = ReferenceSpec::Kind::gpu;
  }
  return ref;
}

Result<std::vector<ArgSpec>> parse_args(const TomlFields& f, const KernelConstants& constants) {
  const toml::node* n = f.node("args");
  if (!n) return f.error_here("missing required field `args`");
  const toml::array* arr = n->as_array();
  if (!arr || arr->empty())
    return f.error_at("args", "expected a non-empty array of argument tables");
  std::vector<ArgSpec> args;
  for (std::size_t i = 0; i < arr->size(); ++i) {
    const toml::table* t = arr->get(i)->as_table();
    if (!t)
      return f.error_at("args", "args[" + std::to_string(i) +
                                    "] must be a table like { name = \"x\", type = \"f32\" }");
    auto arg = parse_arg(*t, f.file(), f.context(), i, constants);
    if (!arg) return arg.error();
    for (const auto& prior : args)
      if (prior.name == arg->name)
        return Error::config(arg->where.str(), f.context() + ": args[" + std::to_string(i) +
                                                   "]: duplicate argument name `" + arg->name +
                                                   "`");
    args.push_back(std::move(*arg));
  }
  return args;
}

Result<std::vector<MacroTunable>> parse_tunables(const TomlFields& f) {
  std::vector<MacroTunable> out;
  const toml::node* n = f.node("tunables");
  if (!n) return out;
  const toml::table* t = n->as_table();
  if (!t) return f.error_at("tunables", "expected a table like { BLOCK = [128, 256] }");
  for (const auto& [key, value] : *t) {
    MacroTunable m{std::string(key.str()), {}};
    if (auto why = name_problem(m.name, NameKind::macro)) return f.error_at("tunables", *why);
    const toml::array* arr = value.as_array();
    if (!arr || arr->empty())
      return f.error_at("tunables", "`" + m.name + "` needs a non-empty array of values");
    for (const auto& v : *arr) {
      if (v.is_integer())
        m.values.push_back(std::to_string(v.as_integer()->get()));
      else if (v.is_string())
        m.values.push_back(v.as_string()->get());
      else
        return f.error_at("tunables", "`" + m.name + "` values must be integers or strings, got " +
                                          toml_type_name(v));
    }
    out.push_back(std::move(m));
  }
  return out;
}

Result<std::vector<std::string>> parse_dirs(const TomlFields& f, const SourceTree& tree) {
  auto dirs = f.string_list("include_dirs");
  if (!dirs) return dirs.error();
  std::vector<std::string> out;
  for (const auto& d : *dirs) {
    auto p = existing_path(f, "include_dirs", d, tree, true);
    if (!p) return p.error();
    out.push_back(*p);
  }
  return out;
}

}  // namespace

Result<KernelSpec> parse_kernel(const toml::table& table, const std::string& file,
                                std::size_t index, const ProjectConfig& project,
                                const SourceTree& tree) {
  // Name the kernel in messages as soon as possible, even before `name` is validated.
  const toml::node* given = table.get("name");
  std::string label = given && given->is_string()
                          ? std::string("kernel ") + quote_input(given->as_string()->get())
                          : "kernel[" + std::to_string(index) + "]";
  TomlFields unnamed(table, file, label);
  KB_TRY(unnamed.check_known(kKernelFields));
  KernelSpec spec;
  spec.where = unnamed.location();
  auto name = unnamed.required_string("name");
  if (!name) return name.error();
  if (auto why = name_problem(*name, NameKind::kernel)) return unnamed.error_at("name", *why);
  spec.name = *name;
  TomlFields f(table, file, "kernel `" + spec.name + "`");

  auto source = f.required_string("source");
  if (!source) return source.error();
  auto source_path = existing_path(f, "source", *source, tree, false);
  if (!source_path) return source_path.error();
  spec.source = *source_path;

  auto launcher = f.required_string("launcher");
  if (!launcher) return launcher.error();
  if (auto why = name_problem(*launcher, NameKind::function)) return f.error_at("launcher", *why);
  spec.launcher = *launcher;

  auto ref = parse_reference(f, tree);
  if (!ref) return ref.error();
  spec.reference = *ref;

  auto constants = parse_constants(f);
  if (!constants) return constants.error();
  spec.constants = std::move(*constants);

  auto args = parse_args(f, spec.constants);
  if (!args) return args.error();
  spec.args = std::move(*args);

  auto tunables = parse_tunables(f);
  if (!tunables) return tunables.error();
  spec.tunables = std::move(*tunables);

  auto stream = f.boolean("stream");
  if (!stream) return stream.error();
  spec.stream = stream->value_or(false);

  auto flags = read_nvcc_flags(f, tree);
  if (!flags) return flags.error();
  spec.nvcc_flags = project.nvcc_flags;
  spec.nvcc_flags.insert(spec.nvcc_flags.end(), flags->flags.begin(), flags->flags.end());

  auto dirs = parse_dirs(f, tree);
  if (!dirs) return dirs.error();
  spec.include_dirs = project.include_dirs;
  spec.include_dirs.insert(spec.include_dirs.end(), dirs->begin(), dirs->end());
  spec.include_dirs.insert(spec.include_dirs.end(), flags->include_dirs.begin(),
                           flags->include_dirs.end());

  KB_TRY(apply_kernel_rules(f, spec));
  return spec;
}

}  // namespace kblaster
