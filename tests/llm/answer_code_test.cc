#include "llm/answer_code.h"

#include <gtest/gtest.h>

#include "test_paths.h"

namespace kblaster {
namespace {

const std::string kAxpy =
    "#include <cuda_runtime.h>\n"
    "__global__ void axpy_kernel(int n, float a, const float* x, float* y) {}\n"
    "void axpy(int n, float a, const float* x, float* y) { axpy_kernel<<<1, 1>>>(n, a, x, y); }\n";

TEST(ExtractCode, TakesTheBlockOutOfAChattyAnswer) {
  const auto code = extract_code(
      "Sure! Here is the faster version, using float4 loads:\n\n```cuda\n" + kAxpy +
          "```\n\nThis moves 16 bytes per load instead of 4. Let me know if you need more!",
      "axpy");
  ASSERT_TRUE(code.ok()) << code.reason;
  EXPECT_EQ(code.code, kAxpy);
  EXPECT_TRUE(code.reason.empty());
}

TEST(ExtractCode, AcceptsEveryCodeTagAndTildeFencesAndSkipsOtherLanguages) {
  for (const std::string tag : {"cuda", "CUDA", "cu", "cpp", "c++", "c", "", "cuda title=x"}) {
    const auto code = extract_code("```" + tag + "\n" + kAxpy + "```\n", "axpy");
    ASSERT_TRUE(code.ok()) << tag << ": " << code.reason;
    EXPECT_EQ(code.code, kAxpy) << tag;
  }
  const auto tilde = extract_code("~~~~cuda\n" + kAxpy + "~~~~\n", "axpy");
  ASSERT_TRUE(tilde.ok()) << tilde.reason;
  EXPECT_EQ(tilde.code, kAxpy);
  // A ``` inside a ~~~ block does not close it.
  const auto nested = extract_code("~~~\nint x;\n```\nint y;\n~~~\n", "f");
  ASSERT_TRUE(nested.ok()) << nested.reason;
  EXPECT_EQ(nested.code, "int x;\n```\nint y;\n");
  const auto shell = extract_code(
      "Compile with:\n```bash\nnvcc -O3 axpy.cu\n```\nThen:\n```cuda\n" + kAxpy + "```", "axpy");
  ASSERT_TRUE(shell.ok()) << shell.reason;
  EXPECT_EQ(shell.code, kAxpy);
}

TEST(ExtractCode, CrlfAnswersGiveLfCode) {
  std::string crlf;
  for (const char c : "Here:\n```cuda\n" + kAxpy + "```\n") {
    if (c == '\n') crlf += '\r';
    if (c != '\0') crlf += c;
  }
  const auto code = extract_code(crlf, "axpy");
  ASSERT_TRUE(code.ok()) << code.reason;
  EXPECT_EQ(code.code, kAxpy);
}

TEST(ExtractCode, AmongSeveralBlocksTakesTheOneThatDefinesTheLauncher) {
  const auto code = extract_code(
      "The key change is this kernel:\n```cuda\n__global__ void axpy_kernel(int n) {}\n```\n"
      "And the whole file:\n```cuda\n" +
          kAxpy + "```\n",
      "axpy");
  ASSERT_TRUE(code.ok()) << code.reason;
  EXPECT_EQ(code.code, kAxpy);
}

TEST(ExtractCode, SeveralDefiningBlocksAreAmbiguous) {
  const auto code = extract_code(
      "Before:\n```cuda\n" + kAxpy + "```\nAfter:\n```cuda\n" + kAxpy + "```\n", "axpy");
  ASSERT_FALSE(code.ok());
  EXPECT_EQ(*code.fault, AnswerFault::several_candidates);
  EXPECT_EQ(answer_fault_name(*code.fault), "several_candidates");
  EXPECT_NE(code.reason.find("2 code blocks and 2 of them define the launcher axpy"),
            std::string::npos)
      << code.reason;
}

TEST(ExtractCode, NoBlockIsAFaultThatSaysSo) {
  for (const std::string answer : {"I cannot improve this kernel.", "```text\nhello\n```\n",
                                   "```cuda\n\n   \n```\n", "", "inline ```cuda x``` only"}) {
    const auto code = extract_code(answer, "axpy");
    ASSERT_FALSE(code.ok()) << answer;
    EXPECT_EQ(*code.fault, AnswerFault::no_code_block) << answer;
    EXPECT_NE(code.reason.find("no fenced code block"), std::string::npos);
  }
}

TEST(ExtractCode, AnUnterminatedFinalFenceIsTruncated) {
  const auto code = extract_code("Here it is:\n```cuda\n" + kAxpy.substr(0, 60), "axpy");
  ASSERT_FALSE(code.ok());
  EXPECT_EQ(*code.fault, AnswerFault::truncated);
  EXPECT_NE(code.reason.find("truncated"), std::string::npos);
  // A closing fence must be as long as the opening one.
  const auto short_close = extract_code("````cuda\n" + kAxpy + "```\n", "axpy");
  EXPECT_EQ(short_close.fault, AnswerFault::truncated);
}

TEST(ExtractCode, AnOversizedAnswerIsRefusedUnread) {
  const auto code = extract_code(std::string(kMaxAnswerBytes + 1, 'x'), "axpy");
  ASSERT_FALSE(code.ok());
  EXPECT_EQ(*code.fault, AnswerFault::too_large);
}

TEST(ExtractCode, ARealExampleKernelRoundTrips) {
  const auto source = testing::read_text(testing::examples_dir() / "kernels/matmul_naive.cu");
  ASSERT_FALSE(source.empty());
  const auto code =
      extract_code("Tiled version:\n\n```cu\n" + source + "```\nDone.", "naive::matmul");
  ASSERT_TRUE(code.ok()) << code.reason;
  EXPECT_EQ(code.code, source);
}

}  // namespace
}  // namespace kblaster
