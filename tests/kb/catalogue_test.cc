#include "kb/catalogue.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "test_paths.h"

namespace kblaster {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Result<Catalogue> load_real() {
  const auto dir = testing::source_dir() / "kb" / "catalogue";
  return load_catalogue(read_text(dir / "techniques.json"), read_text(dir / "states.json"));
}

TEST(Catalogue, RealFilesLoadWithEnoughEntries) {
  auto c = load_real();
  ASSERT_TRUE(c.ok()) << c.error().describe();
  EXPECT_GE(c->techniques.size(), 30u);
  EXPECT_GE(c->states.size(), 12u);
}

TEST(Catalogue, CoversThePapersProductiveTechniques) {
  auto c = load_real();
  ASSERT_TRUE(c.ok()) << c.error().describe();
  for (const char* id : {"vectorized_access", "launch_geometry_tuning", "more_work_per_thread",
                         "instruction_level_parallelism", "register_pressure_reduction",
                         "fast_math", "thread_coarsening", "shared_memory_tiling", "tensor_cores",
                         "layout_transformation", "kernel_fusion", "algebraic_simplification",
                         "control_flow_simplification", "warp_shuffle_reduction"})
    EXPECT_NE(c->find_technique(id), nullptr) << id;
  EXPECT_EQ(c->find_technique("fast_math")->applier, Applier::embedded);
  EXPECT_EQ(c->find_technique("fast_math")->category, TechniqueCategory::numerics);
}

TEST(Catalogue, HasTheClassifierExampleStates) {
  auto c = load_real();
  ASSERT_TRUE(c.ok()) << c.error().describe();
  for (const char* key : {"memory.dram_saturated", "latency.low_occupancy_registers",
                          "compute.fp32_pipe_bound", "launch.too_small"})
    EXPECT_NE(c->find_state(key), nullptr) << key;
}

TEST(Catalogue, EveryStateHasPriorsOverKnownTechniques) {
  auto c = load_real();
  ASSERT_TRUE(c.ok()) << c.error().describe();
  for (const auto& s : c->states) {
    EXPECT_GE(s.priors.size(), 4u) << s.key;
    EXPECT_EQ(s.key.substr(0, s.key.find('.')), s.bottleneck);
    for (const auto& [id, prior] : s.priors) {
      EXPECT_NE(c->find_technique(id), nullptr) << s.key << " -> " << id;
      EXPECT_GE(prior.confidence, 0.0);
      EXPECT_LE(prior.confidence, 1.0);
    }
  }
}

// Minimal valid texts that the malformed cases below break one field at a time.
const char* kTechnique = R"({"id": "fast_math", "name": "Fast math", "category": "numerics",
  "description": "d", "applies_when": ["h"], "applier": "embedded", "risks": "r"})";
std::string techniques(const std::string& entries) {
  return R"({"schema_version": 1, "techniques": [)" + entries + "]}";
}
std::string states(const std::string& key, const std::string& klass, const std::string& priors) {
  return R"({"schema_version": 1, "states": [{"key": ")" + key + R"(", "class": ")" + klass +
         R"(", "description": "d", "evidence": ["e"], "priors": )" + priors + "}]}";
}
const std::string kPriors = R"({"fast_math": {"expected_log_speedup": 0.2, "confidence": 0.5}})";

std::string error_of(const std::string& t, const std::string& s) {
  auto c = load_catalogue(t, s);
  if (c.ok()) return "(loaded)";
  EXPECT_EQ(c.error().kind, ErrorKind::config);
  return c.error().describe();
}

TEST(CatalogueErrors, MinimalInputLoads) {
  auto c =
      load_catalogue(techniques(kTechnique), states("memory.dram_saturated", "memory", kPriors));
  ASSERT_TRUE(c.ok()) << c.error().describe();
  EXPECT_DOUBLE_EQ(c->states[0].priors.at("fast_math").expected_log_speedup, 0.2);
}

