#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "profile/state_rules.h"

namespace kblaster {
namespace {

// The repository root: $KBLASTER_SOURCE_DIR when set, else the build-time path.
std::filesystem::path source_dir() {
  const char* env = std::getenv("KBLASTER_SOURCE_DIR");
  return env && *env ? env : KBLASTER_SOURCE_DIR;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

nlohmann::json catalogue_states() {
  return nlohmann::json::parse(read_text(source_dir() / "kb" / "catalogue" / "states.json"))
      .at("states");
}

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The cells of a markdown table row "| a | b |" -> {"a", "b"}.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line.substr(1));
  for (std::string cell; std::getline(in, cell, '|');) out.push_back(trim(cell));
  return out;
}

// The rule table of docs/states.md: rows whose second cell is a `state.key`.
std::vector<std::vector<std::string>> doc_rows() {
  std::vector<std::vector<std::string>> rows;
  std::stringstream doc(read_text(source_dir() / "docs" / "states.md"));
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("| ", 0) != 0) continue;
    auto c = cells(line);
    if (c.size() >= 5 && c[1].size() > 2 && c[1].front() == '`' &&
        c[1].find('.') != std::string::npos)
      rows.push_back(c);
  }
  return rows;
}

TEST(StateRules, KeysAreExactlyTheCataloguesStates) {
  std::set<std::string> catalogue, rules;
  for (const auto& s : catalogue_states()) catalogue.insert(s.at("key").get<std::string>());
  for (const StateRule& r : state_rules())
    EXPECT_TRUE(rules.insert(std::string(r.key)).second) << "duplicate rule " << r.key;
  EXPECT_EQ(rules, catalogue);
  EXPECT_EQ(state_rules().back().key, "latency.no_dominant_bottleneck");
}

TEST(StateRules, DocsListEveryRuleInOrderWithItsConditionAndTechniques) {
  std::map<std::string, nlohmann::json> priors;
  for (const auto& s : catalogue_states()) priors[s.at("key")] = s.at("priors");
  const auto rows = doc_rows();
  const auto& rules = state_rules();
  ASSERT_EQ(rows.size(), rules.size());
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const std::string key(rules[i].key);
    SCOPED_TRACE(key);
    EXPECT_EQ(rows[i][0], std::to_string(i + 1));
    EXPECT_EQ(rows[i][1], "`" + key + "`");
    EXPECT_EQ(rows[i][2], rules[i].condition);
    for (const auto& [technique, _] : priors[key].items())
      EXPECT_NE(rows[i][4].find(technique), std::string::npos) << technique;
  }
}

}  // namespace
}  // namespace kblaster
