#include "core/config_loader.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/hostile_text.h"
#include "core/input_limits.h"
#include "core/launch_plan.h"
#include "core/plan_text.h"
#include "core/spec_json.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using testing::chain;
using testing::nested;

using testing::TempDir;

// A repository with a kernel source, a reference and a header, plus whatever
// kblaster.toml (and other files) the test supplies.
struct Repo {
  TempDir dir;
  explicit Repo(const std::string& config) {
    dir.write("k/scale.cu", "__global__ void k() {}\nvoid scale(float*, float*, int) {}\n");
    dir.write("k/scale_ref.cpp", "void scale_ref(float*, const float*, int) {}\n");
    dir.write("include/common.cuh", "#pragma once\n");
    dir.write("kblaster.toml", config);
  }
  Result<Config> load() const { return load_config(DirectoryTree(dir.path())); }
};

const char* kKernelHead = R"([[kernel]]
name = "scale"
source = "k/scale.cu"
launcher = "scale"
)";

const char* kArgs = R"(args = [
  { name = "out", type = "f32", shape = "N", role = "out" },
  { name = "inp", type = "f32", shape = "N" },
  { name = "N", type = "i32" },
]
)";

const char* kSizes = "sizes = [ { N = 1024 }, { N = 7 } ]\n";

// Issue 22, point 4: an embedding encoder's vocabulary V is in no launcher argument, only in the
// table's shape, the token ids' range and the bytes a launch must move.
TEST(ConfigLoader, NamedConstantsSizeTablesBoundInitsAndCountBytes) {
  Repo repo(std::string(kKernelHead) + R"TOML(constants = { V = 50257, C = 768 }
args = [
  { name = "out", type = "f32", shape = "B*T*C", role = "out" },
  { name = "ids", type = "i32", shape = "B*T", init = "randint(0, V)" },
  { name = "wte", type = "f32", shape = "V*C", init = "uniform(-1,1)" },
  { name = "B", type = "i32" },
  { name = "T", type = "i32" },
]
sizes = [ { B = 8, T = 1024 } ]
flops = "B*T*C"
min_bytes = "B*T*4 + 2*B*T*C*4"
)TOML");
  auto config = repo.load();
  ASSERT_TRUE(config.ok()) << config.error().describe();
  const KernelSpec& k = config->kernels.at(0);
  EXPECT_EQ(k.constants, (std::map<std::string, std::int64_t>{{"C", 768}, {"V", 50257}}));
  EXPECT_EQ(k.args[1].init.a, 0.0);
  EXPECT_EQ(k.args[1].init.b, 50257.0) << "randint(0, V) draws ids below the vocabulary";
  auto plan = plan_kernel(k);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  const SizePlan& size = plan->sizes.at(0);
  EXPECT_EQ(size.buffers.at(2).elements, 50257 * 768) << "the table's shape uses V and C";
  EXPECT_EQ(size.buffers.at(0).elements, 8 * 1024 * 768);
  EXPECT_EQ(size.flops, 8 * 1024 * 768);
  EXPECT_EQ(size.min_bytes(), 8 * 1024 * 4 + 2 * 8 * 1024 * 768 * 4);
  EXPECT_EQ(size_label(k, k.sizes.at(0)), "B=8 T=1024") << "a constant is not a size";
  EXPECT_EQ(to_json(k)["constants"], (nlohmann::json{{"C", 768}, {"V", 50257}}));
}

