// A candidate or reference object loaded with dlopen(RTLD_NOW | RTLD_LOCAL).
// Objects are never unloaded: each holds a static CUDA runtime whose teardown
// must run at process exit, not at dlclose (src/gpu/compiler.cc says why).
#pragma once

#include <string>

namespace kblaster::harness {

class LoadedObject {
 public:
  // Loads `path` and resolves `symbol`; throws HarnessFailure with dlerror() on failure.
  LoadedObject(const std::string& path, const char* symbol);
  void* symbol() const { return symbol_; }
  // Another symbol it exports; nullptr when it has none of that name.
  void* find(const std::string& name) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  void* symbol_ = nullptr;
  void* handle_ = nullptr;
};

}  // namespace kblaster::harness
