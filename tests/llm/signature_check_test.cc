#include "llm/signature_check.h"

#include <gtest/gtest.h>

#include "llm/launcher_definition.h"
#include "llm/parameter_type.h"
#include "test_paths.h"

namespace kblaster {
namespace {

std::string example(const char* file) {
  return testing::read_text(testing::examples_dir() / "kernels" / file);
}

// `source` with the first `from` replaced by `to`.
std::string replaced(std::string source, const std::string& from, const std::string& to) {
  const auto at = source.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) source.replace(at, from.size(), to);
  return source;
}

TEST(ParameterType, DropsNamesRestrictAndDefaults) {
  struct Case {
    const char* declaration;
    const char* type;
  };
  constexpr Case kCases[] = {
      {"const float *__restrict__ x", "const float*"},
      {"float const* restrict in", "const float*"},
      {"cudaStream_t stream = 0", "cudaStream_t"},
      {"unsigned int", "unsigned int"},
      {"unsigned n", "unsigned"},
      {"const size_t", "const size_t"},
      {"std::size_t  n", "std::size_t"},
      {"std::size_t", "std::size_t"},
      {"Pair<int, float> p", "Pair<int,float>"},
      {"float a[16]", "float[16]"},
      {"void (*fn)(int)", "void(*)(int)"},
      {"float* const p", "float*const"},
  };
  for (const auto& c : kCases) EXPECT_EQ(parameter_type(c.declaration), c.type) << c.declaration;
}

TEST(SignatureCheck, TheSameSignatureWithOtherNamesSpacingAndRestrictIsAccepted) {
  const auto parent = example("axpy.cu");
  ASSERT_FALSE(parent.empty());
  const auto answer = replaced(parent, "void axpy(int n, float a, const float* x, float* y) {",
                               "void axpy(int count,\n          float alpha,\n"
                               "          const float *__restrict__ xs, float* restrict ys)\n{");
  EXPECT_EQ(launcher_signature_change(parent, answer, "axpy"), std::nullopt);
  EXPECT_EQ(launcher_signature_change(parent, parent, "axpy"), std::nullopt);
}

TEST(SignatureCheck, AChangedTypeIsRefusedWithBothLists) {
  const auto parent = example("axpy.cu");
  const auto answer = replaced(parent, "void axpy(int n, float a, const float* x, float* y)",
                               "void axpy(int n, double a, const float* x, float* y)");
  const auto why = launcher_signature_change(parent, answer, "axpy");
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(*why,
            "the answer changes the parameters of the launcher axpy from "
            "(int, float, const float*, float*) to (int, double, const float*, float*)");
}

TEST(SignatureCheck, AnAddedParameterIsRefused) {
  const auto parent = example("softmax.cu");
  ASSERT_FALSE(parent.empty());
  const auto answer = replaced(parent, "int rows, int cols)", "int rows, int cols, int ld)");
  const auto why = launcher_signature_change(parent, answer, "softmax");
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("(float*, const float*, int, int, int)"), std::string::npos) << *why;
}

TEST(SignatureCheck, ARenamedLauncherIsRefused) {
  const auto parent = example("axpy.cu");
  const auto answer = replaced(parent, "void axpy(", "void axpy_fast(");
  EXPECT_EQ(launcher_signature_change(parent, answer, "axpy"),
            "the answer does not define the launcher axpy");
}

TEST(SignatureCheck, ASignatureInACommentOrStringDoesNotCount) {
  const auto parent = example("axpy.cu");
  const auto changed = replaced(parent, "void axpy(int n, float a, const float* x, float* y)",
                                "void axpy(int n, float a, float* x, float* y)");
  const auto hidden =
      "// void axpy(int n, float a, const float* x, float* y) {}\n"
      "/* void axpy(int n, float a, const float* x, float* y) { } */\n"
      "const char* s = \"void axpy(int n, float a, const float* x, float* y) {}\";\n" +
      changed;
  const auto why = launcher_signature_change(parent, hidden, "axpy");
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("to (int, float, float*, float*)"), std::string::npos) << *why;
  const auto only_comment =
      replaced(parent, "void axpy(int n, float a, const float* x, float* y) {",
               "/* void axpy(int n, float a, const float* x, float* y) */ void other() {");
  EXPECT_EQ(launcher_signature_change(parent, only_comment, "axpy"),
            "the answer does not define the launcher axpy");
}

TEST(SignatureCheck, ANamespacedLauncherMustStayInItsNamespace) {
  const auto parent = example("matmul_naive.cu");
  ASSERT_FALSE(parent.empty());
  EXPECT_EQ(launcher_signature_change(parent, parent, "naive::matmul"), std::nullopt);
  EXPECT_EQ(launcher_signature_change(parent, parent, "::naive::matmul"), std::nullopt);
  const auto moved = replaced(parent, "namespace naive {", "namespace tiled {");
  EXPECT_EQ(launcher_signature_change(parent, moved, "naive::matmul"),
            "the answer does not define the launcher naive::matmul");
  // Defined out of line with its qualifier, the name is the same.
  const std::string out_of_line =
      "namespace naive { cudaError_t matmul(const float*, const float*, float*, int, int, int); }\n"
      "cudaError_t naive::matmul(const float* a, const float* b, float* c, int m, int n, int k) {\n"
      "  return cudaSuccess;\n}\n";
  EXPECT_EQ(launcher_signature_change(parent, out_of_line, "naive::matmul"), std::nullopt);
}

TEST(LauncherDefinitions, CallsDeclarationsAndMembersAreNotDefinitions) {
  const std::string source =
      "void launch(int n);\n"                       // a declaration
      "struct S { void launch(int n) {} };\n"       // a member
      "void other() { launch(3); s.launch(4); }\n"  // calls
      "extern \"C\" { namespace { } }\n"
      "std::vector<int> launch(float* p) { return {}; }\n";  // the definition
  const auto found = find_launcher_definitions(source, "launch");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].parameter_types, std::vector<std::string>{"float*"});
  EXPECT_EQ(found[0].name_begin, source.rfind("launch("));
}

TEST(SignatureCheck, OverloadsMustStayTheSame) {
  const std::string parent = "void f(float* p) {}\nvoid f(double* p) {}\n";
  EXPECT_EQ(launcher_signature_change(parent, "void f(double* q) {}\nvoid f(float* q) {}\n", "f"),
            std::nullopt);
  const auto why = launcher_signature_change(parent, "void f(float* q) {}\n", "f");
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("definitions from (double*) and (float*) to (float*)"), std::string::npos)
      << *why;
}

TEST(SignatureCheck, ALauncherFromAHeaderAcceptsAnAnswerWithoutOne) {
  const std::string parent = "#include \"launch.h\"\n__global__ void k() {}\n";
  EXPECT_EQ(launcher_signature_change(parent, "#include \"launch.h\"\n", "launch"), std::nullopt);
  EXPECT_TRUE(launcher_signature_change(parent, "void launch() {}\n", "launch").has_value());
}

}  // namespace
}  // namespace kblaster
