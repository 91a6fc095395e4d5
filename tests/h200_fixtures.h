// The real H200 results kept in tests/eval/fixtures/h200, for tests that decide or render
// from real data.
#pragma once

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "core/candidate_fingerprint.h"
#include "test_paths.h"
#include "transform/fast_intrinsics.h"

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

// optimize_with_best_source with a source form for softmax_slow, whose best needed
// -use_fast_math: the example's source with its expf calls as __expf, "verified" and
// FASTER 1.38x. Made up around the real result, not measured: for the rules that read it.
inline nlohmann::json optimize_with_source_form() {
  auto result = optimize_with_best_source();
  const std::string text =
      use_fast_intrinsics(read_text(examples_dir() / "kernels/softmax_slow.cu")).source;
  result["kernels"][0]["source_form"] = {
      {"status", "verified"},
      {"rewrites", {"nvcc_flags \"-use_fast_math\": expf -> __expf (2)"}},
      {"not_carried", nlohmann::json::array()},
      {"candidate", candidate_fingerprint(text)},
      {"source", text},
      {"source_defaults", nlohmann::json::array()},
      {"speedup",
       {{"value", 1.38},
        {"ci_low", 1.37},
        {"ci_high", 1.39},
        {"verdict", "FASTER"},
        {"reason", "r"}}},
      {"final_ab", {{"trusted", true}, {"rejected", ""}}},
      {"soft_verification", nlohmann::json::array()}};
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
