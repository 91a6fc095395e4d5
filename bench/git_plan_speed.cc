// How long planning a pull-request check takes on a repository of 1,000 files
// and 200 kernels: open + resolve + changed_paths + both configs + change set.
// Cases: a docs-only change (hits nothing; issue #4 bound: under a second) and a
// change to the header every kernel includes (hits all 200).
// Usage: build/kblaster_bench_git_plan [repetitions=5]
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/config_loader.h"
#include "git/change_plan.h"
#include "git/repo_builder.h"

namespace {

using kblaster::testing::RepoBuilder;
constexpr int kGroups = 20, kPerGroup = 10, kFiles = 1000;

std::string kernel_table(const std::string& k) {
  return "[[kernel]]\nname = \"" + k + "\"\nsource = \"" + k + ".cu\"\nlauncher = \"" + k +
         "\"\nreference = \"ref/" + k + "_ref.cpp:" + k +
         "_ref\"\nargs = [\n  { name = \"n\", type = \"i32\" },\n"
         "  { name = \"x\", type = \"f32\", shape = \"n\" },\n"
         "  { name = \"y\", type = \"f32\", shape = \"n\", role = \"out\" },\n]\n"
         "sizes = [ { n = 1048576 }, { n = 1001 } ]\n\n";
}

// 1 + 21 headers, 20 groups of 10 kernels (source, reference, spec file, local
// header per group), and docs pages up to kFiles files. Returns the file count.
int populate(RepoBuilder& repo) {
  int files = 0;
  auto add = [&](const std::string& path, const std::string& text) {
    repo.write(path, text);
    ++files;
  };
  add("kblaster.toml", "[project]\ninclude_dirs = [\"include\"]\n");
  add("include/common.cuh", "#pragma once\n#include <cuda_runtime.h>\n");
  for (int g = 0; g < kGroups; ++g) {
    const std::string group = "kernels/g" + std::to_string(g) + "/";
    const std::string util = "util/u" + std::to_string(g) + ".cuh";
    add("include/" + util, "#pragma once\n#include <common.cuh>\n");
    add(group + "local.cuh", "#pragma once\n#include <" + util + ">\n");
    std::string spec;
    for (int i = 0; i < kPerGroup; ++i) {
      const std::string k = std::string("k").append(std::to_string(g * kPerGroup + i));
      add(group + k + ".cu", "#include \"local.cuh\"\n__global__ void body(float* y) {}\nvoid " +
                                 k + "(int n, const float* x, float* y) {}\n");
      add(group + "ref/" + k + "_ref.cpp",
          "#include <cmath>\nvoid " + k + "_ref(int n, const float* x, float* y) {}\n");
      spec += kernel_table(k);
    }
    add(group + "group.kblaster.toml", spec);
  }
  for (int d = 0; files < kFiles; ++d)
    add("docs/page" + std::to_string(d) + ".md", "# Page " + std::to_string(d) + "\n");
  return files;
}

// Milliseconds for one plan of HEAD~1..HEAD; exits if it fails or hits `expected` wrongly.
double time_plan(const std::filesystem::path& dir, std::size_t expected_hits) {
  const auto start = std::chrono::steady_clock::now();
  auto repo = kblaster::GitRepo::open(dir);
  if (!repo) std::exit(1);
  auto range = kblaster::resolve_range(**repo, "HEAD~1", "HEAD", kblaster::BaseMode::as_given);
  if (!range) std::exit(1);
  auto plan = kblaster::plan_change(**repo, *range);
  const auto stop = std::chrono::steady_clock::now();
  if (!plan) {
    std::fprintf(stderr, "plan failed: %s\n", plan.error().describe().c_str());
    std::exit(1);
  }
  if (plan->changes.hits.size() != expected_hits || plan->head_config.kernels.size() != 200) {
    std::fprintf(stderr, "unexpected: %zu hits of %zu kernels\n", plan->changes.hits.size(),
                 plan->head_config.kernels.size());
    std::exit(1);
  }
  return std::chrono::duration<double, std::milli>(stop - start).count();
}

// One plan of HEAD~1..HEAD, step by step: where the time goes.
void phases(const std::filesystem::path& dir) {
  using Clock = std::chrono::steady_clock;
  auto t = Clock::now();
  std::vector<std::pair<const char*, double>> steps;
  auto lap = [&](const char* name) {
    const auto now = Clock::now();
    steps.emplace_back(name, std::chrono::duration<double, std::milli>(now - t).count());
    t = now;
  };
  auto repo = kblaster::GitRepo::open(dir);
  auto range = kblaster::resolve_range(**repo, "HEAD~1", "HEAD", kblaster::BaseMode::as_given);
  lap("open+resolve");
  auto paths = (*repo)->changed_paths(range->base, range->head);
  lap("changed_paths");
  auto base_tree = (*repo)->tree_at(range->base);
  auto head_tree = (*repo)->tree_at(range->head);
  auto base_config = kblaster::load_config(**base_tree);
  auto head_config = kblaster::load_config(**head_tree);
  lap("both configs");
  auto read = [](const kblaster::SourceTree& tree) {
    return [&tree](const std::string& path) { return tree.read(path); };
  };
  auto set = kblaster::compute_change_set({&*base_config, read(**base_tree)},
                                          {&*head_config, read(**head_tree)}, *paths);
  lap("change set");
  std::printf("  steps:");
  for (const auto& [name, ms] : steps) std::printf(" %s %.2f ms;", name, ms);
  std::printf(" (%zu hits)\n", set.hits.size());
}

void report(const char* name, const std::filesystem::path& dir, std::size_t hits, int reps) {
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) ms.push_back(time_plan(dir, hits));
  std::sort(ms.begin(), ms.end());
  std::printf("%-28s median %7.2f ms  min %7.2f  max %7.2f  (%d runs, %zu kernels hit)\n", name,
              ms[ms.size() / 2], ms.front(), ms.back(), reps, hits);
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  std::string tmpl = (std::filesystem::temp_directory_path() / "kblaster-bench-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) return 1;
  const std::filesystem::path dir = tmpl;
  {
    RepoBuilder repo(dir);
    const int files = populate(repo);
    repo.commit("initial");
    repo.write("docs/page0.md", "# Page 0, edited\n");
    repo.commit("docs only");
    std::printf("repository: %d files, %d kernels, loose objects\n", files, kGroups * kPerGroup);
    report("docs-only change", dir, 0, reps);
    phases(dir);
    repo.write("include/common.cuh", "#pragma once\n#include <cuda_runtime.h>\n#define X 1\n");
    repo.commit("common header");
    report("common header change", dir, 200, reps);
    phases(dir);
  }
  std::filesystem::remove_all(dir);
  return 0;
}
