// The base of every gpu-labelled fixture: without a CUDA device its tests skip
// and say why. keep() saves a command's output where bench/run_on_device.sh
// collects it (KBLASTER_DEVICE_LOG_DIR), so real H200 runs can become fixtures.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.h"
#include "gpu/device_probe.h"

namespace kblaster::testing {

class OnDevice : public ::testing::Test {
 protected:
  // A fixture that adds to SetUp calls this first and returns if IsSkipped().
  void SetUp() override {
    const DeviceInfo device = CudaDriverProbe().probe();
    if (!device.present) GTEST_SKIP() << "no CUDA device: " << device.why_absent;
  }
  // Writes `r`'s stdout to NAME.json and its stderr to NAME.log in
  // $KBLASTER_DEVICE_LOG_DIR; nothing when it is not set.
  static void keep(const std::string& name, const CliResult& r) {
    if (const char* dir = std::getenv("KBLASTER_DEVICE_LOG_DIR")) {
      std::ofstream(std::filesystem::path(dir) / (name + ".json")) << r.out;
      std::ofstream(std::filesystem::path(dir) / (name + ".log")) << r.err;
    }
  }
};

}  // namespace kblaster::testing
