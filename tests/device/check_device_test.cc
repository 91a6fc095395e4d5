// `kblaster check` on a real GPU, on a git repository built with libgit2 from
// examples/kernels: base, and three branches of one commit each off it. Issue 4's
// acceptance runs: a strided (uncoalesced) axpy is SLOWER, a comment-only edit
// is SAME, and a leaky relu is a functional regression. Labelled `gpu`; skips,
// saying why, without a CUDA device. With KBLASTER_DEVICE_LOG_DIR set, each
// check's table, log and JSON are written there (bench/run_on_device.sh sets it).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "git/repo_builder.h"
#include "on_device.h"
#include "test_paths.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;
using testing::run_kblaster;

using testing::read_text;

// `text` with `from` replaced by `to`; fails the test if `from` is absent.
std::string edited(const std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "the example no longer contains: " << from;
  if (at == std::string::npos) return text;
  return std::string(text).replace(at, from.size(), to);
}

class CheckOnDevice : public testing::OnDevice {
 protected:
  void SetUp() override {
    OnDevice::SetUp();
    if (IsSkipped()) return;
    const fs::path examples = testing::examples_dir();
    for (const auto& e : fs::recursive_directory_iterator(examples)) {
      const fs::path rel = fs::relative(e.path(), examples);
      if (!e.is_regular_file() || *rel.begin() == ".kblaster") continue;
      git.write(rel.generic_string(), read_text(e.path()));
    }
    base = git.commit("base: examples/kernels");
  }

  // A branch off base with one commit that replaces `from` by `to` in `file`.
  std::string head_with(const std::string& branch, const std::string& file, const std::string& from,
                        const std::string& to) {
    git.branch(branch, base);
    git.write(file, edited(read_text(testing::examples_dir() / file), from, to));
    return git.commit(branch);
  }

  // Runs `kblaster check` base..head; returns the verdict of each kernel by name.
  std::map<std::string, nlohmann::json> check(const std::string& head, int expected_exit) {
    auto r =
        run_kblaster({"check", repo.path().string(), "--base", base, "--head", head, "--json"});
    keep(std::string("check_") + ::testing::UnitTest::GetInstance()->current_test_info()->name(),
         r);
    EXPECT_EQ(r.exit_code, expected_exit) << r.err;
    last_err = r.err;
    const auto report = nlohmann::json::parse(r.out);  // kept alive: the loop reads into it
    std::map<std::string, nlohmann::json> rows;
    for (const auto& k : report["kernels"]) rows[k["kernel"]] = k;
    return rows;
  }

  // A branch off base with one commit that adds kernel `name`: its own source
  // `kernels/<name>.cu`, axpy's with `from` replaced by `to`, checked against axpy's
  // CPU reference.
  std::string head_adding(const std::string& name, const std::string& from, const std::string& to) {
    git.branch(name, base);
    const std::string source = "kernels/" + name + ".cu";
    git.write(source, edited(read_text(testing::examples_dir() / "kernels/axpy.cu"), from, to));
    git.write("kblaster.toml",
              read_text(testing::examples_dir() / "kblaster.toml") + "\n[[kernel]]\nname = \"" +
                  name + "\"\nsource = \"" + source +
                  "\"\nlauncher = \"axpy\"\n"
                  "reference = \"kernels/ref/axpy_ref.cpp:axpy_ref\"\n"
                  "args = [\n"
                  "  { name = \"n\", type = \"i32\" },\n"
                  "  { name = \"a\", type = \"f32\", value = 2.0 },\n"
                  "  { name = \"x\", type = \"f32\", shape = \"n\", init = \"uniform(-1,1)\" },\n"
                  "  { name = \"y\", type = \"f32\", shape = \"n\", role = \"inout\", init = "
                  "\"normal\" },\n"
                  "]\n"
                  "sizes = [ { n = 1048576 }, { n = 1001 } ]\n");
    return git.commit(name);
  }

  testing::TempDir repo;
  testing::RepoBuilder git{repo.path()};
  std::string base;
  std::string last_err;  // the last check's progress output
};

TEST_F(CheckOnDevice, UncoalescedAccessIsSlower) {
  const std::string head = head_with(
      "uncoalesced", "kernels/axpy.cu",
      "  if (i < static_cast<unsigned>(n)) y[i] = a * x[i] + y[i];",
      "  if (i >= static_cast<unsigned>(n)) return;\n"
      "  // Elements 4099 apart (a prime): each still once, but no shared transactions.\n"
      "  const unsigned j = static_cast<unsigned>((4099ull * i) % static_cast<unsigned>(n));\n"
      "  y[j] = a * x[j] + y[j];");
  auto rows = check(head, 1);
  EXPECT_EQ(rows["axpy"]["verdict"], "SLOWER") << rows["axpy"].dump();
  EXPECT_TRUE(rows.count("axpy_small")) << "axpy_small shares axpy.cu and must be checked too";
}

TEST_F(CheckOnDevice, CommentOnlyEditIsSame) {
  const std::string head =
      head_with("comment_only", "kernels/softmax.cu", "#include \"kb_common.cuh\"",
                "// A comment, and nothing else.\n#include \"kb_common.cuh\"");
  auto rows = check(head, 0);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows["softmax"]["verdict"], "SAME") << rows["softmax"].dump();
}

TEST_F(CheckOnDevice, ChangedOutputIsAFunctionalRegression) {
  const std::string head = head_with("output_change", "kernels/relu_bench.cu",
                                     "fmaxf(inp[i], 0.0f)", "fmaxf(inp[i], 0.01f * inp[i])");
  auto rows = check(head, 1);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows["relu"]["verdict"], "REGRESSION") << rows["relu"].dump();
  EXPECT_NE(rows["relu"]["reason"].get<std::string>().find("wrong_result"), std::string::npos);
}

