#include "test_paths.h"

#include <stdlib.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace kblaster::testing {

namespace {

// The build-time path, unless the environment moves it (a build tree carried to
// another machine, such as the GPU test machine).
std::filesystem::path configured(const char* variable, const char* built_in) {
  const char* env = std::getenv(variable);
  return env && *env ? env : built_in;
}

}  // namespace

std::filesystem::path source_dir() {
  return configured("KBLASTER_SOURCE_DIR", KBLASTER_SOURCE_DIR);
}
std::filesystem::path kblaster_binary() { return configured("KBLASTER_BINARY", KBLASTER_BINARY); }
std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::filesystem::path examples_dir() { return source_dir() / "examples" / "kernels"; }

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "kblaster-test-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::filesystem::path TempDir::write(const std::string& relative, const std::string& text) const {
  auto p = path_ / relative;
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

}  // namespace kblaster::testing
