#include "example_kernels.h"

#include <gtest/gtest.h>

#include "core/config_loader.h"
#include "core/source_tree.h"
#include "test_paths.h"

namespace kblaster::testing {

const Config& example_config() {
  static const Config config = [] {
    auto c = load_config(DirectoryTree(examples_dir()));
    if (c.ok()) return std::move(*c);
    ADD_FAILURE() << "examples/kernels: " << c.error().message;
    return Config{};
  }();
  return config;
}

const KernelSpec* example_kernel(std::string_view name) {
  for (const KernelSpec& k : example_config().kernels)
    if (k.name == name) return &k;
  ADD_FAILURE() << "no example kernel " << name;
  return nullptr;
}

}  // namespace kblaster::testing
