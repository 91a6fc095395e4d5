// DependencyScanner over in-memory files: include cycles, and closures shared by kernels asked
// in either order, never hide a changed header.
#include "git/kernel_deps.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

namespace kblaster {
namespace {

using ::testing::ElementsAre;

KernelSpec kernel(const std::string& source) {
  KernelSpec k;
  k.name = source;
  k.source = source;
  return k;
}

class KernelDeps : public ::testing::Test {
 protected:
  std::map<std::string, std::string> files = {
      {"k.cu", "#include \"a.h\"\n"},      // k -> a -> b -> (a, c)
      {"k2.cu", "#include \"b.h\"\n"},     // k2 -> b
      {"other.cu", "#include \"d.h\"\n"},  // reaches nothing changed
      {"a.h", "#include \"b.h\"\n"},      {"b.h", "#include \"a.h\"\n#include \"c.h\"\n"},
      {"c.h", "#define C 1\n"},           {"d.h", "#define D 1\n"},
  };
  SourceReader read() {
    return [this](const std::string& p) -> std::optional<std::string> {
      const auto it = files.find(p);
      if (it == files.end()) return std::nullopt;
      return it->second;
    };
  }
  static std::vector<std::string> paths(const std::vector<DependencyHit>& hits) {
    std::vector<std::string> out;
    for (const auto& h : hits) out.push_back(h.path);
    return out;
  }
};

TEST_F(KernelDeps, AChangeReachedThroughAnIncludeCycleIsAHitInEitherOrder) {
  for (const bool k_first : {true, false}) {
    SCOPED_TRACE(k_first ? "k first" : "k2 first");
    DependencyScanner scanner(read());
    const std::set<std::string> changed = {"c.h"};
    std::vector<DependencyHit> k, k2;
    if (k_first) {
      k = scanner.hits(kernel("k.cu"), changed);
      k2 = scanner.hits(kernel("k2.cu"), changed);
    } else {
      k2 = scanner.hits(kernel("k2.cu"), changed);
      k = scanner.hits(kernel("k.cu"), changed);
    }
    EXPECT_THAT(paths(k), ElementsAre("c.h"));
    EXPECT_THAT(paths(k2), ElementsAre("c.h"));
    ASSERT_EQ(k.size(), 1u);
    EXPECT_THAT(k[0].chain, ElementsAre("k.cu", "a.h", "b.h", "c.h"));
    EXPECT_TRUE(scanner.hits(kernel("other.cu"), changed).empty());
  }
}

TEST_F(KernelDeps, ADifferentChangeSetIsAnsweredAfresh) {
  DependencyScanner scanner(read());
  EXPECT_TRUE(scanner.hits(kernel("other.cu"), {"c.h"}).empty());
  EXPECT_THAT(paths(scanner.hits(kernel("other.cu"), {"d.h"})), ElementsAre("d.h"));
  EXPECT_THAT(paths(scanner.hits(kernel("k.cu"), {"a.h", "d.h"})), ElementsAre("a.h"));
}

}  // namespace
}  // namespace kblaster
