// `kblaster build` and `kblaster run` through the real binary and real nvcc.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "gpu/device_probe.h"
#include "result_schema.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using testing::run_kblaster;

std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of('\n');
  if (end == std::string::npos) return "";
  auto start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     end - (start == std::string::npos ? 0 : start + 1) + 1);
}

// One test, so the example kernels are compiled once: the run builds all of
// them, and a second build finds every one in the cache. The run's --json is its
// result value, and --report renders it.
TEST(RunCli, BuildsEveryExampleKernelThenRebuildsNothing) {
  testing::TempDir cache, report;
  auto run = run_kblaster({"run", "examples/kernels", "--cache-dir", cache.path().string(),
                           "--json", "--report", report.path().string()});
  EXPECT_THAT(run.err, HasSubstr("config: 10 kernel(s) from 2 spec file(s)"));
  EXPECT_THAT(run.err, HasSubstr("[10/10] reduce_sum"));
  // axpy_small is axpy's launcher built the same way at other sizes: the same object, so a
  // cache hit; softmax_slow shares softmax's reference (issue 22, point 7).
  EXPECT_THAT(run.err, HasSubstr("build: 9 compiled, 1 from cache, 0 failed"));
  EXPECT_THAT(run.err, HasSubstr("[2/10] axpy_small      cache hit"));
  EXPECT_THAT(run.err, ::testing::ContainsRegex("\\[1/10\\] axpy .*; reference built in "));
  EXPECT_THAT(run.err, ::testing::ContainsRegex("\\[4/10\\] softmax_slow .*; reference cache hit"));
  const auto value = nlohmann::json::parse(run.out);
  testing::TempDir schema_dir;
  EXPECT_TRUE(testing::is_valid_result(value, "run", schema_dir));
  EXPECT_EQ(value["builds"]["cache"]["compiled"], 9);
  EXPECT_EQ(value["kernels"].size(), 10u);
  EXPECT_TRUE(std::filesystem::exists(report.path() / "report.md"));
  if (!CudaDriverProbe().probe().present) {
    EXPECT_EQ(run.exit_code, 3) << run.err;
    EXPECT_THAT(
        last_line(run.err),
        ::testing::StartsWith("verification and measurement skipped: no CUDA device present ("));
    EXPECT_THAT(value["skipped"].get<std::string>(), HasSubstr("no CUDA device present ("));
    for (const auto& k : value["kernels"]) EXPECT_EQ(k["verification"]["status"], "skipped");
  }

  auto again =
      run_kblaster({"build", "--json", "examples/kernels", "--cache-dir", cache.path().string()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const auto result = nlohmann::json::parse(again.out);
  testing::TempDir dir;
  EXPECT_TRUE(testing::is_valid_result(result, "build", dir));
  EXPECT_THAT(result["provenance"]["nvcc_version"].get<std::string>(), HasSubstr("release"));
  const auto& j = result["builds"];
  EXPECT_EQ(j["cache"]["hits"], 10);
  EXPECT_EQ(j["cache"]["compiled"], 0);
  for (const auto& k : j["kernels"]) {
    EXPECT_EQ(k["outcome"], "cache_hit") << k["name"];
    EXPECT_TRUE(std::filesystem::exists(k["object"].get<std::string>())) << k["name"];
  }
}

// Issue 22, point 1: a kernel file holding its own CPU reference, used unmodified. With
// reference_on = "cpu" nvcc builds it as host code and plan says where it runs; without, the
// config is refused rather than the function handed device pointers.
TEST(RunCli, ACpuReferenceInsideTheKernelsOwnCuFileBuildsAsHostCode) {
  testing::TempDir repo, cache;
  repo.write("k/scale.cu",
             "__global__ void scale_kernel(float* o, const float* i, int n) {\n"
             "  int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  if (k < n) o[k] = 2.0f * i[k];\n}\n"
             "void scale(float* o, const float* i, int n) {\n"
             "  scale_kernel<<<(n + 255) / 256, 256>>>(o, i, n);\n}\n"
             "void scale_cpu(float* o, const float* i, int n) {\n"
             "  for (int k = 0; k < n; ++k) o[k] = 2.0f * i[k];\n}\n");
  const std::string spec =
      "[project]\narch = \"sm_90\"\n\n[[kernel]]\nname = \"scale\"\nsource = \"k/scale.cu\"\n"
      "launcher = \"scale\"\nreference = \"k/scale.cu:scale_cpu\"\n"
      "args = [\n  { name = \"o\", type = \"f32\", shape = \"n\", role = \"out\" },\n"
      "  { name = \"i\", type = \"f32\", shape = \"n\" },\n  { name = \"n\", type = \"i32\" },\n]\n"
      "sizes = [ { n = 1024 } ]\n";
  repo.write("kblaster.toml", spec);
  auto refused = run_kblaster({"plan", repo.path().string()});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("`k/scale.cu:scale_cpu` launches no kernel"));

  repo.write("kblaster.toml", spec + "reference_on = \"cpu\"\n");
  auto plan = run_kblaster({"plan", repo.path().string()});
  EXPECT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_THAT(plan.out, HasSubstr("reference  cpu k/scale.cu:scale_cpu"));
  auto build =
      run_kblaster({"build", repo.path().string(), "--json", "--cache-dir", cache.path().string()});
  EXPECT_EQ(build.exit_code, 0) << build.err;
  const auto j = nlohmann::json::parse(build.out);
  EXPECT_EQ(j["builds"]["kernels"][0]["reference"]["outcome"], "built") << build.out;

  // A reference that cannot be called as the spec says is named a reference, and the summary
  // says the kernel itself built.
  repo.write("k/scale.cu", testing::read_text(repo.path() / "k/scale.cu") +
                               "void scale_cpu2(double* o, int n) { o[0] = n; }\n");
  std::string wrong = spec + "reference_on = \"cpu\"\n";
  wrong.replace(wrong.find("k/scale.cu:scale_cpu"), 20, "k/scale.cu:scale_cpu2");
  repo.write("kblaster.toml", wrong);
  auto mismatch =
      run_kblaster({"build", repo.path().string(), "--cache-dir", cache.path().string()});
  EXPECT_EQ(mismatch.exit_code, 1) << mismatch.err;
  EXPECT_THAT(mismatch.err, HasSubstr("reference launcher_mismatch: reference 'scale_cpu2' "
                                      "cannot be called as scale_cpu2("));
  EXPECT_THAT(mismatch.err, HasSubstr("0 from cache, 1 failed (1 of them built, but not its "
                                      "reference)"));
}

// Issue 22, point 2: the repository's own file holds a bf16 kernel and its float CPU reference
// (tests/fixtures/bf16_float_reference). `reference_type` declares how the reference takes each
// buffer, so the original file is used as it is, with no wrapper: the reference's shim declares
// and calls it with floats.
TEST(RunCli, ABf16KernelWithAFloatCpuReferenceInItsOwnFileBuildsWithoutAWrapper) {
  testing::TempDir repo, cache;
  const auto fixture = testing::source_dir() / "tests/fixtures/bf16_float_reference";
  repo.write("k/gelu.cu", testing::read_text(fixture / "k/gelu.cu"));
  const std::string converted = testing::read_text(fixture / "kblaster.toml");
  repo.write("kblaster.toml", converted);
  auto plan = run_kblaster({"plan", "--json", repo.path().string()});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_EQ(nlohmann::json::parse(plan.out)["kernels"][0]["args"][0]["reference_type"], "f32");
  auto text = run_kblaster({"plan", repo.path().string()});
  EXPECT_THAT(text.out, HasSubstr("out:bf16[n] out (reference: f32)"));
  auto build =
      run_kblaster({"build", repo.path().string(), "--json", "--cache-dir", cache.path().string()});
  ASSERT_EQ(build.exit_code, 0) << build.err;
  EXPECT_EQ(nlohmann::json::parse(build.out)["builds"]["kernels"][0]["reference"]["outcome"],
            "built")
      << build.out;

  // Without it the reference is called with bf16 pointers, which it does not take.
  std::string plain = converted;
  const std::string field = ", reference_type = \"f32\"";
  for (std::size_t at; (at = plain.find(field)) != std::string::npos;)
    plain.erase(at, field.size());
  repo.write("kblaster.toml", plain);
  auto mismatch =
      run_kblaster({"build", repo.path().string(), "--cache-dir", cache.path().string()});
  EXPECT_EQ(mismatch.exit_code, 1) << mismatch.err;
  EXPECT_THAT(mismatch.err, HasSubstr("reference launcher_mismatch"));
}

// Issue 22, point 6: inputs with a structure of their own come from a function in the kernel's
// file (tests/fixtures/generated_inputs). Its entry is built with the reference, with real nvcc;
// a generator without a CPU reference to hold it is a config error naming the field.
TEST(RunCli, AnInputGeneratorInTheReferencesFileIsBuiltWithIt) {
  testing::TempDir cache;
  const auto fixture = testing::source_dir() / "tests/fixtures/generated_inputs";
  auto plan = run_kblaster({"plan", fixture.string()});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_THAT(plan.out, HasSubstr("generator(softmax_inputs)"));
  auto build =
      run_kblaster({"build", fixture.string(), "--json", "--cache-dir", cache.path().string()});
  ASSERT_EQ(build.exit_code, 0) << build.err;
  EXPECT_EQ(nlohmann::json::parse(build.out)["builds"]["kernels"][0]["reference"]["outcome"],
            "built");

  testing::TempDir repo;
  repo.write("k/softmax.cu", testing::read_text(fixture / "k/softmax.cu"));
  std::string toml = testing::read_text(fixture / "kblaster.toml");
  toml.replace(toml.find("reference_on = \"cpu\""), 20, "reference_on = \"gpu\"");
  toml.replace(toml.find("softmax_forward_cpu"), 19, "softmax_forward");
  repo.write("kblaster.toml", toml);
  auto refused = run_kblaster({"plan", repo.path().string()});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("field `init`: `generator(softmax_inputs)` names a function "
                                     "in the reference's file, which needs a CPU reference"));
}

