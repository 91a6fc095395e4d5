#include "llm/llm_settings_parser.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/input_limits.h"
#include "core/suggest.h"
#include "core/toml_fields.h"
#include "llm/llm_limits.h"

namespace kblaster {
namespace {

const std::vector<std::string> kLlmFields = {
    "backend",    "model",     "base_url",  "api_key_env",     "command", "temperature",
    "max_tokens", "timeout_s", "in_flight", "repair_attempts", "prices"};
const std::vector<std::string> kPriceFields = {"input_per_mtok", "output_per_mtok"};
constexpr LlmBackendKind kBackends[] = {LlmBackendKind::openai, LlmBackendKind::anthropic,
                                        LlmBackendKind::command};

// A number field of [llm]: its bounds, whether it must be an integer, and where it goes.
struct NumberRow {
  const char* key;
  double min, max;
  bool integer;
  void (*store)(LlmSettings&, double);
};

constexpr NumberRow kNumbers[] = {
    {"temperature", 0, kMaxTemperature, false, [](LlmSettings& s, double v) { s.temperature = v; }},
    {"max_tokens", 1, kMaxAnswerTokens, true,
     [](LlmSettings& s, double v) { s.max_tokens = static_cast<int>(v); }},
    {"timeout_s", 0.001, kMaxLlmTimeoutSeconds, false,
     [](LlmSettings& s, double v) { s.timeout_s = v; }},
    {"in_flight", 1, kMaxInFlight, true,
     [](LlmSettings& s, double v) { s.in_flight = static_cast<int>(v); }},
    {"repair_attempts", 0, kMaxRepairAttempts, true,
     [](LlmSettings& s, double v) { s.repair_attempts = static_cast<int>(v); }},
};

std::string number_text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// The number at `key` within [min, max] (an integer when `integer`); nullopt when absent.
Result<std::optional<double>> bounded_number(const TomlFields& f, const std::string& key,
                                             double min, double max, bool integer) {
  const toml::node* n = f.node(key);
  if (!n) return std::optional<double>{};
  if (integer && !n->is_integer())
    return f.error_at(key, "expected an integer, got " + toml_type_name(*n));
  auto v = f.number(key);
  if (!v) return v.error();
  const double x = **v;
  if (!std::isfinite(x) || x < min || x > max)
    return f.error_at(
        key, number_text(x) + " is outside " + number_text(min) + " to " + number_text(max));
  return v;
}

bool has_control_or_space(std::string_view text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) <= ' ' || c == 0x7f; });
}

// A string field that, when present, is not empty, at most `limit` characters, without
// spaces or control characters.
Result<std::optional<std::string>> plain_string(const TomlFields& f, const std::string& key,
                                                std::size_t limit) {
  auto s = f.string(key);
  if (!s || !s->has_value()) return s;
  const std::string& v = **s;
  if (v.empty()) return f.error_at(key, "must not be empty");
  if (v.size() > limit) return f.error_at(key, too_long(v, limit, "it"));
  if (has_control_or_space(v))
    return f.error_at(key, quote_input(v) + " has a space or a control character");
  return s;
}

Result<LlmBackendKind> parse_backend(const TomlFields& f) {
  auto name = f.required_string("backend");
  if (!name) return name.error();
  std::vector<std::string> names;
  for (LlmBackendKind k : kBackends) names.emplace_back(llm_backend_name(k));
  const auto it = std::find(names.begin(), names.end(), *name);
  if (it == names.end())
    return f.error_at("backend", quote_input(*name) + " is not a backend" +
                                     did_you_mean(*name, names) +
                                     " (backends: openai, anthropic, command)");
  return kBackends[it - names.begin()];
}

