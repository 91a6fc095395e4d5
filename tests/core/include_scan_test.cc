#include "core/include_scan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace kblaster {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// An in-memory repository that records every path it was asked for.
struct FakeTree {
  std::map<std::string, std::string> files;
  std::vector<std::string> asked;

  SourceReader reader() {
    return [this](const std::string& path) -> std::optional<std::string> {
      asked.push_back(path);
      auto it = files.find(path);
      if (it == files.end()) return std::nullopt;
      return it->second;
    };
  }
};

TEST(IncludeScan, FindsDirectivesOutsideComments) {
  const auto found = find_include_directives(
      "#include \"a.h\"\n"
      "  #  include <b/c.h>  // trailing\n"
      "// #include \"commented.h\"\n"
      "/* #include \"block.h\"\n"
      "#include \"still_block.h\" */ #include \"after_block.h\"\n"
      "const char* s = \"/* not a comment\";\n"
      "#include \"d.h\"\n"
      "#include_next <e.h>\n"
      "// continued \\\n"
      "#include \"continued.h\"\n");
  ASSERT_EQ(found.size(), 5u);
  EXPECT_EQ(found[0].target, "a.h");
  EXPECT_EQ(found[0].form, IncludeDirective::Form::quoted);
  EXPECT_EQ(found[1].target, "b/c.h");
  EXPECT_EQ(found[1].form, IncludeDirective::Form::angled);
  EXPECT_EQ(found[2].target, "after_block.h");  // as for cpp: the comment is one space
  EXPECT_EQ(found[3].target, "d.h");
  EXPECT_EQ(found[4].target, "e.h") << "#include_next includes too";
  EXPECT_EQ(found[4].form, IncludeDirective::Form::angled);
}

// What the preprocessor takes for an include, and a line scanner once missed (issue 21, C).
TEST(IncludeScan, FindsDirectivesTheWayThePreprocessorDoes) {
  const auto found = find_include_directives(
      "#\\
 include \\
  \"spliced.h\"\n"                 // a directive continued with backslashes
      "#inc\\
lude \"split_word.h\"\n"           // even inside the keyword
      "%:include \"digraph.h\"\n"  // %: is #
      "#define HDR \"by_macro.h\"\n"
      "#include HDR\n"  // computed: only cpp knows the file
      "#include CONCAT(a, b)\r\n"
      "#includes_nothing \"x.h\"\n");
  ASSERT_EQ(found.size(), 5u);
  EXPECT_EQ(found[0].target, "spliced.h");
  EXPECT_EQ(found[1].target, "split_word.h");
  EXPECT_EQ(found[2].target, "digraph.h");
  EXPECT_EQ(found[3].form, IncludeDirective::Form::computed);
  EXPECT_EQ(found[3].target, "HDR");
  EXPECT_EQ(found[4].form, IncludeDirective::Form::computed);
  EXPECT_EQ(found[4].target, "CONCAT(a, b)");
}

// A digit separator once opened a character literal that ran to the line's end
// and hid the comment opened after it.
TEST(IncludeScan, DigitSeparatorsDoNotHideAComment) {
  for (const std::string number : {"0xFF'FF", "1'000"}) {
    const auto found = find_include_directives("int m = " + number +
                                               "; /* hide\n#include \"hidden.h\"\n*/\n"
                                               "#include \"shown.h\"\n");
    ASSERT_EQ(found.size(), 1u) << number;
    EXPECT_EQ(found[0].target, "shown.h");
  }
}

