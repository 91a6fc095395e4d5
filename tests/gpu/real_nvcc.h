// The real nvcc for tests that compile (no GPU needed), found once per process.
#pragma once

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gpu/compiler.h"

namespace kblaster::testing {

// The nvcc NvccCompiler::find() picks, or null (with the reason) when there is none.
inline NvccCompiler* real_nvcc(std::string* why_missing = nullptr) {
  static Result<NvccCompiler> found = NvccCompiler::find();
  if (!found) {
    if (why_missing) *why_missing = found.error().message;
    return nullptr;
  }
  return &found.value();
}

// Skips the calling test when nvcc is missing.
#define KB_REQUIRE_NVCC(var)                                            \
  std::string kb_why_missing_;                                          \
  NvccCompiler* var = ::kblaster::testing::real_nvcc(&kb_why_missing_); \
  if (!var) GTEST_SKIP() << kb_why_missing_

// A dlopen'ed candidate object. Copy deleted: one owner closes the handle.
class LoadedObject {
 public:
  explicit LoadedObject(const std::filesystem::path& so)
      : handle_(::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL)) {}
  ~LoadedObject() {
    if (handle_) ::dlclose(handle_);
  }
  LoadedObject(const LoadedObject&) = delete;
  LoadedObject& operator=(const LoadedObject&) = delete;
  bool loaded() const { return handle_ != nullptr; }
  void* symbol(const char* name) const { return handle_ ? ::dlsym(handle_, name) : nullptr; }
  // What kblaster_entry_signature() returns; empty if the object lacks it.
  std::string signature() const {
    auto* fn = reinterpret_cast<const char* (*)()>(symbol("kblaster_entry_signature"));
    return fn ? fn() : "";
  }

 private:
  void* handle_;
};

}  // namespace kblaster::testing
