// Verdict reasons as an enum: every name the protocol documents, and every name the
// harness's source can send, is known, and names round-trip.
#include "gpu/verdict_reason.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "gpu/harness_client.h"
#include "test_paths.h"

namespace kblaster {
namespace {

std::string read(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The quoted word after each `marker` in `text`, whitespace skipped.
std::set<std::string> quoted_after(const std::string& text, const std::string& marker) {
  std::set<std::string> words;
  for (auto at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1)) {
    auto open = text.find_first_not_of(" \t\n", at + marker.size());
    if (open == std::string::npos || text[open] != '"') continue;
    const auto close = text.find('"', open + 1);
    words.insert(text.substr(open + 1, close - open - 1));
  }
  return words;
}

TEST(VerdictReason, NamesRoundTrip) {
  for (int i = 0; i <= static_cast<int>(VerdictReason::unknown); ++i) {
    const auto r = static_cast<VerdictReason>(i);
    EXPECT_EQ(parse_verdict_reason(verdict_reason_name(r)), r) << verdict_reason_name(r);
  }
  EXPECT_EQ(parse_verdict_reason("wrong result"), VerdictReason::unknown);
  EXPECT_EQ(parse_verdict_reason(""), VerdictReason::unknown);
}

TEST(VerdictReason, EveryReasonTheProtocolDocumentsIsKnown) {
  // The rows of the table under "| reason | meaning |", up to the blank line after it.
  const std::string doc = read(testing::source_dir() / "docs/harness-protocol.md");
  const auto table = doc.find("| reason | meaning |");
  ASSERT_NE(table, std::string::npos);
  std::istringstream rows(doc.substr(table, doc.find("\n\n", table) - table));
  std::set<std::string> names = {"timeout", "crashed", "bad_response"};  // the parent's
  for (std::string row; std::getline(rows, row);)
    if (row.starts_with("| `")) names.insert(row.substr(3, row.find('`', 3) - 3));
  ASSERT_EQ(names.size(), 13u);
  for (const auto& name : names)
    EXPECT_NE(parse_verdict_reason(name), VerdictReason::unknown) << name;
}

TEST(VerdictReason, EveryReasonTheHarnessCanSendIsKnown) {
  std::set<std::string> sent;
  for (const auto& entry : std::filesystem::directory_iterator(testing::source_dir() / "harness")) {
    const auto ext = entry.path().extension();
    if (ext != ".cc" && ext != ".cu" && ext != ".h" && ext != ".cuh") continue;
    const std::string text = read(entry.path());
    for (const auto& marker : {std::string("Verdict::failure("), std::string("reason = ")})
      for (const auto& word : quoted_after(text, marker)) sent.insert(word);
  }
  ASSERT_GE(sent.size(), 8u) << "the scan found too few reasons to mean anything";
  for (const auto& name : sent)
    EXPECT_NE(parse_verdict_reason(name), VerdictReason::unknown) << name;
}

TEST(VerdictReason, AVerdictSaysWhetherItEndedTheHarness) {
  for (const char* ended : {"timeout", "crashed", "bad_response"})
    EXPECT_TRUE(ended_the_harness(CheckVerdict{false, ended, "", {}})) << ended;
  for (const char* checked : {"wrong_result", "out_of_bounds_write", "not_rechecked", "nonsense"})
    EXPECT_FALSE(ended_the_harness(CheckVerdict{false, checked, "", {}})) << checked;
  EXPECT_EQ((CheckVerdict{false, "nonfinite", "", {}}).why(), VerdictReason::nonfinite);
}

}  // namespace
}  // namespace kblaster