bool is_variable_name(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// base_url and api_key_env, each only for the backends that take it.
Status parse_endpoint(const TomlFields& f, LlmSettings& s) {
  auto url = plain_string(f, "base_url", kMaxBaseUrlLength);
  if (!url) return url.error();
  if (url->has_value()) {
    if (s.backend == LlmBackendKind::command)
      return f.error_at("base_url", "the command backend takes no base_url");
    const std::string& v = **url;
    if (v.rfind("http://", 0) != 0 && v.rfind("https://", 0) != 0)
      return f.error_at("base_url", quote_input(v) + " is not an http:// or https:// URL");
    s.base_url = v;
  }
  auto key = plain_string(f, "api_key_env", kMaxKeyVariableLength);
  if (!key) return key.error();
  if (key->has_value()) {
    if (!is_variable_name(**key))
      return f.error_at("api_key_env", quote_input(**key) +
                                           " is not an environment variable's name "
                                           "(letters, digits and '_', not first a digit)");
    s.api_key_env = **key;
  }
  return Ok{};
}

Status parse_command(const TomlFields& f, LlmSettings& s) {
  if (s.backend != LlmBackendKind::command) {
    if (f.has("command"))
      return f.error_at("command", "only the command backend takes a command (backend = \"" +
                                       std::string(llm_backend_name(s.backend)) + "\")");
    return Ok{};
  }
  if (!f.has("command")) return f.error_here("missing required field `command` (argv, no shell)");
  auto words = f.string_list("command");
  if (!words) return words.error();
  if (words->empty()) return f.error_at("command", "must name a program");
  if (words->size() > kMaxCommandWords)
    return f.error_at("command", "has " + std::to_string(words->size()) + " words; at most " +
                                     std::to_string(kMaxCommandWords));
  for (std::size_t i = 0; i < words->size(); ++i) {
    const std::string& w = (*words)[i];
    const std::string where = f.location_of_item("command", i).str();
    const std::string field = "[llm]: field `command`[" + std::to_string(i) + "]: ";
    if (w.size() > kMaxCommandWordLength)
      return Error::config(where, field + too_long(w, kMaxCommandWordLength, "a word"));
    if (w.find('\0') != std::string::npos)
      return Error::config(where, field + "holds a NUL character");
    if (i == 0 && w.empty()) return Error::config(where, field + "the program is empty");
  }
  s.command = std::move(*words);
  return Ok{};
}

Status parse_prices(const TomlFields& f, LlmSettings& s) {
  auto table = f.table("prices");
  if (!table) return table.error();
  if (!*table) return Ok{};
  TomlFields prices(**table, f.file(), "[llm.prices]");
  if ((*table)->size() > kMaxPricedModels)
    return prices.error_here("prices " + std::to_string((*table)->size()) + " models; at most " +
                             std::to_string(kMaxPricedModels));
  for (const auto& [key, value] : **table) {
    const std::string model(key.str());
    if (model.empty() || model.size() > kMaxModelNameLength)
      return prices.error_at(
          model, "a model name has 1 to " + std::to_string(kMaxModelNameLength) + " characters");
    auto entry = prices.table(model);
    if (!entry) return entry.error();
    if (!*entry)
      return prices.error_at(model, "expected a table of input_per_mtok, output_per_mtok");
    TomlFields p(**entry, f.file(), "[llm.prices." + quote_input(model) + "]");
    KB_TRY(p.check_known(kPriceFields));
    ModelPrice price;
    for (const std::string& field : kPriceFields) {
      if (!p.has(field))
        return p.error_here("missing required field `" + field + "` (USD per million tokens)");
      auto v = bounded_number(p, field, 0, kMaxPricePerMtok, false);
      if (!v) return v.error();
      (field == kPriceFields[0] ? price.input_per_mtok : price.output_per_mtok) = **v;
    }
    s.prices.emplace(model, price);
  }
  return Ok{};
}

}  // namespace

Result<std::optional<LlmSettings>> parse_llm(const toml::table& root, const std::string& file) {
  auto t = TomlFields(root, file, file).table("llm");
  if (!t) return t.error();
  if (!*t) return std::optional<LlmSettings>{};
  TomlFields f(**t, file, "[llm]");
  KB_TRY(f.check_known(kLlmFields));
  LlmSettings s;
  auto backend = parse_backend(f);
  if (!backend) return backend.error();
  s.backend = *backend;

  auto model = plain_string(f, "model", kMaxModelNameLength);
  if (!model) return model.error();
  if (model->has_value()) s.model = **model;
  if (s.model.empty() && s.backend != LlmBackendKind::command)
    return f.error_here("missing required field `model` for backend \"" +
                        std::string(llm_backend_name(s.backend)) + "\"");
  KB_TRY(parse_endpoint(f, s));
  KB_TRY(parse_command(f, s));
  for (const NumberRow& row : kNumbers) {
    auto v = bounded_number(f, row.key, row.min, row.max, row.integer);
    if (!v) return v.error();
    if (v->has_value()) row.store(s, **v);
  }
  if (s.backend == LlmBackendKind::anthropic && s.temperature > kMaxAnthropicTemperature)
    return f.error_at("temperature", number_text(s.temperature) + " is above Anthropic's most, " +
                                         number_text(kMaxAnthropicTemperature));
  KB_TRY(parse_prices(f, s));
  return std::optional<LlmSettings>(std::move(s));
}

}  // namespace kblaster
