// The KB's seed catalogue: the optimisation techniques kblaster knows and the performance
// states the classifier assigns, with prior beliefs of each technique's gain per state.
// The data lives in kb/catalogue/{techniques,states}.json; kb/README.md documents the schema.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/status.h"

namespace kblaster {

enum class TechniqueCategory { memory, compute, latency, launch, numerics, algorithmic };
// Who applies a technique: kblaster's LLM-free appliers, or an LLM source rewrite.
enum class Applier { embedded, llm };

struct Technique {
  std::string id;  // snake_case, stable: KB statistics are keyed by it
  std::string name;
  TechniqueCategory category = TechniqueCategory::memory;
  std::string description;
  std::vector<std::string> applies_when;  // checkable hints on profile metrics or code
  Applier applier = Applier::llm;
  std::string risks;
};

// What the catalogue believes a technique does in a state before any measurement.
struct Prior {
  double expected_log_speedup = 0.0;  // log(t_before / t_after); 0.15 is about 16% faster
  double confidence = 0.0;            // in [0, 1]
};

struct PerfStateInfo {
  std::string key;         // "class.detail", e.g. "memory.dram_saturated"
  std::string bottleneck;  // the class part: memory, compute, latency or launch
  std::string description;
  std::vector<std::string> evidence;    // metric rules, as the classifier checks them
  std::map<std::string, Prior> priors;  // technique id -> prior
};

struct Catalogue {
  std::vector<Technique> techniques;  // in file order
  std::vector<PerfStateInfo> states;  // in file order

  const Technique* find_technique(const std::string& id) const;   // nullptr if absent
  const PerfStateInfo* find_state(const std::string& key) const;  // nullptr if absent
};

const char* category_name(TechniqueCategory category);
const char* applier_name(Applier applier);

// Parses and validates the texts of techniques.json and states.json. A config error names the
// file, the entry (id or key, or "#index" where it has none) and the field. Reads no files.
Result<Catalogue> load_catalogue(const std::string& techniques_json,
                                 const std::string& states_json);

}  // namespace kblaster