TEST(IncludeScan, AComputedIncludeReachesEveryFileOfItsDirectoriesAndNothingWithoutAList) {
  FakeTree t;
  t.files = {{"k/main.cu", "#define H \"cfg.h\"\n#include H\n"},
             {"k/cfg.h", "#include <deep.h>\n"},
             {"inc/other.h", ""},
             {"inc/deep.h", ""},
             {"elsewhere/x.h", ""}};
  const SourceLister list = [&t] {
    std::vector<std::string> all;
    for (const auto& [path, text] : t.files) all.push_back(path);
    return all;
  };
  // The includer's directory and the include dir, and what those files include in turn.
  EXPECT_THAT(scan_includes("k/main.cu", {"inc"}, t.reader(), list),
              ElementsAre("inc/deep.h", "inc/other.h", "k/cfg.h"));
  EXPECT_THAT(scan_includes("k/main.cu", {"inc"}, t.reader()), IsEmpty()) << "no list, no files";
  // A listed file the reader refuses (too large, a link out of the repository) is not reached:
  // every file a scan returns can be read.
  const SourceLister with_refused = [&] {
    auto all = list();
    all.push_back("inc/refused.h");
    return all;
  };
  EXPECT_THAT(scan_includes("k/main.cu", {"inc"}, t.reader(), with_refused),
              ElementsAre("inc/deep.h", "inc/other.h", "k/cfg.h"));
}

TEST(IncludeScan, ResolvesQuotedRelativeFirstThenIncludeDirs) {
  FakeTree tree;
  tree.files = {
      {"kernels/k.cu",
       "#include \"common.h\"\n#include \"util/math.h\"\n#include <cuda_runtime.h>\n"},
      {"kernels/common.h", "#include \"../include/./shared.h\"\n"},
      {"include/common.h", "// shadowed by kernels/common.h\n"},
      {"include/util/math.h", "#include <util/detail.h>\n"},
      {"include/util/detail.h", "#include \"math.h\"\n"},  // a cycle back to math.h
      {"include/shared.h", ""},
  };
  EXPECT_THAT(scan_includes("kernels/k.cu", {"include"}, tree.reader()),
              ElementsAre("kernels/common.h", "include/shared.h", "include/util/math.h",
                          "include/util/detail.h"));
}

TEST(IncludeScan, AngledIncludesSkipTheIncludingDirectory) {
  FakeTree tree;
  tree.files = {{"k.cu", "#include <local.h>\n"}, {"local.h", ""}};
  EXPECT_THAT(scan_includes("k.cu", {}, tree.reader()), IsEmpty());
  EXPECT_THAT(scan_includes("k.cu", {"."}, tree.reader()), ElementsAre("local.h"));
}

TEST(IncludeScan, SkipsSystemHeadersAndPathsOutsideTheRepo) {
  FakeTree tree;
  tree.files = {{"k.cu", "#include <vector>\n#include \"../outside.h\"\n#include \"/abs.h\"\n"}};
  EXPECT_THAT(scan_includes("k.cu", {"include"}, tree.reader()), IsEmpty());
  for (const auto& asked : tree.asked) EXPECT_FALSE(asked.starts_with("..")) << asked;
}

TEST(IncludeScan, TheTreeNamesEachFilesFirstIncluder) {
  FakeTree tree;
  tree.files = {{"k/a.cu", "#include \"x.h\"\n#include <y.h>\n"},
                {"k/x.h", "#include <y.h>\n#include <z.h>\n"},
                {"inc/y.h", "#include \"x.h\"\n"},  // resolves nowhere from inc/: skipped
                {"inc/z.h", "\n"}};
  const auto found = scan_include_tree("k/a.cu", {"inc"}, tree.reader());
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].path, "k/x.h");
  EXPECT_EQ(found[0].included_from, "k/a.cu");
  EXPECT_EQ(found[1].path, "inc/y.h");
  EXPECT_EQ(found[1].included_from, "k/x.h") << "depth first: x.h reaches y.h before a.cu does";
  EXPECT_EQ(found[2].path, "inc/z.h");
  EXPECT_EQ(found[2].included_from, "k/x.h");
}

TEST(IncludeScan, MissingSourceGivesNothingAndEachFileIsReadOnce) {
  FakeTree tree;
  EXPECT_THAT(scan_includes("nope.cu", {}, tree.reader()), IsEmpty());
  tree.files = {{"a.cu", "#include \"h.h\"\n#include \"h.h\"\n"}, {"h.h", "#include \"a.cu\"\n"}};
  tree.asked.clear();
  EXPECT_THAT(scan_includes("a.cu", {}, tree.reader()), ElementsAre("h.h"));
  EXPECT_EQ(std::count(tree.asked.begin(), tree.asked.end(), "h.h"), 1);
}

}  // namespace
}  // namespace kblaster
