#include "gpu/compile_cache.h"

#include <gtest/gtest.h>

#include <functional>

#include "test_paths.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;

CacheKeyInputs sample_inputs() {
  return {"// shim",
          {{"k.cu", "kernel"}, {"include/h.h", "header"}},
          {"include"},
          {"-O3"},
          {"BLOCK=128"},
          "sm_90",
          "release 13.0, V13.0.88"};
}

TEST(CompileCache, KeyIsStableAndCoversEveryInput) {
  const std::string key = compute_cache_key(sample_inputs()).value();
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(compute_cache_key(sample_inputs()).value(), key);
  const std::vector<std::function<void(CacheKeyInputs&)>> changes = {
      [](CacheKeyInputs& in) { in.shim_text += " "; },
      [](CacheKeyInputs& in) { in.files[1].second = "header v2"; },
      [](CacheKeyInputs& in) { in.files[1].first = "include/g.h"; },
      [](CacheKeyInputs& in) { in.files.pop_back(); },
      [](CacheKeyInputs& in) { in.include_dirs.clear(); },
      [](CacheKeyInputs& in) { in.flags.push_back("-G"); },
      [](CacheKeyInputs& in) { in.defines = {"BLOCK=256"}; },
      [](CacheKeyInputs& in) { in.arch = "sm_80"; },
      [](CacheKeyInputs& in) { in.compiler_version = "release 13.1, V13.1.0"; },
      // Moving a string between neighbouring fields must change the key too.
      [](CacheKeyInputs& in) {
        in.flags.clear();
        in.defines = {"-O3", "BLOCK=128"};
      },
  };
  for (std::size_t i = 0; i < changes.size(); ++i) {
    CacheKeyInputs in = sample_inputs();
    changes[i](in);
    EXPECT_NE(compute_cache_key(in).value(), key) << "change " << i;
  }
}

TEST(CompileCache, StoresAtomicallyAndThenHits) {
  testing::TempDir dir;
  CompileCache cache(dir.path() / "cache");
  const std::string key(64, 'a');
  EXPECT_EQ(cache.lookup(key).status, CacheStatus::miss);
  EXPECT_TRUE(cache.lookup(key).object.empty());

  auto built = dir.write("work/k.so", "object bytes");
  auto stored = cache.store(key, built);
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  EXPECT_EQ(*stored, dir.path() / "cache/objects" / (key + ".so"));
  EXPECT_EQ(*stored, cache.object_path(key));
  auto hit = cache.lookup(key);
  EXPECT_EQ(hit.status, CacheStatus::hit);
  EXPECT_EQ(hit.object, *stored);
  // Only the object itself is left in the directory: no temp files.
  std::vector<fs::path> entries(fs::directory_iterator(dir.path() / "cache/objects"), {});
  EXPECT_EQ(entries.size(), 1u);
  EXPECT_TRUE(fs::exists(built));
}

TEST(CompileCache, StoringAMissingObjectIsAnIoError) {
  testing::TempDir dir;
  CompileCache cache(dir.path());
  auto stored = cache.store(std::string(64, 'b'), dir.path() / "missing.so");
  ASSERT_FALSE(stored.ok());
  EXPECT_EQ(stored.error().kind, ErrorKind::io);
  EXPECT_EQ(cache.lookup(std::string(64, 'b')).status, CacheStatus::miss);
  std::vector<fs::path> entries(fs::directory_iterator(dir.path() / "objects"), {});
  EXPECT_TRUE(entries.empty());
}

}  // namespace
}  // namespace kblaster