// A PyTorch reference is not compiled: its module is staged in the cache under the hash of its
// bytes, so an edited module is a new reference object (and the harness's memo a new key).
TEST(RunCli, APyTorchModuleReferenceIsStagedByItsContent) {
  testing::TempDir cache, repo;
  const auto fixture = testing::source_dir() / "tests/fixtures/torch_reference";
  for (const char* f : {"kblaster.toml", "kernels.cu", "ref.py", "affine.py"})
    repo.write(f, testing::read_text(fixture / f));
  auto build = [&] {
    return run_kblaster({"build", repo.path().string(), "--kernel", "scale_add", "--json",
                         "--cache-dir", cache.path().string()});
  };
  auto first = build();
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_THAT(first.err, HasSubstr("reference PyTorch module ref.py:ScaleAdd (run by the "
                                   "harness's Python worker)"));
  const auto ref = nlohmann::json::parse(first.out)["builds"]["kernels"][0]["reference"];
  EXPECT_EQ(ref["outcome"], "built");
  const std::filesystem::path staged = ref["object"].get<std::string>();
  EXPECT_EQ(staged.extension(), ".py");
  EXPECT_EQ(testing::read_text(staged), testing::read_text(fixture / "ref.py"));
  EXPECT_EQ(nlohmann::json::parse(build().out)["builds"]["kernels"][0]["reference"]["object"],
            staged.string())
      << "the same module: the same object";

  repo.write("ref.py", testing::read_text(fixture / "ref.py") + "# edited\n");
  const auto edited = nlohmann::json::parse(build().out)["builds"]["kernels"][0]["reference"];
  EXPECT_EQ(edited["outcome"], "built");
  EXPECT_NE(edited["object"], staged.string());
}