// Issue 22, point 3: a vectorized kernel needs C % 4 == 0 and a warp-per-row one C >= its block.
// Sizes that break either are left out, said in the plan, and never verified or timed.
TEST(ConfigLoader, RequiresLeavesOutTheSizesThatBreakIt) {
  Repo repo(std::string(kKernelHead) + R"TOML(args = [
  { name = "out", type = "f32", shape = "R*C", role = "out" },
  { name = "inp", type = "f32", shape = "R*C" },
  { name = "R", type = "i32" },
  { name = "C", type = "i32" },
  { name = "block_size", type = "i32", tunable = [256, 1024] },
]
sizes = [ { R = 8, C = 1024 }, { R = 8, C = 1001 }, { R = 1, C = 128 } ]
requires = ["C % 4 == 0", "C >= block_size"]
)TOML");
  auto config = repo.load();
  ASSERT_TRUE(config.ok()) << config.error().describe();
  const KernelSpec& k = config->kernels.at(0);
  ASSERT_EQ(k.sizes.size(), 1u);
  EXPECT_EQ(size_label(k, k.sizes[0]), "R=8 C=1024");
  EXPECT_EQ(k.declared_sizes.size(), 3u);
  ASSERT_EQ(k.left_out.size(), 2u);
  EXPECT_EQ(k.left_out[0].second, "requires `C % 4 == 0` (C=1001)");
  EXPECT_EQ(k.left_out[1].second, "requires `C >= block_size` (C=128, block_size=256)")
      << "checked with the tunable at its default";
  auto plan = plan_kernel(k);
  ASSERT_TRUE(plan.ok());
  std::ostringstream text;
  print_kernel_plan(text, k, *plan);
  EXPECT_NE(text.str().find("requires   C % 4 == 0; C >= block_size"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("R=8 C=1001                          left out: requires `C % 4 == 0` "
                            "(C=1001)"),
            std::string::npos)
      << text.str();
  const auto j = to_json(k);
  EXPECT_EQ(j["requires"], (nlohmann::json{"C % 4 == 0", "C >= block_size"}));
  EXPECT_EQ(j["left_out"][1]["size"], "R=1 C=128");
  // The tunable's other value is checked at the sizes the kernel runs: 1024 fits C = 1024.
  EXPECT_EQ(broken_by_tunables(k, {{"block_size", 1024}}, {}), std::nullopt);
}

TEST(ConfigLoader, LoadsAValidKernel) {
  Repo repo(std::string("[project]\ninclude_dirs = [\"include\"]\n\n") + kKernelHead +
            "reference = \"k/scale_ref.cpp:scale_ref\"\n" + kArgs + kSizes);
  auto config = repo.load();
  ASSERT_TRUE(config.ok()) << config.error().describe();
  ASSERT_EQ(config->kernels.size(), 1u);
  const KernelSpec& k = config->kernels[0];
  EXPECT_EQ(k.name, "scale");
  EXPECT_EQ(k.source, "k/scale.cu");
  EXPECT_EQ(k.reference.kind, ReferenceSpec::Kind::cpu);
  EXPECT_EQ(k.reference.path, "k/scale_ref.cpp");
  EXPECT_EQ(k.reference.function, "scale_ref");
  ASSERT_EQ(k.args.size(), 3u);
  EXPECT_EQ(k.args[0].role, ArgRole::out);
  EXPECT_FALSE(k.args[2].is_buffer());
  EXPECT_EQ(k.sizes.size(), 2u);
  EXPECT_EQ(k.sizes[1].at("N"), 7);
  EXPECT_DOUBLE_EQ(k.tolerance.rtol, 1e-4);
  EXPECT_TRUE(k.tolerance_is_default);
  EXPECT_EQ(k.include_dirs, std::vector<std::string>{"include"});
  EXPECT_EQ(k.nvcc_flags, (std::vector<std::string>{"-O3", "-std=c++17"}));
  EXPECT_EQ(k.where.str(), "kblaster.toml:4:1");
}

