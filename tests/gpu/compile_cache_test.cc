#include "gpu/compile_cache.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "test_paths.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

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
  EXPECT_EQ(cache.lookup(key, "kblaster_entry").status, CacheStatus::miss);
  EXPECT_TRUE(cache.lookup(key, "kblaster_entry").object.empty());
  EXPECT_EQ(cache.lookup(key, "kblaster_entry").removed, "");

  auto built = dir.write("work/k.so", testing::read_text(KBLASTER_TEST_ENTRY_OBJECT));
  auto stored = cache.store(key, built, "kblaster_entry");
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  EXPECT_EQ(*stored, dir.path() / "cache/objects" / (key + ".so"));
  EXPECT_EQ(*stored, cache.object_path(key));
  auto hit = cache.lookup(key, "kblaster_entry");
  EXPECT_EQ(hit.status, CacheStatus::hit);
  EXPECT_EQ(hit.object, *stored);
  // Only the object itself is left in the directory: no temp files.
  std::vector<fs::path> entries(fs::directory_iterator(dir.path() / "cache/objects"), {});
  EXPECT_EQ(entries.size(), 1u);
  EXPECT_TRUE(fs::exists(built));
}

// The builder checks an object before it stores it; the cache refuses one it was
// not meant to get, so nothing unsound can enter it.
TEST(CompileCache, StoringAMissingOrUnsoundObjectIsRefusedAndLeavesNothing) {
  testing::TempDir dir;
  CompileCache cache(dir.path() / "cache");
  const std::string key(64, 'b');
  for (const fs::path& built :
       {dir.path() / "missing.so", dir.write("empty.so", ""), dir.write("text.so", "object"),
        fs::path(KBLASTER_TEST_NO_ENTRY_OBJECT)}) {
    auto stored = cache.store(key, built, "kblaster_entry");
    ASSERT_FALSE(stored.ok()) << built;
    EXPECT_EQ(stored.error().kind, ErrorKind::internal);
    EXPECT_THAT(stored.error().message, HasSubstr("refusing to cache " + built.string()));
    EXPECT_EQ(cache.lookup(key, "kblaster_entry").status, CacheStatus::miss);
    EXPECT_FALSE(fs::exists(cache.object_path(key)));
  }
}

// An object damaged in the cache (an old kblaster stored a broken compiler's output,
// or the disk did) is removed at lookup, so the kernel is built again.
TEST(CompileCache, ADamagedStoredObjectIsRemovedAndMisses) {
  testing::TempDir dir;
  CompileCache cache(dir.path() / "cache");
  const std::string key(64, 'c');
  const std::string sound = testing::read_text(KBLASTER_TEST_ENTRY_OBJECT);
  for (const std::string& damaged :
       {std::string(), std::string("random bytes"), sound.substr(0, sound.size() / 2),
        testing::read_text(KBLASTER_TEST_NO_ENTRY_OBJECT)}) {
    dir.write("cache/objects/" + key + ".so", damaged);
    const CacheLookup lookup = cache.lookup(key, "kblaster_entry");
    EXPECT_EQ(lookup.status, CacheStatus::miss) << damaged.size();
    EXPECT_TRUE(lookup.object.empty());
    EXPECT_THAT(lookup.removed, HasSubstr("the cached object " + cache.object_path(key).string() +
                                          " was damaged ("));
    EXPECT_THAT(lookup.removed, ::testing::EndsWith("; removed it"));
    EXPECT_FALSE(fs::exists(cache.object_path(key)));
  }
  // The object is checked for the entry point the caller loads.
  dir.write("cache/objects/" + key + ".so", sound);
  EXPECT_EQ(cache.lookup(key, "kblaster_reference").status, CacheStatus::hit);
}

}  // namespace
}  // namespace kblaster