TEST(RunCli, GpuCommandsWithoutADeviceExitThreeAndSayWhy) {
  const DeviceInfo device = CudaDriverProbe().probe();
  if (device.present) GTEST_SKIP() << "a CUDA device is present: " << device.name;
  for (const char* command : {"verify", "bench"}) {
    auto r = run_kblaster({command, "examples/kernels"});
    EXPECT_EQ(r.exit_code, 3) << command;
    EXPECT_THAT(r.err, HasSubstr("no CUDA device present (")) << command;
  }
}

// `bench --baseline` takes only torch; any other is a usage error before anything is built.
TEST(RunCli, ABaselineOtherThanTorchIsAUsageError) {
  auto r = run_kblaster({"bench", "examples/kernels", "--baseline", "tensorflow"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--baseline"));
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("building")));
}

// A mistyped --arch fails at parse time, naming the flag, on every command
// that builds, instead of as one nvcc failure per kernel (exit 1).
TEST(RunCli, AnArchThatIsNoArchitectureIsAUsageError) {
  for (const char* command : {"build", "optimize", "check"}) {
    auto r = run_kblaster({command, "examples/kernels", "--arch", "hopper"});
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("--arch")) << command;
    EXPECT_THAT(r.err, HasSubstr("`hopper` is not a GPU architecture")) << command;
  }
  for (const char* arch : {"sm_90a", "sm_100f"}) {  // arch- and family-specific targets
    auto good = run_kblaster({"build", "examples/kernels", "--arch", arch, "--kernel", "axpy"});
    EXPECT_EQ(good.exit_code, 0) << arch << ": " << good.err;
  }
}

