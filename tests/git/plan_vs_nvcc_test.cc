// Issue 21, C: plan's dependencies against nvcc's own. A generated repository holds every
// way the preprocessor reaches a file that a line scanner once missed: an include through a
// macro, a directive continued with backslashes, %:include, -I and -include in nvcc_flags.
// For each kernel, every repository file `nvcc -M` lists must be a hit when it alone changes:
// a miss would be an unchecked regression. (Extra hits are allowed: a macro's include counts
// every file its directories reach.) Real nvcc, run in the repository's root as builds run it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "core/source_tree.h"
#include "git/kernel_deps.h"
#include "gpu/compiler.h"
#include "test_paths.h"

namespace kblaster {
namespace {

// The repository files `nvcc -M` says `spec`'s source depends on, run in `root`.
std::set<std::string> nvcc_dependencies(const std::filesystem::path& nvcc,
                                        const std::filesystem::path& root, const KernelSpec& spec) {
  std::string command = "cd '" + root.string() + "' && '" + nvcc.string() + "' -M -x cu";
  for (const auto& d : spec.include_dirs) command += " -I'" + d + "'";
  for (const auto& f : spec.nvcc_flags) command += " '" + f + "'";
  command += " '" + spec.source + "' 2>&1";
  std::string out;
  if (FILE* p = ::popen(command.c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    EXPECT_EQ(::pclose(p), 0) << command << "\n" << out;
  }
  std::set<std::string> deps;
  std::istringstream words(out.substr(out.find(':') + 1));
  for (std::string w; words >> w;) {
    if (w == "\\" || w.starts_with('/')) continue;  // continuations; system and toolkit headers
    if (auto n = normalize_relative(w); n && *n != spec.source) deps.insert(*n);
  }
  return deps;
}

TEST(PlanVsNvcc, EveryFileNvccReadsIsAHitWhenItAloneChanges) {
  auto nvcc = NvccCompiler::find();
  if (!nvcc) GTEST_SKIP() << "no nvcc: " << nvcc.error().message;
  testing::TempDir repo;
  const std::map<std::string, std::string> files = {
      {"inc/a.h", "#pragma once\n#include \"b.h\"\n"},
      {"inc/b.h", "#pragma once\n"},
      {"inc/cfg/tuned.h", "#pragma once\n#include <b.h>\n"},
      {"inc/unused.h", "#pragma once\n"},
      {"extra/x.h", "#pragma once\n#include \"x_detail.h\"\n"},
      {"extra/x_detail.h", "#pragma once\n"},
      {"pre/force.h", "#pragma once\n#include \"force_dep.h\"\n"},
      {"pre/force_dep.h", "#pragma once\n"},
      {"k/macro.cu", "#define HDR <cfg/tuned.h>\n#include HDR\nvoid k() {}\n"},
      {"k/continued.cu", "#\\\n  include \\\n <a.h>\nvoid k() {}\n"},
      {"k/digraph.cu", "%:include <a.h>\nvoid k() {}\n"},
      {"k/flag_i.cu", "#include <x.h>\nvoid k() {}\n"},
      {"k/forced.cu", "void k() {}\n"},
  };
  for (const auto& [path, text] : files) {
    std::filesystem::create_directories((repo.path() / path).parent_path());
    std::ofstream(repo.path() / path) << text;
  }
  const auto kernel = [](std::string source, std::vector<std::string> flags) {
    KernelSpec k;
    k.name = source;
    k.source = std::move(source);
    k.launcher = "k";
    k.include_dirs = {"inc"};
    k.nvcc_flags = std::move(flags);
    return k;
  };
  const std::vector<KernelSpec> kernels = {
      kernel("k/macro.cu", {}),
      kernel("k/continued.cu", {}),
      kernel("k/digraph.cu", {}),
      kernel("k/flag_i.cu", {"-Iextra"}),
      kernel("k/forced.cu", {"-include", "pre/force.h"}),
  };
  DirectoryTree tree(repo.path());
  DependencyScanner scanner([&tree](const std::string& p) { return tree.read(p); },
                            [&tree] { return tree.list_files(); });
  for (const KernelSpec& k : kernels) {
    SCOPED_TRACE(k.source);
    const auto deps = nvcc_dependencies(nvcc->path(), repo.path(), k);
    EXPECT_FALSE(deps.empty()) << "each kernel reads at least one repository header";
    for (const auto& dep : deps)
      EXPECT_FALSE(scanner.hits(k, {dep}).empty()) << "plan misses " << dep;
  }
}

}  // namespace
}  // namespace kblaster
