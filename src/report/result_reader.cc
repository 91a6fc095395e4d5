#include "report/result_reader.h"

#include "core/bounded_read.h"
#include "core/input_limits.h"
#include "core/json_nesting.h"
#include "report/bench_reader.h"
#include "report/check_reader.h"
#include "report/json_field.h"
#include "report/optimize_reader.h"

namespace kblaster {
namespace {

struct ReaderRow {
  ResultKind kind;
  std::string_view name;
  int schema_version;
  Result<ResultView> (*read)(const JsonField& root);
};

// One row per ResultKind, in enum order.
constexpr ReaderRow kReaders[] = {
    {ResultKind::check, "check", 1, &read_check},
    {ResultKind::optimize, "optimize", 1, &read_optimize},
    {ResultKind::bench, "bench", 1, &read_bench},
    {ResultKind::run, "run", 1, &read_run},
};

std::string known_kinds() {
  std::string out;
  for (const auto& r : kReaders) out += (out.empty() ? "" : ", ") + std::string(r.name);
  return out;
}

}  // namespace

std::string_view result_kind_name(ResultKind kind) { return kReaders[static_cast<int>(kind)].name; }

Result<ResultView> read_result(const nlohmann::json& result, const std::string& origin) {
  const JsonField root(result, origin);
  if (!result.is_object()) return root.error("a result is a JSON object");
  auto kind = root["kind"].string();
  if (!kind) return kind.error();
  for (const ReaderRow& r : kReaders) {
    if (r.name != *kind) continue;
    auto version = root["schema_version"].unsigned_integer();
    if (!version) return version.error();
    if (*version != static_cast<std::uint64_t>(r.schema_version))
      return root["schema_version"].error("version " + std::to_string(*version) + " of kind " +
                                          *kind + " is not one this kblaster reads (" +
                                          std::to_string(r.schema_version) + ")");
    auto view = r.read(root);
    if (!view) return view.error();
    view->origin = origin;
    view->value = result;
    return view;
  }
  return root["kind"].error(quote_input(*kind) + " is not a kind of result kblaster reports on (" +
                            known_kinds() + ")");
}

Result<nlohmann::json> load_result_json(const std::filesystem::path& path) {
  auto text = read_bounded(path, kMaxJsonBytes, "the result");
  if (!text) return text.error();
  if (nests_deeper_than(*text, kMaxResultDepth))
    return Error::usage(path.string() + ": nested deeper than " + std::to_string(kMaxResultDepth) +
                        " levels; not a kblaster result");
  const auto result = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (result.is_discarded()) return Error::usage(path.string() + ": not valid JSON");
  return result;
}

Result<ResultView> load_result(const std::filesystem::path& path) {
  auto result = load_result_json(path);
  if (!result) return result.error();
  return read_result(*result, path.string());
}

}  // namespace kblaster