TEST(CatalogueErrors, EachMalformedInputNamesFileEntryAndField) {
  const std::string ok_states = states("memory.dram_saturated", "memory", kPriors);
  std::string bad_category = kTechnique;
  bad_category.replace(bad_category.find("numerics"), 8, "magic");
  EXPECT_EQ(error_of(techniques(bad_category), ok_states),
            "techniques.json: technique 'fast_math': field 'category': unknown category 'magic' "
            "(expected memory, compute, latency, launch, numerics or algorithmic)");
  EXPECT_EQ(error_of(techniques(std::string(kTechnique) + "," + kTechnique), ok_states),
            "techniques.json: technique 'fast_math': field 'id': duplicate id");
  EXPECT_EQ(error_of(techniques(kTechnique),
                     states("memory.dram_saturated", "memory",
                            R"({"fast_mth": {"expected_log_speedup": 0.2, "confidence": 0.5}})")),
            "states.json: state 'memory.dram_saturated': field 'priors.fast_mth': unknown "
            "technique 'fast_mth'");
  EXPECT_EQ(error_of(techniques(kTechnique),
                     states("memory.dram_saturated", "memory",
                            R"({"fast_math": {"expected_log_speedup": 0.2, "confidence": 1.5}})")),
            "states.json: state 'memory.dram_saturated': field 'priors.fast_math.confidence': 1.5 "
            "is outside [0, 1]");
  EXPECT_EQ(error_of(techniques(kTechnique), states("dram_saturated", "memory", kPriors)),
            "states.json: state 'dram_saturated': field 'key': must be class.detail with class "
            "memory, compute, "
            "latency or launch and a snake_case detail");
  EXPECT_EQ(error_of(techniques(kTechnique), states("network.dram_saturated", "memory", kPriors)),
            "states.json: state 'network.dram_saturated': field 'key': must be class.detail with "
            "class memory, "
            "compute, latency or launch and a snake_case detail");
  EXPECT_EQ(error_of(techniques(kTechnique), states("memory.dram_saturated", "compute", kPriors)),
            "states.json: state 'memory.dram_saturated': field 'class': 'compute' does not match "
            "the key's class "
            "'memory'");
}

TEST(CatalogueErrors, SchemaAndShapeMistakes) {
  const std::string ok_states = states("memory.dram_saturated", "memory", kPriors);
  std::string no_risks = kTechnique;
  no_risks.replace(no_risks.find(R"(, "risks": "r")"), 14, "");
  EXPECT_EQ(error_of(techniques(no_risks), ok_states),
            "techniques.json: technique 'fast_math': field 'risks': missing");
  std::string bad_applier = kTechnique;
  bad_applier.replace(bad_applier.find("embedded"), 8, "robot");
  EXPECT_EQ(error_of(techniques(bad_applier), ok_states),
            "techniques.json: technique 'fast_math': field 'applier': unknown applier 'robot' "
            "(expected embedded or llm)");
  std::string typo = kTechnique;
  typo.replace(typo.find("risks"), 5, "riskz");
  EXPECT_EQ(error_of(techniques(typo), ok_states),
            "techniques.json: technique 'fast_math': field 'riskz': not part of the schema");
  std::string camel = kTechnique;
  camel.replace(camel.find("fast_math"), 9, "FastMath");
  EXPECT_EQ(error_of(techniques(camel), ok_states),
            "techniques.json: technique 'FastMath': field 'id': must be snake_case");
  EXPECT_EQ(error_of("{", ok_states), "techniques.json: not valid JSON");
  EXPECT_EQ(error_of(R"({"techniques": []})", ok_states),
            "techniques.json: field 'schema_version': must be 1");
  EXPECT_EQ(
      error_of(techniques(kTechnique), R"({"schema_version": 1, "states": [{"class": "memory"}]})"),
      "states.json: state #0: field 'key': missing");
  EXPECT_EQ(error_of(techniques(kTechnique), states("memory.dram_saturated", "memory", "{}")),
            "states.json: state 'memory.dram_saturated': field 'priors': must be a non-empty "
            "object of technique id "
            "to prior");
}

}  // namespace
}  // namespace kblaster