TEST(ConfigLoader, DiscoversSpecFilesAndResolvesPathsBesideThem) {
  Repo repo(std::string(kKernelHead) + kArgs + kSizes);
  repo.dir.write("k/sub/other.kblaster.toml", R"TOML([[kernel]]
name = "other"
source = "../scale.cu"
launcher = "scale"
reference = "../scale_ref.cpp:ns::scale_ref"
tolerance = { rtol = 1e-3 }
args = [ { name = "out", type = "bf16", shape = "4", role = "inout", init = "uniform(-1,1)" } ]
)TOML");
  auto config = repo.load();
  ASSERT_TRUE(config.ok()) << config.error().describe();
  ASSERT_EQ(config->kernels.size(), 2u);
  const KernelSpec& k = config->kernels[1];
  EXPECT_EQ(k.source, "k/scale.cu");
  EXPECT_EQ(k.reference.function, "ns::scale_ref");
  EXPECT_EQ(k.sizes.size(), 1u) << "no free scalars: one implicit size";
  EXPECT_DOUBLE_EQ(k.tolerance.rtol, 1e-3);
  EXPECT_DOUBLE_EQ(k.tolerance.atol, 1e-2) << "unset atol keeps the bf16 default";
  EXPECT_FALSE(k.tolerance_is_default);
  EXPECT_EQ(config->spec_files,
            (std::vector<std::string>{"kblaster.toml", "k/sub/other.kblaster.toml"}));
}

// [project], [check] and [publish] describe the whole repository, so only kblaster.toml
// may hold them; a discovered spec file that does says so, for either table.
TEST(ConfigLoader, RepositoryTablesInASpecFileAreNamedAsMisplaced) {
  for (const std::string table : {"project", "check", "publish"}) {
    Repo repo(std::string(kKernelHead) + kArgs + kSizes);
    repo.dir.write("k/x.kblaster.toml", "[" + table + "]\n");
    auto config = repo.load();
    ASSERT_FALSE(config.ok()) << table;
    EXPECT_EQ(config.error().where, "k/x.kblaster.toml:1:2") << table;
    EXPECT_EQ(config.error().message, "[" + table +
                                          "] belongs in kblaster.toml only; k/x.kblaster.toml may "
                                          "only declare [[kernel]] tables")
        << table;
  }
}

TEST(ConfigLoader, PublishDefaultsToAPullRequestPerKernelLabelledKblasterAndPerformance) {
  auto config = Repo(std::string(kKernelHead) + kArgs + kSizes).load();
  ASSERT_TRUE(config.ok()) << config.error().describe();
  EXPECT_EQ(config->publish.optimization_prs, PrGrouping::per_kernel);
  EXPECT_EQ(config->publish.labels, (std::vector<std::string>{"kblaster", "performance"}));
}

// 1.5 %: the minimum effect the registered H200 power study judged (docs/cli.md, compare).
TEST(ConfigLoader, CheckDefaultsToFailingOnSlowerAtTheStudiedMinimumEffect) {
  auto config = Repo(std::string(kKernelHead) + kArgs + kSizes).load();
  ASSERT_TRUE(config.ok()) << config.error().describe();
  EXPECT_EQ(config->check.fail_on, CheckConfig::FailOn::slower);
  EXPECT_DOUBLE_EQ(config->check.min_effect, 0.015);
}

TEST(ConfigLoader, PublishReadsTheGroupingAndTheLabels) {
  auto config = Repo("[publish]\noptimization_prs = \"per_sweep\"\nlabels = [\"speed\"]\n\n" +
                     std::string(kKernelHead) + kArgs + kSizes)
                    .load();
  ASSERT_TRUE(config.ok()) << config.error().describe();
  EXPECT_EQ(config->publish.optimization_prs, PrGrouping::per_sweep);
  EXPECT_EQ(config->publish.labels, (std::vector<std::string>{"speed"}));
  auto none = Repo("[publish]\nlabels = []\n\n" + std::string(kKernelHead) + kArgs + kSizes).load();
  ASSERT_TRUE(none.ok()) << none.error().describe();
  EXPECT_TRUE(none->publish.labels.empty()) << "an empty list means no labels";
}

// A base branch's [publish] read alone from its text, errors located in the file named.
TEST(ConfigLoader, APublishTableIsReadAloneFromTextNamingTheFileInErrors) {
  auto publish = load_publish_config("[publish]\noptimization_prs = \"per_sweep\"\n[[kernel]]\n",
                                     "acme/kernels@main:kblaster.toml");
  ASSERT_TRUE(publish.ok()) << publish.error().describe();
  EXPECT_EQ(publish->optimization_prs, PrGrouping::per_sweep);
  auto bad = load_publish_config("[publish]\nlabels = 3\n", "acme/kernels@main:kblaster.toml");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where, "acme/kernels@main:kblaster.toml:2:10");
  EXPECT_EQ(bad.error().message,
            "[publish]: field `labels`: expected an array of strings, got an integer");
}

