// The real H200 results kept in tests/eval/fixtures/h200, for tests that decide or render
// from real data.
#pragma once

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "test_paths.h"

namespace kblaster::testing {

// The fixture `name` ("UncoalescedAccessIsSlower.json"), parsed.
inline nlohmann::json h200_fixture(const std::string& name) {
  std::ifstream in(source_dir() / "tests/eval/fixtures/h200" / name);
  return nlohmann::json::parse(in);
}

// The real H200 optimize result of softmax_slow (its gain needs -use_fast_math) and
// matmul_naive (a pure source change), as a kblaster that records `best_source` writes it:
// matmul_naive's best source is examples/kernels' with its block's 16 made 32, as the
// result's `changes` say, and it hashes to the result's `best_candidate`.
inline nlohmann::json optimize_with_best_source() {
  auto result = h200_fixture("optimize_softmax_slow_matmul_naive.json");
  std::string source = read_text(examples_dir() / "kernels/matmul_naive.cu");
  for (std::size_t at = source.find("16"); at != std::string::npos; at = source.find("16", at))
    source.replace(at, 2, "32");
  result["kernels"][1]["best_source"] = source;
  return result;
}

// The files of examples/kernels that optimize_with_best_source's kernels need, at
// `prefix` ("examples/kernels/") in a repository: as FakeGitHub's base_files.
inline std::map<std::string, std::string> example_base_files(const std::string& prefix) {
  std::map<std::string, std::string> files;
  for (const char* path : {"kblaster.toml", "kernels/matmul_naive.cu", "kernels/softmax_slow.cu",
                           "include/kb_common.cuh"})
    files[prefix + path] = read_text(examples_dir() / path);
  return files;
}

}  // namespace kblaster::testing
