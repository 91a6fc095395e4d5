#include "loaded_object.h"

#include <dlfcn.h>

#include "cuda_check.h"

namespace kblaster::harness {

LoadedObject::LoadedObject(const std::string& path, const char* symbol) : path_(path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw HarnessFailure("cannot load `" + path + "`: " + dlerror());
  dlerror();
  symbol_ = dlsym(handle, symbol);
  if (!symbol_) {
    dlclose(handle);  // nothing of it ran yet, so unloading is safe
    throw HarnessFailure("`" + path + "` does not export " + symbol);
  }
  handle_ = handle;
}

void* LoadedObject::find(const std::string& name) const { return dlsym(handle_, name.c_str()); }

}  // namespace kblaster::harness
