#include "core/definition_line.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(DefinitionLine, FindsTheDefinitionNotADeclarationOrACall) {
  const char* source =
      "#include <cuda_runtime.h>\n"           // 1
      "void launch(float* x, int n);\n"       // 2: a declaration
      "__global__ void k(float* x) {}\n"      // 3
      "void run() { launch(nullptr, 0); }\n"  // 4: a call
      "void launch(float* x,\n"               // 5: the definition
      "            int n)\n"                  // 6
      "{\n"                                   // 7
      "  k<<<1, 1>>>(x);\n"                   // 8
      "}\n";                                  // 9
  EXPECT_EQ(definition_line(source, "launch"), 5u);
  EXPECT_EQ(definition_line(source, "k"), 3u);
}

TEST(DefinitionLine, SkipsCommentsLiteralsAndLongerNames) {
  const char* source =
      "// void launch(int) {}\n"                    // 1
      "const char* s = \"launch(1) {\";\n"          // 2
      "void relaunch(int n) {}\n"                   // 3
      "void launch_all(int n) {}\n"                 // 4
      "namespace ns { void launch(int n) { } }\n";  // 5
  EXPECT_EQ(definition_line(source, "ns::launch"), 5u);
}

TEST(DefinitionLine, FallsBackToTheFirstMentionThenToZero) {
  EXPECT_EQ(definition_line("int x;\nvoid launch(int);\n", "launch"), 2u)
      << "only declared: where it is declared";
  EXPECT_EQ(definition_line("int x;\n", "launch"), 0u);
  EXPECT_EQ(definition_line("void launch() {}\n", ""), 0u);
  EXPECT_EQ(definition_line("void launch(( {}\n", "launch"), 1u) << "unbalanced";
}

}  // namespace
}  // namespace kblaster
