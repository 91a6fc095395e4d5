// Test support for the source appliers: the example kernels' text, and a real
// nvcc compile of rewritten source (GTEST_SKIP when nvcc is missing).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

namespace kblaster::testing {

inline std::filesystem::path example_root() {
  const char* env = std::getenv("KBLASTER_SOURCE_DIR");
  return std::filesystem::path(env && *env ? env : KBLASTER_SOURCE_DIR) / "examples" / "kernels";
}

// The text of examples/kernels/kernels/<name>; empty when missing.
inline std::string read_example(const std::string& name) {
  std::ifstream in(example_root() / "kernels" / name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// nvcc from $KBLASTER_NVCC or /usr/local/cuda/bin/nvcc, or empty when neither exists.
inline std::string find_nvcc() {
  const char* env = std::getenv("KBLASTER_NVCC");
  if (env && *env && std::filesystem::exists(env)) return env;
  return std::filesystem::exists("/usr/local/cuda/bin/nvcc") ? "/usr/local/cuda/bin/nvcc" : "";
}

// Compiles `source` as `name` for sm_90 in a fresh temp dir, beside `header` (a
// file name and text, found before the examples' include dir); the log on failure.
// Call through EXPECT_NVCC_COMPILES so that a missing nvcc skips the test.
inline ::testing::AssertionResult nvcc_compiles(
    const std::string& nvcc, const std::string& name, const std::string& source,
    const std::pair<std::string, std::string>& header = {}) {
  std::string dir_template =
      (std::filesystem::temp_directory_path() / "kblaster-transform-XXXXXX").string();
  if (!mkdtemp(dir_template.data())) return ::testing::AssertionFailure() << "mkdtemp failed";
  const std::filesystem::path dir = dir_template;
  std::ofstream(dir / name) << source;
  if (!header.first.empty()) std::ofstream(dir / header.first) << header.second;
  const std::string command = "'" + nvcc + "' -std=c++17 -arch=sm_90 -I'" + dir.string() + "' -I'" +
                              (example_root() / "include").string() + "' -c '" +
                              (dir / name).string() + "' -o '" + (dir / "out.o").string() +
                              "' > '" + (dir / "log").string() + "' 2>&1";
  const int rc = std::system(command.c_str());
  std::ifstream log_in(dir / "log");
  std::ostringstream log;
  log << log_in.rdbuf();
  std::filesystem::remove_all(dir);
  if (rc == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "nvcc failed (" << rc << "):\n"
                                       << log.str() << "\nsource:\n"
                                       << source;
}

}  // namespace kblaster::testing

#define EXPECT_NVCC_COMPILES(...)                                            \
  do {                                                                       \
    const std::string nvcc_ = ::kblaster::testing::find_nvcc();              \
    if (nvcc_.empty()) GTEST_SKIP() << "nvcc not found (set KBLASTER_NVCC)"; \
    EXPECT_TRUE(::kblaster::testing::nvcc_compiles(nvcc_, __VA_ARGS__));     \
  } while (0)
