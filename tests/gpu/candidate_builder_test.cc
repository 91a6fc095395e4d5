#include "gpu/candidate_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "gpu/elf_object.h"
#include "real_nvcc.h"
#include "test_paths.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr const char* kScaleSource = R"(#include <cuda_runtime.h>
#include "common.h"
#ifndef BLOCK
#error BLOCK must be set
#endif
static_assert(BLOCK == 128, "the first tunable value is the default");
__global__ void scale_kernel(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = SCALE * in[i];
}
void scale(float* out, const float* in, int n) {
  scale_kernel<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(out, in, n);
}
)";

ArgSpec arg(const std::string& name, DType type, ArgRole role, bool is_buffer) {
  ArgSpec a;
  a.name = name;
  a.type = type;
  a.role = role;
  if (is_buffer) a.shape = ShapeExpr::parse("n").value();
  return a;
}

KernelSpec scale_spec() {
  KernelSpec spec;
  spec.name = "scale";
  spec.source = "kernels/scale.cu";
  spec.launcher = "scale";
  spec.args = {arg("out", DType::f32, ArgRole::out, true), arg("in", DType::f32, ArgRole::in, true),
               arg("n", DType::i32, ArgRole::in, false)};
  spec.tunables = {{"BLOCK", {"128", "256"}}};
  spec.include_dirs = {"include"};
  spec.nvcc_flags = {"-O3"};
  return spec;
}

// A repository with the scale kernel, a cache and a work directory.
struct Workspace {
  testing::TempDir dir;
  fs::path repo = dir.path() / "repo";
  CompileCache cache{dir.path() / "cache"};
  Workspace() {
    dir.write("repo/kernels/scale.cu", kScaleSource);
    dir.write("repo/include/common.h", "#pragma once\n#define SCALE 2.0f\n");
  }
  BuildRequest request() const { return {repo, "sm_90", {}, {}, {}}; }
};

// What FakeCompiler leaves at the job's output while exiting 0.
enum class FakeOutput {
  sound,     // a host-compiled shared object exporting both entry points
  nothing,   // no file at all
  empty,     // a zero-byte file
  random,    // bytes that are no ELF object
  no_entry,  // a shared object exporting neither entry point
};

// Records each job; "compiles" by leaving `output` at the job's output path.
class FakeCompiler final : public Compiler {
 public:
  Result<CompileOutput> compile(const CompileJob& job) override {
    jobs.push_back(job);
    if (fail_to_run) return Error::environment("nvcc not found");
    std::ifstream shim(job.source);
    shim_texts.push_back(std::string(std::istreambuf_iterator<char>(shim), {}));
    std::string bytes;
    switch (output) {
      case FakeOutput::sound:
        bytes = testing::read_text(KBLASTER_TEST_ENTRY_OBJECT);
        break;
      case FakeOutput::nothing:
        return CompileOutput{0, "", 0.5};
      case FakeOutput::empty:
        break;
      case FakeOutput::random:
        for (int i = 0; i < 4096; ++i) bytes.push_back(static_cast<char>(i * 7919 % 251));
        break;
      case FakeOutput::no_entry:
        bytes = testing::read_text(KBLASTER_TEST_NO_ENTRY_OBJECT);
        break;
    }
    std::ofstream(job.output, std::ios::binary) << bytes;
    return CompileOutput{0, "", 0.5};
  }
  const std::string& version() const override { return version_; }

  std::vector<CompileJob> jobs;
  std::vector<std::string> shim_texts;
  bool fail_to_run = false;
  FakeOutput output = FakeOutput::sound;

 private:
  std::string version_ = "fake 1.0";
};

TEST(CandidateBuilder, OutcomeNamesAreStable) {
  EXPECT_STREQ(build_outcome_name(BuildOutcome::built), "built");
  EXPECT_STREQ(build_outcome_name(BuildOutcome::cache_hit), "cache_hit");
  EXPECT_STREQ(build_outcome_name(BuildOutcome::compile_error), "compile_error");
  EXPECT_STREQ(build_outcome_name(BuildOutcome::launcher_mismatch), "launcher_mismatch");
  EXPECT_STREQ(build_outcome_name(BuildOutcome::source_missing), "source_missing");
  EXPECT_STREQ(build_outcome_name(BuildOutcome::entry_missing), "entry_missing");
}

// A compiler that exits 0 without leaving a shared object is the machine's problem
// (exit 3), and nothing it left enters the cache, so no later build loads it.
TEST(CandidateBuilder, ACompilerThatExitsZeroWithoutAnObjectIsAnEnvironmentError) {
  for (const auto& [output, says] : std::vector<std::pair<FakeOutput, std::string>>{
           {FakeOutput::nothing, "exited 0 but wrote no object at "},
           {FakeOutput::empty, "which is not a shared object for this machine (the file is empty)"},
           {FakeOutput::random,
            "which is not a shared object for this machine (it does not "
            "start with the ELF magic bytes)"}}) {
    Workspace ws;
    FakeCompiler compiler;
    compiler.output = output;
    CandidateBuilder builder(compiler, ws.cache, ws.dir.path() / "work");
    auto r = builder.build(scale_spec(), ws.request());
    ASSERT_FALSE(r.ok()) << says;
    EXPECT_EQ(r.error().kind, ErrorKind::environment);
    EXPECT_THAT(r.error().message, StartsWith("the compiler (nvcc fake 1.0) exited 0 but wrote "));
    EXPECT_THAT(r.error().message, HasSubstr(says));
    EXPECT_THAT(r.error().message, HasSubstr("check the CUDA installation"));
    EXPECT_FALSE(fs::exists(ws.cache.dir() / "objects")) << "nothing was stored";
    EXPECT_FALSE(fs::exists(compiler.jobs.at(0).output)) << "the bad output is removed";
  }
}

