// `kblaster check` on a real GPU, on a git repository built with libgit2 from
// examples/kernels: base, and three branches of one commit each off it. Issue 4's
// acceptance runs: a strided (uncoalesced) axpy is SLOWER, a comment-only edit
// is SAME, and a leaky relu is a functional regression. Labelled `gpu`; skips,
// saying why, without a CUDA device. With KBLASTER_DEVICE_LOG_DIR set, each
// check's table, log and JSON are written there (bench/run_on_device.sh sets it).
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
    const auto report = nlohmann::json::parse(r.out);  // kept alive: the loop reads into it
    std::map<std::string, nlohmann::json> rows;
    for (const auto& k : report["kernels"]) rows[k["kernel"]] = k;
    return rows;
  }

  testing::TempDir repo;
  testing::RepoBuilder git{repo.path()};
  std::string base;
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

}  // namespace
}  // namespace kblaster