struct Malformed {
  const char* label;
  std::string config;
  std::string where;
  std::string message;
};

std::ostream& operator<<(std::ostream& os, const Malformed& m) { return os << m.label; }

class MalformedConfig : public ::testing::TestWithParam<Malformed> {};

TEST_P(MalformedConfig, ReportsTheExactErrorAndLocation) {
  const Malformed& m = GetParam();
  Repo repo(m.config);
  auto config = repo.load();
  ASSERT_FALSE(config.ok()) << "expected an error for " << m.label;
  EXPECT_EQ(config.error().kind, ErrorKind::config);
  EXPECT_EQ(config.error().where, m.where);
  EXPECT_EQ(config.error().message, m.message);
}

std::string head() { return kKernelHead; }
std::string args() { return kArgs; }
std::string sizes() { return kSizes; }

// For the limit cases: a kernel named `name`, and a kernel whose output's shape is `shape`.
std::string named(const std::string& name) {
  return "[[kernel]]\nname = \"" + name + "\"\nsource = \"k/scale.cu\"\nlauncher = \"scale\"\n" +
         args() + sizes();
}
std::string shaped(const std::string& shape) {
  return head() + "args = [\n  { name = \"out\", type = \"f32\", shape = \"" + shape +
         "\", role = \"out\" },\n  { name = \"N\", type = \"i32\" },\n]\n" + sizes();
}
// `text` as a message quotes it: whole up to `max` characters, else cut to end in "...".
std::string cut(const std::string& text, std::size_t max = 64) {
  return text.size() <= max ? text : text.substr(0, max - 3) + "...";
}
// "`…` is 50000 characters long; <what> may have at most <limit>".
std::string too_long_text(const std::string& text, std::size_t limit, const std::string& what) {
  return "`" + cut(text) + "` is " + std::to_string(text.size()) + " characters long; " + what +
         " may have at most " + std::to_string(limit);
}
// What a field says of an expression longer than kMaxExpressionLength.
std::string expression_too_long(const std::string& text) {
  return "`" + cut(text, kMaxExpressionLength) + "`: the expression is " +
         std::to_string(text.size()) + " characters long; an expression may have at most " +
         std::to_string(kMaxExpressionLength) + " at col " +
         std::to_string(kMaxExpressionLength + 1);
}
const std::string kLong(50'000, 'a');
const std::string kKernelRule =
    "may only use letters, digits, '_', '.' and '-', and must start with a letter, a digit or '_'";

std::vector<Malformed> malformed_cases() {
  return {
#include "config_cases.inc"
  };
}

INSTANTIATE_TEST_SUITE_P(Configs, MalformedConfig, ::testing::ValuesIn(malformed_cases()),
                         [](const auto& info) { return std::string(info.param.label); });

// Issue 22, point 2: a bf16 kernel checked against its float CPU reference keeps the tolerance
// of its own dtype (its outputs are rounded back to bf16 before the comparison), not f32's, which
// no bf16 result could meet.
TEST(ConfigLoader, AReferenceTypeLeavesTheToleranceAtTheKernelsOwnDtype) {
  auto config =
      load_config(DirectoryTree(testing::source_dir() / "tests/fixtures/bf16_float_reference"));
  ASSERT_TRUE(config.ok()) << config.error().describe();
  const KernelSpec& gelu = config->kernels.at(0);
  ASSERT_EQ(gelu.args.at(0).type, DType::bf16);
  ASSERT_EQ(gelu.args.at(0).reference_type, DType::f32);
  EXPECT_EQ(gelu.tolerance.rtol, default_tolerance(DType::bf16).rtol);
  EXPECT_EQ(gelu.tolerance.atol, default_tolerance(DType::bf16).atol);
  EXPECT_GT(gelu.tolerance.rtol, default_tolerance(DType::f32).rtol);
}

}  // namespace
}  // namespace kblaster
