#include "profile/roofline.h"

#include <algorithm>

namespace kblaster {

RooflinePosition roofline_position(double min_bytes, double flops, double measured_s,
                                   const MeasuredCeilings& ceilings) {
  RooflinePosition p;
  if (ceilings.dram_bytes_per_s > 0.0) p.memory_floor_s = min_bytes / ceilings.dram_bytes_per_s;
  if (ceilings.fp32_flops_per_s > 0.0 && flops > 0.0)
    p.compute_floor_s = flops / ceilings.fp32_flops_per_s;
  p.floor_s = std::max(p.memory_floor_s, p.compute_floor_s);
  p.limit = p.compute_floor_s > p.memory_floor_s ? "compute" : "memory";
  p.share_of_limit = measured_s > 0.0 ? p.floor_s / measured_s : 0.0;
  p.arithmetic_intensity = min_bytes > 0.0 ? flops / min_bytes : 0.0;
  p.min_bytes = min_bytes;
  return p;
}

}  // namespace kblaster
