#include "kb/catalogue.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>

namespace kblaster {

using nlohmann::json;

namespace {

constexpr int kSchemaVersion = 1;
constexpr const char* kTechniquesFile = "techniques.json";
constexpr const char* kStatesFile = "states.json";
const char* const kStateClasses[] = {"memory", "compute", "latency", "launch"};

bool is_snake_case(const std::string& s) {
  if (s.empty() || s[0] < 'a' || s[0] > 'z') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// One catalogue entry being read: every error it gives names the file, the entry and the field.
struct Entry {
  const char* file;
  std::string label;  // "technique 'fast_math'" or "state #3"
  const json& obj;

  Error fail(const std::string& field, const std::string& what) const {
    return Error::config(file, label + ": field '" + field + "': " + what);
  }
  // Rejects fields outside the schema, so a misspelt optional field is not silently ignored.
  Status only(std::initializer_list<const char*> fields) const {
    for (const auto& [name, value] : obj.items())
      if (std::find(fields.begin(), fields.end(), name) == fields.end())
        return fail(name, "not part of the schema");
    return Ok{};
  }
  Result<std::string> text(const char* field) const {
    if (!obj.contains(field)) return fail(field, "missing");
    const json& v = obj.at(field);
    if (!v.is_string() || v.get<std::string>().empty())
      return fail(field, "must be a non-empty string");
    return v.get<std::string>();
  }
  Result<std::vector<std::string>> texts(const char* field) const {
    if (!obj.contains(field)) return fail(field, "missing");
    const json& v = obj.at(field);
    if (!v.is_array() || v.empty()) return fail(field, "must be a non-empty list of strings");
    std::vector<std::string> out;
    for (const auto& item : v) {
      if (!item.is_string() || item.get<std::string>().empty())
        return fail(field, "must be a non-empty list of strings");
      out.push_back(item.get<std::string>());
    }
    return out;
  }
};

// Parses `text` and returns its list `list_field` after checking the envelope.
Result<json> parse_document(const std::string& text, const char* file, const char* list_field) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Error::config(file, "not valid JSON");
  if (!doc.is_object()) return Error::config(file, "top level must be an object");
  if (!doc.contains("schema_version") || doc["schema_version"] != kSchemaVersion)
    return Error::config(file, "field 'schema_version': must be " + std::to_string(kSchemaVersion));
  if (!doc.contains(list_field) || !doc[list_field].is_array())
    return Error::config(file, std::string("field '") + list_field + "': must be a list");
  return doc[list_field];
}

std::string label_of(const json& obj, const char* what, const char* key_field, size_t index) {
  if (obj.is_object() && obj.contains(key_field) && obj[key_field].is_string())
    return std::string(what) + " '" + obj[key_field].get<std::string>() + "'";
  return std::string(what) + " #" + std::to_string(index);
}

Result<Technique> parse_technique(const json& obj, size_t index) {
  if (!obj.is_object())
    return Error::config(kTechniquesFile,
                         "technique #" + std::to_string(index) + ": must be an object");
  Entry e{kTechniquesFile, label_of(obj, "technique", "id", index), obj};
  KB_TRY(e.only({"id", "name", "category", "description", "applies_when", "applier", "risks"}));
  Technique t;
  auto id = e.text("id");
  if (!id) return id.error();
  if (!is_snake_case(*id)) return e.fail("id", "must be snake_case");
  t.id = *id;
  auto name = e.text("name");
  if (!name) return name.error();
  t.name = *name;
  auto category = e.text("category");
  if (!category) return category.error();
  for (auto c :
       {TechniqueCategory::memory, TechniqueCategory::compute, TechniqueCategory::latency,
        TechniqueCategory::launch, TechniqueCategory::numerics, TechniqueCategory::algorithmic})
    if (*category == category_name(c)) t.category = c;
  if (*category != category_name(t.category))
    return e.fail("category",
                  "unknown category '" + *category +
                      "' (expected memory, compute, latency, launch, numerics or algorithmic)");
  auto description = e.text("description");
  if (!description) return description.error();
  t.description = *description;
  auto hints = e.texts("applies_when");
  if (!hints) return hints.error();
  t.applies_when = *hints;
  auto applier = e.text("applier");
  if (!applier) return applier.error();
  if (*applier != "embedded" && *applier != "llm")
    return e.fail("applier", "unknown applier '" + *applier + "' (expected embedded or llm)");
  t.applier = *applier == "embedded" ? Applier::embedded : Applier::llm;
  auto risks = e.text("risks");
  if (!risks) return risks.error();
  t.risks = *risks;
  return t;
}

Result<Prior> parse_prior(const Entry& e, const std::string& id, const json& v) {
  const std::string field = "priors." + id;
  if (!v.is_object()) return e.fail(field, "must be an object");
  for (const auto& [name, _] : v.items())
    if (name != "expected_log_speedup" && name != "confidence")
      return e.fail(field + "." + name, "not part of the schema");
  for (const char* f : {"expected_log_speedup", "confidence"})
    if (!v.contains(f) || !v[f].is_number() || !std::isfinite(v[f].get<double>()))
      return e.fail(field + "." + f, "must be a finite number");
  Prior prior{v["expected_log_speedup"].get<double>(), v["confidence"].get<double>()};
  if (prior.confidence < 0.0 || prior.confidence > 1.0)
    return e.fail(field + ".confidence", v["confidence"].dump() + " is outside [0, 1]");
  return prior;
}

Result<PerfStateInfo> parse_state(const json& obj, size_t index, const Catalogue& catalogue) {
  if (!obj.is_object())
    return Error::config(kStatesFile, "state #" + std::to_string(index) + ": must be an object");
  Entry e{kStatesFile, label_of(obj, "state", "key", index), obj};
  KB_TRY(e.only({"key", "class", "description", "evidence", "priors"}));
  PerfStateInfo s;
  auto key = e.text("key");
  if (!key) return key.error();
  const auto dot = key->find('.');
  const std::string klass = key->substr(0, dot);
  if (dot == std::string::npos || !is_snake_case(key->substr(dot + 1)) ||
      std::find(std::begin(kStateClasses), std::end(kStateClasses), klass) ==
          std::end(kStateClasses))
    return e.fail("key",
                  "must be class.detail with class memory, compute, latency or launch and a "
                  "snake_case detail");
  s.key = *key;
  auto declared = e.text("class");
  if (!declared) return declared.error();
  if (*declared != klass)
    return e.fail("class", "'" + *declared + "' does not match the key's class '" + klass + "'");
  s.bottleneck = klass;
  auto description = e.text("description");
  if (!description) return description.error();
  s.description = *description;
  auto evidence = e.texts("evidence");
  if (!evidence) return evidence.error();
  s.evidence = *evidence;
  if (!obj.contains("priors") || !obj["priors"].is_object() || obj["priors"].empty())
    return e.fail("priors", "must be a non-empty object of technique id to prior");
  for (const auto& [id, v] : obj["priors"].items()) {
    if (!catalogue.find_technique(id))
      return e.fail("priors." + id, "unknown technique '" + id + "'");
    auto prior = parse_prior(e, id, v);
    if (!prior) return prior.error();
    s.priors[id] = *prior;
  }
  return s;
}

}  // namespace

const char* category_name(TechniqueCategory category) {
  switch (category) {
    case TechniqueCategory::memory:
      return "memory";
    case TechniqueCategory::compute:
      return "compute";
    case TechniqueCategory::latency:
      return "latency";
    case TechniqueCategory::launch:
      return "launch";
    case TechniqueCategory::numerics:
      return "numerics";
    case TechniqueCategory::algorithmic:
      return "algorithmic";
  }
  return "?";
}

const char* applier_name(Applier applier) {
  return applier == Applier::embedded ? "embedded" : "llm";
}

const Technique* Catalogue::find_technique(const std::string& id) const {
  auto it = std::find_if(techniques.begin(), techniques.end(),
                         [&](const Technique& t) { return t.id == id; });
  return it == techniques.end() ? nullptr : &*it;
}

const PerfStateInfo* Catalogue::find_state(const std::string& key) const {
  auto it = std::find_if(states.begin(), states.end(),
                         [&](const PerfStateInfo& s) { return s.key == key; });
  return it == states.end() ? nullptr : &*it;
}

Result<Catalogue> load_catalogue(const std::string& techniques_json,
                                 const std::string& states_json) {
  Catalogue catalogue;
  auto techniques = parse_document(techniques_json, kTechniquesFile, "techniques");
  if (!techniques) return techniques.error();
  for (size_t i = 0; i < techniques->size(); ++i) {
    auto t = parse_technique((*techniques)[i], i);
    if (!t) return t.error();
    if (catalogue.find_technique(t->id))
      return Error::config(kTechniquesFile, "technique '" + t->id + "': field 'id': duplicate id");
    catalogue.techniques.push_back(std::move(*t));
  }
  auto states = parse_document(states_json, kStatesFile, "states");
  if (!states) return states.error();
  for (size_t i = 0; i < states->size(); ++i) {
    auto s = parse_state((*states)[i], i, catalogue);
    if (!s) return s.error();
    if (catalogue.find_state(s->key))
      return Error::config(kStatesFile, "state '" + s->key + "': field 'key': duplicate key");
    catalogue.states.push_back(std::move(*s));
  }
  return catalogue;
}

}  // namespace kblaster
