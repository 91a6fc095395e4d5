// Parses logs captured from real nvcc 13.0 runs (tests/gpu/fixtures/README.md).
#include "gpu/nvcc_diagnostics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using Severity = Diagnostic::Severity;

std::vector<Diagnostic> parse_fixture(const std::string& name) {
  std::ifstream in(testing::source_dir() / "tests/gpu/fixtures" / name);
  EXPECT_TRUE(in) << name;
  std::ostringstream text;
  text << in.rdbuf();
  return parse_diagnostics(text.str());
}

void expect_at(const Diagnostic& d, const std::string& file, int line, int column, Severity s) {
  EXPECT_EQ(d.file, file);
  EXPECT_EQ(d.line, line);
  EXPECT_EQ(d.column, column);
  EXPECT_EQ(d.severity, s) << d.str();
}

TEST(NvccDiagnostics, FrontEndErrorsTakeTheirColumnFromTheCaret) {
  auto d = parse_fixture("frontend_errors.log");
  ASSERT_EQ(d.size(), 2u);
  expect_at(d[0], "kernels/undefined.cu", 6, 21, Severity::error);
  EXPECT_EQ(d[0].message, "identifier \"foo\" is undefined");
  expect_at(d[1], "kernels/undefined.cu", 9, 54, Severity::error);
  EXPECT_EQ(d[1].message, "expected a \";\"");
  EXPECT_EQ(d[0].str(), "kernels/undefined.cu:6:21: error: identifier \"foo\" is undefined");
}

TEST(NvccDiagnostics, WarningsAndTemplateContextInAHeader) {
  auto d = parse_fixture("template_error.log");
  ASSERT_EQ(d.size(), 2u);
  expect_at(d[0], "kernels/warn_template.cu", 5, 7, Severity::warning);
  EXPECT_EQ(d[0].message, "variable \"unused\" was declared but never referenced");
  // The source line shows __device__ expanded; the column is the file's.
  expect_at(d[1], "include/bad_header.h", 3, 34, Severity::error);
  EXPECT_THAT(d[1].message, StartsWith("expression must have class type"));
  EXPECT_THAT(d[1].message, HasSubstr("; detected during instantiation of \"T twice(T) "
                                      "[with T=float]\" at line 7 of kernels/warn_template.cu"));
}

TEST(NvccDiagnostics, OverloadErrorsKeepArgumentTypesAndNotes) {
  auto d = parse_fixture("overload_error.log");
  ASSERT_EQ(d.size(), 3u);
  expect_at(d[0], "kernels/overload.cu", 4, 35, Severity::error);
  EXPECT_EQ(d[0].message,
            "no instance of overloaded function \"launch\" matches the argument "
            "list; argument types are: (int *, int)");
  expect_at(d[1], "kernels/overload.cu", 3, 6, Severity::note);
  expect_at(d[2], "kernels/overload.cu", 2, 6, Severity::note);
}

TEST(NvccDiagnostics, RepeatedWarningsAreReportedOnce) {
  auto only = parse_fixture("warning_only.log");
  ASSERT_EQ(only.size(), 1u);
  expect_at(only[0], "kernels/warn_only.cu", 2, 35, Severity::warning);

  auto host = parse_fixture("host_warnings.log");
  ASSERT_EQ(host.size(), 4u);
  EXPECT_THAT(host[0].message, HasSubstr("use of \"=\" where \"==\" may have been intended"));
  EXPECT_EQ(host[1].line, 3);
  EXPECT_EQ(host[2].line, 2);
  expect_at(host[3], "kernels/host_warn.cu", 2, 12, Severity::warning);  // gcc's own
  EXPECT_THAT(host[3].message, HasSubstr("[-Wunused-function]"));
}

TEST(NvccDiagnostics, PreprocessorErrorsUseGccFormat) {
  auto missing = parse_fixture("missing_include.log");
  ASSERT_EQ(missing.size(), 1u);
  expect_at(missing[0], "kernels/missing_include.cu", 2, 10, Severity::error);
  EXPECT_EQ(missing[0].message, "not_there.h: No such file or directory");

  auto pp = parse_fixture("preprocessor_error.log");
  ASSERT_EQ(pp.size(), 1u);
  expect_at(pp[0], "kernels/pp_error.cu", 3, 2, Severity::error);
  EXPECT_EQ(pp[0].message, "#error BLOCK must be defined");
}

