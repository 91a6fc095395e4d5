#include "eval/ceilings_cache.h"

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>

#include "core/bounded_read.h"
#include "core/file_replace.h"
#include "core/input_limits.h"

namespace kblaster {
namespace {

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

void print(Session& session, const MeasuredCeilings& c) {
  session.progress << "DRAM " << c.dram_bytes_per_s / 1e12 << " TB/s (device-to-device copy), FP32 "
                   << c.fp32_flops_per_s / 1e12 << " TFLOP/s (FMA chains)";
  if (c.tensor_flops_per_s)
    session.progress << ", bf16 tensor " << *c.tensor_flops_per_s / 1e12 << " TFLOP/s (wmma)";
}

}  // namespace

Result<MeasuredCeilings> measured_ceilings(HarnessClient& harness, const std::string& gpu_name,
                                           const std::filesystem::path& file, Session& session) {
  nlohmann::json all = nlohmann::json::object();
  if (std::error_code ec; std::filesystem::exists(file, ec)) {
    // The cache sits in the repository by default, so it is read as untrusted input.
    const auto text = read_bounded(file, kMaxJsonBytes, "ceilings cache");
    all = text ? nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false) : nullptr;
    if (!all.is_object()) {
      session.progress << "ceilings: "
                       << (text ? file.string() + " does not parse" : text.error().message)
                       << "; measuring again\n";
      all = nlohmann::json::object();
    }
  }
  if (auto it = all.find(gpu_name); it != all.end() && it->is_object()) {
    const auto& j = *it;
    MeasuredCeilings c{j.value("dram_bytes_per_s", 0.0), j.value("fp32_flops_per_s", 0.0), {}};
    if (j.contains("tensor_flops_per_s") && j["tensor_flops_per_s"].is_number())
      c.tensor_flops_per_s = j["tensor_flops_per_s"].get<double>();
    if (c.dram_bytes_per_s > 0 && c.fp32_flops_per_s > 0) {
      session.progress << "ceilings of " << gpu_name << " (measured " << j.value("measured", "?")
                       << ", cached in " << file.string() << "): ";
      print(session, c);
      session.progress << "\n";
      return c;
    }
  }
  auto dram = harness.peak_bandwidth();
  if (!dram) return dram.error();
  auto fp32 = harness.peak_fp32();
  if (!fp32) return fp32.error();
  // The tensor ceiling is informational (the roofline uses DRAM and FP32): a GPU
  // without bf16 MMA, or a failure here, leaves it unmeasured rather than failing.
  auto tensor = harness.peak_tensor();
  if (!tensor)
    session.progress << "ceilings: no tensor-core ceiling (" << tensor.error().message << ")\n";
  const MeasuredCeilings c{*dram, *fp32, tensor ? std::optional<double>(*tensor) : std::nullopt};
  all[gpu_name] = {
      {"dram_bytes_per_s", c.dram_bytes_per_s},
      {"fp32_flops_per_s", c.fp32_flops_per_s},
      {"tensor_flops_per_s",
       c.tensor_flops_per_s ? nlohmann::json(*c.tensor_flops_per_s) : nlohmann::json()},
      {"measured", utc_now()}};
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  // Two runs may measure at once (one per GPU): replace_file's temporaries differ.
  KB_TRY(replace_file(file, all.dump(2) + "\n"));
  session.progress << "measured ceilings of " << gpu_name << ": ";
  print(session, c);
  session.progress << " (saved to " << file.string() << ")\n";
  return c;
}

}  // namespace kblaster
