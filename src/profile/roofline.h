// Where a measurement sits under the roofline of measured ceilings: the floor
// time the workload cannot beat (minimum bytes at peak bandwidth, FLOPs at peak
// FLOP/s) and the share of that limit the measurement reached.
#pragma once

#include <optional>
#include <string>

namespace kblaster {

// Ceilings measured on this GPU (not datasheet values).
struct MeasuredCeilings {
  double dram_bytes_per_s = 0.0;
  double fp32_flops_per_s = 0.0;
  std::optional<double> tensor_flops_per_s;  // bf16 MMA, when measured
};

struct RooflinePosition {
  double floor_s = 0.0;               // max(memory floor, compute floor)
  double memory_floor_s = 0.0;        // min_bytes / DRAM peak
  double compute_floor_s = 0.0;       // flops / FP32 peak (0 without FLOPs)
  double share_of_limit = 0.0;        // floor_s / measured time (1 = at the roofline)
  std::string limit;                  // "memory" or "compute": the larger floor
  double arithmetic_intensity = 0.0;  // flops / min_bytes
  double min_bytes = 0.0;             // the workload's minimum DRAM traffic
};

// The position of a kernel moving `min_bytes` and doing `flops` in `measured_s`.
RooflinePosition roofline_position(double min_bytes, double flops, double measured_s,
                                   const MeasuredCeilings& ceilings);

}  // namespace kblaster