// A sound object without the shim's entry point is this kernel's failure, not the machine's.
TEST(CandidateBuilder, AnObjectWithoutTheEntryPointIsAnOutcomeAndNotCached) {
  Workspace ws;
  FakeCompiler compiler;
  compiler.output = FakeOutput::no_entry;
  CandidateBuilder builder(compiler, ws.cache, ws.dir.path() / "work");
  auto r = builder.build(scale_spec(), ws.request());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outcome, BuildOutcome::entry_missing);
  EXPECT_FALSE(r->ok());
  EXPECT_THAT(r->summary, HasSubstr("does not export `kblaster_entry`"));
  EXPECT_TRUE(r->object.empty());
  EXPECT_EQ(ws.cache.lookup(r->cache_key, "kblaster_entry").status, CacheStatus::miss);
}

// A CPU reference's object is checked for kblaster_reference, a candidate's for kblaster_entry.
TEST(CandidateBuilder, EachShimKindIsCheckedForItsOwnEntryPoint) {
  Workspace ws;
  FakeCompiler compiler;
  CandidateBuilder builder(compiler, ws.cache, ws.dir.path() / "work");
  BuildRequest request = ws.request();
  request.shim = ShimKind::cpu_reference;
  auto built = builder.build(scale_spec(), request);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_EQ(built->outcome, BuildOutcome::built);
  EXPECT_EQ(ws.cache.lookup(built->cache_key, "kblaster_reference").status, CacheStatus::hit);
}

// An object damaged in the cache is removed and built again, and the result says so.
TEST(CandidateBuilder, ADamagedCachedObjectIsRebuiltAndTheResultSaysSo) {
  Workspace ws;
  FakeCompiler compiler;
  CandidateBuilder builder(compiler, ws.cache, ws.dir.path() / "work");
  auto first = builder.build(scale_spec(), ws.request());
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_EQ(first->outcome, BuildOutcome::built);
  EXPECT_EQ(first->cache_repair, "");
  std::ofstream(first->object, std::ios::trunc) << "garbage";
  auto again = builder.build(scale_spec(), ws.request());
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->outcome, BuildOutcome::built);
  EXPECT_EQ(compiler.jobs.size(), 2u);
  EXPECT_THAT(again->cache_repair, StartsWith("the cached object " + first->object.string() +
                                              " was damaged (it does not start with the ELF"));
  EXPECT_TRUE(check_shared_object(again->object, "kblaster_entry").ok());
  auto hit = builder.build(scale_spec(), ws.request());
  ASSERT_TRUE(hit.ok()) << hit.error().message;
  EXPECT_EQ(hit->outcome, BuildOutcome::cache_hit);
  EXPECT_EQ(hit->cache_repair, "");
}

TEST(CandidateBuilder, PassesTunableDefaultsRequestedMacrosAndFlags) {
  Workspace ws;
  FakeCompiler compiler;
  CandidateBuilder builder(compiler, ws.cache, ws.dir.path() / "work");
  auto first = builder.build(scale_spec(), ws.request());
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->outcome, BuildOutcome::built);
  BuildRequest request = ws.request();
  request.macros = {{"BLOCK", "256"}, {"EXTRA", "1"}};
  request.extra_flags = {"-G"};
  auto second = builder.build(scale_spec(), request);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_NE(second->cache_key, first->cache_key);

  ASSERT_EQ(compiler.jobs.size(), 2u);
  EXPECT_THAT(compiler.jobs[0].defines, ElementsAre("BLOCK=128"));
  EXPECT_THAT(compiler.jobs[1].defines, ElementsAre("BLOCK=256", "EXTRA=1"));
  EXPECT_THAT(compiler.jobs[1].flags, ElementsAre("-O3", "-G"));
  EXPECT_THAT(compiler.jobs[1].include_dirs, ElementsAre(ws.repo / "include"));
  EXPECT_EQ(compiler.jobs[1].arch, "sm_90");
  EXPECT_THAT(compiler.shim_texts[0],
              HasSubstr("#include \"" + (ws.repo / "kernels/scale.cu").string() + "\""));
}