// compare picks its kernels with --a and --b, so a name that is no kernel is
// reported against that flag, before any GPU is looked for.
TEST(RunCli, CompareNamesTheFlagOfAKernelThatIsNone) {
  auto a = run_kblaster({"compare", "examples/kernels", "--a", "softmx", "--b", "softmax"});
  EXPECT_EQ(a.exit_code, 2) << a.err;
  EXPECT_THAT(a.err, HasSubstr("--a softmx: no such kernel; did you mean `softmax`?"));
  auto b = run_kblaster({"compare", "examples/kernels", "--a", "softmax", "--b", "nope"});
  EXPECT_EQ(b.exit_code, 2) << b.err;
  EXPECT_THAT(b.err, HasSubstr("--b nope: no such kernel"));
}

TEST(RunCli, BrokenKernelsGetNamedReasonsAndExitOne) {
  testing::TempDir repo;
  repo.write("ok.cu",
             "__global__ void k(float* o) { o[0] = 1; }\nvoid ok(float* o) { k<<<1, 1>>>(o); }\n");
  repo.write("broken.cu",
             "__global__ void k(float* o) {\n  o[0] = undefined_thing;\n}\nvoid broken(float* o) { "
             "k<<<1, 1>>>(o); }\n");
  repo.write("kblaster.toml", R"TOML(
[[kernel]]
name = "ok"
source = "ok.cu"
launcher = "ok"
args = [ { name = "o", type = "f32", shape = "1", role = "out" } ]

[[kernel]]
name = "broken"
source = "broken.cu"
launcher = "broken"
args = [ { name = "o", type = "f32", shape = "1", role = "out" } ]

[[kernel]]
name = "mismatch"
source = "ok.cu"
launcher = "ok"
args = [ { name = "o", type = "f32", shape = "1", role = "out" }, { name = "n", type = "i32", value = 3 } ]

[[kernel]]
name = "bad_reference"
source = "ok.cu"
launcher = "ok"
reference = "ref.cpp:wrong_name"
args = [ { name = "o", type = "f32", shape = "1", role = "out" } ]
)TOML");
  repo.write("ref.cpp", "void right_name(float* o) { o[0] = 1; }\n");
  testing::TempDir cache;
  auto r =
      run_kblaster({"build", "--json", repo.path().string(), "--cache-dir", cache.path().string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto result = nlohmann::json::parse(r.out);
  EXPECT_EQ(result["kind"], "build");
  const auto& j = result["builds"];
  ASSERT_EQ(j["kernels"].size(), 4u);
  EXPECT_EQ(j["kernels"][0]["outcome"], "built");
  const auto& broken = j["kernels"][1];
  EXPECT_EQ(broken["outcome"], "compile_error");
  ASSERT_FALSE(broken["diagnostics"].empty());
  EXPECT_EQ(broken["diagnostics"][0]["file"], "broken.cu");
  EXPECT_EQ(broken["diagnostics"][0]["line"], 2);
  EXPECT_THAT(broken["diagnostics"][0]["message"].get<std::string>(), HasSubstr("undefined_thing"));
  EXPECT_EQ(j["kernels"][2]["outcome"], "launcher_mismatch");
  EXPECT_THAT(r.err, HasSubstr("[2/4] broken          compile_error: "));
  EXPECT_THAT(r.err, HasSubstr("[1/4] ok              built in "));
  EXPECT_THAT(r.err, HasSubstr("; reference: the base revision, which `kblaster check` builds"));
  // A reference is built without a GPU too, so a broken one is caught here, not on the runner.
  const auto& bad_reference = j["kernels"][3];
  EXPECT_EQ(bad_reference["outcome"], "cache_hit") << "kernel ok's object: the same launcher";
  ASSERT_TRUE(bad_reference["reference"].is_object()) << bad_reference.dump();
  EXPECT_NE(bad_reference["reference"]["outcome"], "built");
  EXPECT_THAT(r.err, HasSubstr("[4/4] bad_reference"));
  EXPECT_THAT(r.err, HasSubstr("wrong_name"));
  EXPECT_THAT(r.err, HasSubstr("build: 1 compiled, 0 from cache, 3 failed (1 of them built, but "
                               "not its reference)"));
}

}  // namespace
}  // namespace kblaster
