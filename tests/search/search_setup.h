// What the search tests share: the real catalogue, a fresh SQLite KB seeded with it, the
// softmax_slow example as the baseline, and search options for it.
#pragma once

#include <gtest/gtest.h>

#include <optional>

#include "eval/candidate.h"
#include "example_kernels.h"
#include "kb/catalogue.h"
#include "kb/seed.h"
#include "kb/store.h"
#include "search/search_loop.h"
#include "test_paths.h"

namespace kblaster::testing {

struct SearchSetup {
  TempDir tmp;
  Catalogue catalogue;
  std::optional<Store> store;
  const KernelSpec* spec = nullptr;
  Candidate baseline;
  SearchOptions options;

  // Fills the members; call through ASSERT_NO_FATAL_FAILURE. The options: breadth 4 x depth
  // 3, seed 7, sm_90 (with an sm_90a), task softmax_slow.
  void set_up() {
    const auto dir = source_dir() / "kb" / "catalogue";
    auto c = load_catalogue(read_text(dir / "techniques.json"), read_text(dir / "states.json"));
    ASSERT_TRUE(c.ok()) << c.error().message;
    catalogue = std::move(*c);
    open_store("kb.sqlite");
    spec = example_kernel("softmax_slow");
    ASSERT_NE(spec, nullptr);
    baseline.source = read_text(examples_dir() / spec->source);
    options.budget = {4, 3, 1e9, 0, 0.01};
    options.seed = 7;
    options.gpu = {"sm_90", true};
    options.task = "softmax_slow";
    options.now_unix = 1'700'000'000;
  }

  // A fresh KB at `name` in the test's folder, seeded with the catalogue, as `store`.
  void open_store(const std::string& name) {
    auto s = Store::open(tmp.path() / name);
    ASSERT_TRUE(s.ok()) << s.error().message;
    store.emplace(std::move(*s));
    ASSERT_TRUE(seed_catalogue(*store, catalogue).ok());
  }
};

}  // namespace kblaster::testing