// A source form's tunable is built as a repository builds it: with no -D, so the
// source's own #define decides; and that is another build, with its own cache key.
TEST(CandidateBuilder, ASourceDefaultPassesNoDefineForItsTunable) {
  Workspace ws;
  FakeCompiler compiler;
  CandidateBuilder builder(compiler, ws.cache, ws.dir.path() / "work");
  auto first = builder.build(scale_spec(), ws.request());
  ASSERT_TRUE(first.ok()) << first.error().message;
  BuildRequest request = ws.request();
  request.source_defaults = {"BLOCK"};
  auto second = builder.build(scale_spec(), request);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_NE(second->cache_key, first->cache_key);
  ASSERT_EQ(compiler.jobs.size(), 2u);
  EXPECT_THAT(compiler.jobs[0].defines, ElementsAre("BLOCK=128"));
  EXPECT_THAT(compiler.jobs[1].defines, ::testing::IsEmpty());
}

TEST(CandidateBuilder, MissingSourceAndUnrunnableCompiler) {
  Workspace ws;
  FakeCompiler compiler;
  CandidateBuilder builder(compiler, ws.cache, ws.dir.path() / "work");
  KernelSpec spec = scale_spec();
  spec.source = "kernels/gone.cu";
  auto missing = builder.build(spec, ws.request());
  ASSERT_TRUE(missing.ok()) << missing.error().message;
  EXPECT_EQ(missing->outcome, BuildOutcome::source_missing);
  EXPECT_THAT(missing->summary, HasSubstr("kernels/gone.cu"));
  EXPECT_TRUE(compiler.jobs.empty());

  compiler.fail_to_run = true;
  auto error = builder.build(scale_spec(), ws.request());
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.error().kind, ErrorKind::environment);
}

TEST(CandidateBuilder, BuildsThenHitsTheCacheThenMissesWhenAHeaderChanges) {
  KB_REQUIRE_NVCC(nvcc);
  Workspace ws;
  CandidateBuilder builder(*nvcc, ws.cache, ws.dir.path() / "work");
  auto built = builder.build(scale_spec(), ws.request());
  ASSERT_TRUE(built.ok()) << built.error().message;
  ASSERT_EQ(built->outcome, BuildOutcome::built) << built->log;
  EXPECT_EQ(built->object, ws.cache.object_path(built->cache_key));
  EXPECT_GT(built->seconds, 0.0);
  testing::LoadedObject object(built->object);
  ASSERT_TRUE(object.loaded()) << dlerror();
  EXPECT_EQ(object.signature(), "scale(float* out, const float* in, int32_t n)");

  auto again = builder.build(scale_spec(), ws.request());
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->outcome, BuildOutcome::cache_hit);
  EXPECT_EQ(again->cache_key, built->cache_key);
  EXPECT_EQ(again->object, built->object);
  EXPECT_EQ(again->seconds, 0.0);

  ws.dir.write("repo/include/common.h", "#pragma once\n#define SCALE 3.0f\n");
  auto rebuilt = builder.build(scale_spec(), ws.request());
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.error().message;
  EXPECT_EQ(rebuilt->outcome, BuildOutcome::built) << rebuilt->log;
  EXPECT_NE(rebuilt->cache_key, built->cache_key);
}

TEST(CandidateBuilder, CompileErrorPointsAtTheUsersFileAndLine) {
  KB_REQUIRE_NVCC(nvcc);
  Workspace ws;
  ws.dir.write("repo/kernels/scale.cu",
               std::string(kScaleSource) + "void broken() { undefined_thing(); }\n");
  CandidateBuilder builder(*nvcc, ws.cache, ws.dir.path() / "work");
  auto r = builder.build(scale_spec(), ws.request());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outcome, BuildOutcome::compile_error) << r->log;
  ASSERT_FALSE(r->diagnostics.empty()) << r->log;
  const Diagnostic& first = r->diagnostics.front();
  EXPECT_EQ(first.file, "kernels/scale.cu");
  EXPECT_EQ(first.line, 14);
  EXPECT_EQ(first.column, 17);
  EXPECT_EQ(first.severity, Diagnostic::Severity::error);
  EXPECT_THAT(first.message, HasSubstr("undefined_thing"));
  EXPECT_THAT(r->summary, StartsWith("compile error: kernels/scale.cu:14:17: error:"));
  EXPECT_TRUE(r->object.empty());
  EXPECT_EQ(ws.cache.lookup(r->cache_key, "kblaster_entry").status, CacheStatus::miss);
}

TEST(CandidateBuilder, WrongArgumentCountIsALauncherMismatch) {
  KB_REQUIRE_NVCC(nvcc);
  Workspace ws;
  CandidateBuilder builder(*nvcc, ws.cache, ws.dir.path() / "work");
  KernelSpec spec = scale_spec();
  spec.args.pop_back();  // the launcher takes three, the spec declares two
  auto r = builder.build(spec, ws.request());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outcome, BuildOutcome::launcher_mismatch) << r->log;
  EXPECT_THAT(r->summary, HasSubstr("launcher 'scale'"));
  EXPECT_THAT(r->summary, HasSubstr("scale(float* out, const float* in)"));
  EXPECT_THAT(r->summary, HasSubstr("too few arguments"));
  ASSERT_FALSE(r->diagnostics.empty());
  EXPECT_TRUE(fs::exists(r->diagnostics.front().file)) << "the shim is kept for inspection";
}

}  // namespace
}  // namespace kblaster