// A PR that breaks relu by 1 % and loosens relu's tolerance to 0.5 in the kblaster.toml it edits
// is still verified at base's tolerance: REGRESSION, with the loosening said beside it.
TEST_F(CheckOnDevice, AHeadThatLoosensItsToleranceIsVerifiedAtBases) {
  git.branch("loosened", base);
  git.write("kernels/relu_bench.cu",
            edited(read_text(testing::examples_dir() / "kernels/relu_bench.cu"),
                   "fmaxf(inp[i], 0.0f)", "1.01f * fmaxf(inp[i], 0.0f)"));
  git.write("kblaster.toml",
            edited(read_text(testing::examples_dir() / "kblaster.toml"),
                   "source = \"kernels/relu_bench.cu\"",
                   "source = \"kernels/relu_bench.cu\"\ntolerance = { rtol = 0.5, atol = 0.5 }"));
  auto rows = check(git.commit("loosened"), 1);
  EXPECT_EQ(rows["relu"]["verdict"], "REGRESSION") << rows["relu"].dump();
  EXPECT_THAT(rows["relu"]["reason"].get<std::string>(),
              ::testing::HasSubstr("head loosens its tolerance (rtol"));
  EXPECT_THAT(rows["relu"]["reason"].get<std::string>(), ::testing::HasSubstr("base's holds"));
}

// A kernel the PR adds, with a reference: verified on the GPU at every size, then
// NEW, not timed (there is no base to time against).
TEST_F(CheckOnDevice, ANewKernelWithAReferenceIsVerifiedThenNew) {
  const std::string head = head_adding("axpy_added", "y[i] = a * x[i] + y[i]", "y[i] += a * x[i]");
  auto rows = check(head, 0);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows["axpy_added"]["verdict"], "NEW") << rows["axpy_added"].dump();
  EXPECT_EQ(rows["axpy_added"]["reason"],
            "verified against its reference; no base to time against");
  EXPECT_TRUE(rows["axpy_added"]["timing"].is_null()) << "nothing to time a new kernel against";
}

// A kernel the PR adds that does not compute its reference's function: a
// functional regression, not NEW (ac7447c's fix).
TEST_F(CheckOnDevice, ANewKernelThatFailsItsReferenceIsARegression) {
  const std::string head =
      head_adding("axpy_wrong", "y[i] = a * x[i] + y[i]", "y[i] = a * x[i] + y[i] + 1.0f");
  auto rows = check(head, 1);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows["axpy_wrong"]["verdict"], "REGRESSION") << rows["axpy_wrong"].dump();
  EXPECT_NE(rows["axpy_wrong"]["reason"].get<std::string>().find("head fails its reference"),
            std::string::npos);
}

// A kernel with no reference is verified against base's output. Where base itself faults, at a
// size the PR adds along with its fix, that size is base's bug: it is left out, said, and head is
// verified at the others (a wrong result there would still be its REGRESSION). The PR's added
// size is left out of the timing, which goes on at the size both declare: a definition edit does
// not switch the regression check off.
TEST_F(CheckOnDevice, ASizeWhereBaseFaultsIsLeftOutOfTheVerification) {
  const std::string kernel = R"CU(#include <cuda_runtime.h>
__global__ void twice_kernel(int n, const float* x, float* y) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < static_cast<unsigned>(n)) y[i] = 2.0f * x[i];
  BUG
}
void twice(int n, const float* x, float* y) {
  twice_kernel<<<(n + 255) / 256, 256>>>(n, x, y);
}
)CU";
  const std::string spec = R"TOML(
[[kernel]]
name = "twice"
source = "kernels/twice.cu"
launcher = "twice"
args = [
  { name = "n", type = "i32" },
  { name = "x", type = "f32", shape = "n", init = "uniform(-1,1)" },
  { name = "y", type = "f32", shape = "n", role = "out" },
]
)TOML";
  const std::string config = read_text(testing::examples_dir() / "kblaster.toml");
  // Base: an odd n writes through a null pointer; only even sizes are declared.
  git.write(
      "kernels/twice.cu",
      edited(kernel, "BUG", "if (n % 2 && i == 0) *reinterpret_cast<volatile float*>(0) = 1.0f;"));
  git.write("kblaster.toml", config + spec + "sizes = [ { n = 65536 } ]\n");
  base = git.commit("twice, with a bug at odd sizes");
  git.branch("fix_twice", base);
  git.write("kernels/twice.cu", edited(kernel, "BUG", ""));
  git.write("kblaster.toml", config + spec + "sizes = [ { n = 65536 }, { n = 1001 } ]\n");
  const std::string head = git.commit("fix twice at odd sizes, and check one");
  auto rows = check(head, 0);
  ASSERT_TRUE(rows.count("twice")) << "the changed kernel is checked";
  EXPECT_THAT(rows["twice"]["verdict"].get<std::string>(),
              ::testing::AnyOf("SAME", "FASTER", "SLOWER", "AMBIGUOUS"))
      << "timed: " << rows["twice"].dump();
  EXPECT_TRUE(rows["twice"]["timing"].is_object()) << rows["twice"].dump();
  EXPECT_THAT(last_err, ::testing::HasSubstr("check: twice n=1001 left out of the timing: only "
                                             "head declares it"));
  EXPECT_THAT(last_err, ::testing::HasSubstr("check: timing twice base against head at n=65536"));
  EXPECT_THAT(last_err, ::testing::HasSubstr("check: twice n=1001 left out of the verification "
                                             "against base: base fails there: "));
  EXPECT_THAT(last_err, ::testing::HasSubstr("faulted"));
}

}  // namespace
}  // namespace kblaster