TEST(NvccDiagnostics, PtxasErrorsWithAndWithoutALocation) {
  auto smem = parse_fixture("ptxas_error.log");
  ASSERT_EQ(smem.size(), 1u);
  expect_at(smem[0], "", 0, 0, Severity::error);
  EXPECT_THAT(smem[0].message, StartsWith("ptxas: Entry function '_Z3bigPf' uses too much shared"));

  auto syntax = parse_fixture("ptxas_syntax.log");
  ASSERT_EQ(syntax.size(), 3u);
  EXPECT_THAT(syntax[0].file, HasSubstr("badasm.ptx"));
  EXPECT_EQ(syntax[0].line, 29);
  EXPECT_EQ(syntax[0].message, "ptxas: Unknown modifier '.instruction'");
  EXPECT_EQ(syntax[2].message, "ptxas: Ptx assembly aborted due to errors");
}

TEST(NvccDiagnostics, LinkErrors) {
  auto nvlink = parse_fixture("nvlink_error.log");
  ASSERT_EQ(nvlink.size(), 1u);
  EXPECT_THAT(nvlink[0].message, StartsWith("nvlink: Undefined reference to '_Z6helperf'"));

  auto ld = parse_fixture("ld_undefined.log");
  ASSERT_EQ(ld.size(), 1u);
  expect_at(ld[0], "", 0, 0, Severity::error);
  EXPECT_EQ(ld[0].message,
            "ld: undefined reference to `prepare(float*)' (in function `launch(float*)')");
  EXPECT_EQ(ld[0].str(), "error: " + ld[0].message);
}

TEST(NvccDiagnostics, DriverErrorsAndCleanLogs) {
  auto fatal = parse_fixture("nvcc_fatal.log");
  ASSERT_EQ(fatal.size(), 1u);
  EXPECT_EQ(fatal[0].message, "nvcc: Unknown option '--bogus-flag'");
  EXPECT_TRUE(parse_diagnostics("").empty());
  EXPECT_TRUE(parse_diagnostics("ptxas info    : Used 10 registers\n").empty());
}

// A compile of hostile code can print lines of any length: the front end echoes an
// identifier of 2 MB in its message. The regex matcher this parser once used recursed
// per character and overflowed the stack on such a line.
TEST(NvccDiagnostics, ALineOfMegabytesIsParsedWithoutExhaustingTheStack) {
  const std::string name(2'000'000, 'a');
  const std::string log = "kernels/k.cu(3): error: identifier \"" + name + "\" is undefined\n" +
                          "kernels/k.cu:4:1: error: " + name + "\n" + std::string(2'000'000, '(') +
                          "\n" + "ld: " + name + ": in function " + name + ":\n";
  auto d = parse_diagnostics(log);
  ASSERT_EQ(d.size(), 2u);
  expect_at(d[0], "kernels/k.cu", 3, 0, Severity::error);
  EXPECT_EQ(d[0].message.size(), name.size() + 26);
  expect_at(d[1], "kernels/k.cu", 4, 1, Severity::error);
}

TEST(NvccDiagnostics, ALineNumberTooLongForAnIntIsNotADiagnostic) {
  EXPECT_TRUE(parse_diagnostics("k.cu(99999999999999999999): error: x\n").empty());
  EXPECT_TRUE(parse_diagnostics("k.cu:99999999999999999999: error: x\n").empty());
}

TEST(NvccDiagnostics, AFloodOfDiagnosticsKeepsTheFirstThousandAndCountsTheRest) {
  std::string log;
  for (int line = 1; line <= 5000; ++line)
    log += "kernels/k.cu:" + std::to_string(line) + ":1: warning: unused\n";
  auto d = parse_diagnostics(log);
  ASSERT_EQ(d.size(), kMaxDiagnostics + 1);
  EXPECT_EQ(d[kMaxDiagnostics - 1].line, static_cast<int>(kMaxDiagnostics));
  EXPECT_EQ(d.back().severity, Severity::note);
  EXPECT_EQ(d.back().message, "4000 more diagnostics not shown (kblaster keeps the first 1000)");
}

}  // namespace
}  // namespace kblaster
