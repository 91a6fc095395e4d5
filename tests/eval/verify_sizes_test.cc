// The one loop that verifies a candidate at every size, over a scripted harness.
#include "eval/verify_sizes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/config_loader.h"
#include "core/source_tree.h"
#include "eval/fake_harness_runner.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using testing::FakeHarnessRunner;
using testing::harness_verdict;

constexpr const char* kConfig = R"TOML([[kernel]]
name = "scale"
source = "k/scale.cu"
launcher = "scale"
reference = "k/scale_ref.cpp:scale_ref"
args = [
  { name = "out", type = "f32", shape = "N", role = "out" },
  { name = "N", type = "i32" },
]
sizes = [ { N = 1024 }, { N = 77 }, { N = 1 } ]
)TOML";

class VerifySizesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir.write("k/scale.cu", "void scale() {}\n");
    dir.write("k/scale_ref.cpp", "void scale_ref() {}\n");
    dir.write("kblaster.toml", kConfig);
    auto loaded = load_config(DirectoryTree(dir.path()));
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    config = std::move(*loaded);
    runner.on("verify", [](const json&) -> Result<json> {
      return json{{"verdict", harness_verdict(true, "passed")}};
    });
  }
  const KernelSpec& spec() const { return config.kernels.at(0); }

  testing::TempDir dir;
  Config config;
  FakeHarnessRunner runner;
  HarnessClient client{runner};
};

TEST_F(VerifySizesTest, EverySizeInSpecOrderWithTheSameSeedsAndCandidate) {
  std::vector<std::string> seen;
  auto sizes = verify_at_every_size(client, spec(), 1, {7, 8, 9}, Against{0},
                                    [&](const SizeVerdict& s) { seen.push_back(s.size); });
  ASSERT_TRUE(sizes.ok()) << sizes.error().message;
  EXPECT_THAT(seen, ElementsAre("N=1024", "N=77", "N=1"));
  ASSERT_EQ(sizes->size(), 3u);
  EXPECT_EQ(first_failure(*sizes), nullptr);
  EXPECT_THAT(runner.ops(), ElementsAre("setup", "verify", "setup", "verify", "setup", "verify"));
  for (const auto& v : runner.sent("verify")) {
    EXPECT_EQ(v.at("candidate"), 1);
    EXPECT_EQ(v.at("seeds"), json({7, 8, 9}));
    EXPECT_EQ(v.at("against"), (json{{"candidate", 0}}));
  }
}

TEST_F(VerifySizesTest, StopsAtTheFirstSizeThatFails) {
  runner.on("verify", [this](const json&) -> Result<json> {
    const bool second = runner.sent("verify").size() == 2;
    return json{{"verdict", second ? harness_verdict(false, "wrong_result", "`out`[3] is 1")
                                   : harness_verdict(true, "passed")}};
  });
  auto sizes = verify_at_every_size(client, spec(), 0, {5}, Against{});
  ASSERT_TRUE(sizes.ok()) << sizes.error().message;
  ASSERT_EQ(sizes->size(), 2u) << "the third size is never set up";
  const CheckVerdict* failed = first_failure(*sizes);
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ(failed->reason, "wrong_result");
  EXPECT_EQ((*sizes)[1].size, "N=77");
  EXPECT_EQ(runner.sent("setup").size(), 2u);
}

TEST_F(VerifySizesTest, AHarnessFailureThatIsNoVerdictIsAnError) {
  runner.fail_next("setup", HarnessFailure::refused, "no such launcher", 1);
  auto sizes = verify_at_every_size(client, spec(), 0, {5}, Against{});
  ASSERT_FALSE(sizes.ok());
  EXPECT_THAT(sizes.error().message, ::testing::HasSubstr("no such launcher"));
}

// A module's state the spec names but the module does not have is refused at setup: the
// config's mistake (exit 2, at the argument), not kblaster's (exit 4).
TEST(VerifySizes, AStateTheModuleLacksIsAConfigErrorAtItsArgument) {
  testing::TempDir dir;
  dir.write("k/scale.cu", "void scale(float* out, const float* w, int n) {}\n");
  dir.write("k/ref.py", "import torch\nclass Model(torch.nn.Module):\n    pass\n");
  dir.write("kblaster.toml", R"TOML([[kernel]]
name = "scale"
source = "k/scale.cu"
launcher = "scale"
reference = "k/ref.py:Model"
args = [
  { name = "out", type = "f32", shape = "n", role = "out" },
  { name = "w", type = "f32", shape = "n", init = "state(wieght)" },
  { name = "n", type = "i32" },
]
sizes = [ { n = 8 } ]
)TOML");
  auto config = load_config(DirectoryTree(dir.path()));
  ASSERT_TRUE(config.ok()) << config.error().describe();
  FakeHarnessRunner runner;
  HarnessClient client{runner};
  runner.on("setup", [](const json&) -> Result<json> {  // as a real harness's cause "reference"
    return Error::config("",
                         "harness refused 'setup': the PyTorch reference k/ref.py:Model: the "
                         "module has no state `wieght` (its parameters and buffers: `weight`)");
  });
  auto sizes = verify_at_every_size(client, config->kernels.at(0), 0, {1}, Against{});
  ASSERT_FALSE(sizes.ok());
  EXPECT_EQ(sizes.error().kind, ErrorKind::config);
  EXPECT_EQ(sizes.error().where, "kblaster.toml:8:3");
  EXPECT_THAT(sizes.error().message, ::testing::HasSubstr("the module has no state `wieght`"));
  EXPECT_THAT(sizes.error().message, ::testing::StartsWith("kernel `scale` at n=8: "));

  // A module that raises in forward: said at the kernel's table.
  runner.on("setup", [](const json&) -> Result<json> { return json::object(); });
  runner.on("verify", [](const json&) -> Result<json> {
    return Error::config("", "harness refused 'verify': the PyTorch reference: ValueError: bad");
  });
  auto raised = verify_at_every_size(client, config->kernels.at(0), 0, {1}, Against{});
  ASSERT_FALSE(raised.ok());
  EXPECT_EQ(raised.error().where, "kblaster.toml:1:1");

  // No torch where the harness's python looks is the machine's to fix (exit 3), not the spec's.
  runner.on("setup", [](const json&) -> Result<json> {
    return Error::environment("harness refused 'setup': No module named 'torch'");
  });
  auto no_torch = verify_at_every_size(client, config->kernels.at(0), 0, {1}, Against{});
  ASSERT_FALSE(no_torch.ok());
  EXPECT_EQ(no_torch.error().kind, ErrorKind::environment) << no_torch.error().describe();
}

}  // namespace
}  // namespace kblaster
