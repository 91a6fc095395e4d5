#include "core/path_glob.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/source_tree.h"
#include "core/suggest.h"

namespace kblaster {
namespace {

TEST(PathGlob, DoubleStarMatchesAnyDepthIncludingNone) {
  EXPECT_TRUE(glob_match("**/*.kblaster.toml", "a.kblaster.toml"));
  EXPECT_TRUE(glob_match("**/*.kblaster.toml", "kernels/reduce/reduce.kblaster.toml"));
  EXPECT_FALSE(glob_match("**/*.kblaster.toml", "kernels/reduce.toml"));
  EXPECT_TRUE(glob_match("kernels/**", "kernels/a/b.cu"));
}

TEST(PathGlob, SingleStarAndQuestionMarkStayInOneComponent) {
  EXPECT_TRUE(glob_match("kernels/*.toml", "kernels/x.toml"));
  EXPECT_FALSE(glob_match("kernels/*.toml", "kernels/sub/x.toml"));
  EXPECT_TRUE(glob_match("k?.cu", "k1.cu"));
  EXPECT_FALSE(glob_match("k?.cu", "k/.cu"));
}

TEST(PathGlob, TrailingDoubleStarMatchesEverythingAndMidStarsStayInAComponent) {
  EXPECT_TRUE(glob_match("**", ""));
  EXPECT_TRUE(glob_match("x**", "xa/b/c"));
  EXPECT_TRUE(glob_match("a**/b", "axyz/q/b")) << "`**/` matches whole directories anywhere";
  EXPECT_FALSE(glob_match("a**b", "a/b")) << "`**` not before '/' nor at the end is two `*`";
  EXPECT_TRUE(glob_match("kernels/**/", "kernels/a/"));
  EXPECT_FALSE(glob_match("kernels/**/x", "kernels/a/y"));
}

// The backtracking matcher glob_match replaced (exponential in the stars): the
// definition of the semantics, checked against on every short pattern and path.
bool reference_glob(std::string_view pattern, std::string_view path) {
  if (pattern.substr(0, 3) == "**/") {
    if (reference_glob(pattern.substr(3), path)) return true;
    auto slash = path.find('/');
    return slash != std::string_view::npos && reference_glob(pattern, path.substr(slash + 1));
  }
  if (pattern == "**") return true;
  if (pattern.empty()) return path.empty();
  if (pattern.front() == '*') {
    for (std::size_t i = 0; i <= path.size(); ++i) {
      if (reference_glob(pattern.substr(1), path.substr(i))) return true;
      if (i < path.size() && path[i] == '/') break;
    }
    return false;
  }
  if (path.empty()) return false;
  if (pattern.front() == '?')
    return path.front() != '/' && reference_glob(pattern.substr(1), path.substr(1));
  return pattern.front() == path.front() && reference_glob(pattern.substr(1), path.substr(1));
}

// Every string of up to `max_length` characters from `alphabet`.
std::vector<std::string> all_strings(const std::string& alphabet, std::size_t max_length) {
  std::vector<std::string> out = {""};
  for (std::size_t begin = 0; begin < out.size(); ++begin)
    if (out[begin].size() < max_length)
      for (char c : alphabet) out.push_back(out[begin] + c);
  return out;
}

TEST(PathGlob, AgreesWithTheBacktrackingDefinitionOnEveryShortInput) {
  const auto paths = all_strings("ab/", 5);
  for (const auto& pattern : all_strings("a/*?", 5))
    for (const auto& path : paths)
      ASSERT_EQ(glob_match(pattern, path), reference_glob(pattern, path))
          << "pattern `" << pattern << "`, path `" << path << "`";
}

// 30 stars took the backtracking matcher 10.6 s; 200 would never end.
TEST(PathGlob, TwoHundredStarsAgainstALongPathThatDoesNotMatch) {
  const std::string stars(200, '*');
  const std::string path = std::string(1000, 'a') + "b";
  EXPECT_FALSE(glob_match(stars + "c", path));
  EXPECT_TRUE(glob_match(stars + "b", path));
  EXPECT_FALSE(glob_match("**/" + stars + "/c", "x/" + path)) << "no `/c` after the stars";
}

// One compiled glob for a repository's every file (the spec-file search) answers as a fresh
// one does for each; its closing literal text refuses most paths before the NFA runs.
TEST(PathGlob, ACompiledGlobAnswersEachPathAsAFreshOne) {
  const std::vector<std::string> patterns = {
      "**/*.kblaster.toml", "k?.cu", "kernels/**", "*", "a**b", ""};
  const std::vector<std::string> paths = {"a.kblaster.toml",
                                          "x/y/b.kblaster.toml",
                                          "kblaster.toml",
                                          "k1.cu",
                                          "kernels/a/b.cu",
                                          "ab",
                                          "a/b",
                                          "",
                                          "x.toml"};
  for (const auto& p : patterns) {
    const PathGlob glob(p);
    for (const auto& path : paths)
      EXPECT_EQ(glob.matches(path), glob_match(p, path)) << p << " on " << path;
  }
  EXPECT_FALSE(PathGlob("**/*.kblaster.toml").matches("x.kblaster.tom"));
  EXPECT_TRUE(PathGlob("").matches(""));
  EXPECT_FALSE(PathGlob("").matches("a"));
}

TEST(SourceTreePaths, NormalizeDropsEmptyAndDotPartsAndKeepsTheRest) {
  EXPECT_EQ(normalize_relative("a//b/").value(), "a/b");
  EXPECT_EQ(normalize_relative("./a/./b").value(), "a/b");
  EXPECT_EQ(normalize_relative("a/..").value(), ".");
  EXPECT_EQ(normalize_relative(".").value(), ".");
  EXPECT_EQ(normalize_relative("a/b/../../c/d").value(), "c/d");
  EXPECT_EQ(normalize_relative("...").value(), "...") << "only `..` goes up";
  EXPECT_FALSE(normalize_relative("a/../../b").has_value());
  EXPECT_FALSE(normalize_relative("").has_value());
}

TEST(SourceTreePaths, NormalizeRefusesEscapes) {
  EXPECT_EQ(normalize_relative("a/./b/../c").value(), "a/c");
  EXPECT_FALSE(normalize_relative("../x").has_value());
  EXPECT_FALSE(normalize_relative("/etc/passwd").has_value());
  EXPECT_EQ(resolve_beside("kernels/reduce/r.kblaster.toml", "../ref/r.cpp").value(),
            "kernels/ref/r.cpp");
  EXPECT_EQ(resolve_beside("kblaster.toml", "k/a.cu").value(), "k/a.cu");
}

TEST(Suggest, FindsCloseNamesOnly) {
  std::vector<std::string> fields = {"tolerance", "tunables", "launcher", "source"};
  EXPECT_EQ(did_you_mean("tolerence", fields), "; did you mean `tolerance`?");
  EXPECT_EQ(did_you_mean("lanucher", fields), "; did you mean `launcher`?");
  EXPECT_EQ(did_you_mean("zzzzzz", fields), "");
}

}  // namespace
}  // namespace kblaster
