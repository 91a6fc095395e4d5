#include "output_check.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace kblaster::harness {

Tolerance parse_tolerance(const nlohmann::json& j) {
  return {j.value("rtol", 0.0), j.value("atol", 0.0)};
}

Verdict compare_outputs(const std::vector<const ArgDesc*>& outputs, const OutputSnapshot& got,
                        const OutputSnapshot& expected, const Tolerance& tol) {
  Verdict first_failure;
  double max_abs = 0.0, max_rel = 0.0;
  bool have_rel = false;  // a relative error exists only against a normal float
  std::size_t bad = 0;
  for (std::size_t b = 0; b < outputs.size(); ++b) {
    const ArgDesc& a = *outputs[b];
    for (std::size_t i = 0; i < a.elements; ++i) {
      const double g = element_to_double(a.type, got[b].data(), i);
      const double r = element_to_double(a.type, expected[b].data(), i);
      std::string reason;
      const std::size_t size = element_size(a.type);
      if (!is_floating(a.type)) {
        // Integers compare exactly as integers (a double cannot hold every i64).
        const bool exact = tol.atol == 0.0 && tol.rtol == 0.0;
        const bool same = std::memcmp(&got[b][i * size], &expected[b][i * size], size) == 0;
        const double err = std::fabs(g - r);
        max_abs = std::max(max_abs, err);
        if (exact ? !same : err > tol.atol + tol.rtol * std::fabs(r)) reason = "wrong_result";
      } else if (std::isfinite(r) && !std::isfinite(g)) {
        reason = "nonfinite";
      } else if (!std::isfinite(r)) {
        if (!(std::isnan(r) ? std::isnan(g) : g == r)) reason = "wrong_result";
      } else {
        const double err = std::fabs(g - r);
        max_abs = std::max(max_abs, err);
        // Relative error only against normal numbers: a subnormal would make it infinite.
        if (std::fabs(r) >= std::numeric_limits<double>::min()) {
          max_rel = std::max(max_rel, err / std::fabs(r));
          have_rel = true;
        }
        if (err > tol.atol + tol.rtol * std::fabs(r)) reason = "wrong_result";
      }
      if (reason.empty()) continue;
      if (bad++ == 0)
        first_failure =
            Verdict::failure(reason,
                             "`" + a.name + "`[" + std::to_string(i) + "] is " + std::to_string(g) +
                                 ", expected " + std::to_string(r),
                             {{"buffer", a.name}, {"index", i}, {"got", g}, {"expected", r}});
    }
  }
  // Without a normal expected value there is no relative error: null, not 0.
  const nlohmann::json rel = have_rel ? nlohmann::json(max_rel) : nlohmann::json(nullptr);
  if (bad == 0) {
    Verdict ok;
    ok.detail = {{"max_abs_error", max_abs}, {"max_rel_error", rel}};
    return ok;
  }
  first_failure.detail["bad_elements"] = bad;
  first_failure.detail["max_abs_error"] = max_abs;
  first_failure.detail["max_rel_error"] = rel;
  first_failure.message += " (" + std::to_string(bad) + " bad elements; max abs error " +
                           std::to_string(max_abs) + ", " +
                           (have_rel ? "max rel error " + std::to_string(max_rel)
                                     : "no relative error (no expected value is a normal float)") +
                           ")";
  return first_failure;
}

Verdict find_unwritten(const std::vector<const ArgDesc*>& outputs, const OutputSnapshot& first,
                       const OutputSnapshot& second, unsigned char p1, unsigned char p2) {
  for (std::size_t b = 0; b < outputs.size(); ++b) {
    const ArgDesc& a = *outputs[b];
    if (a.role != Role::out) continue;
    const std::size_t size = element_size(a.type);
    std::size_t unwritten = 0, first_index = 0;
    for (std::size_t i = 0; i < a.elements; ++i) {
      bool kept = true;
      for (std::size_t k = 0; k < size && kept; ++k)
        kept = first[b][i * size + k] == p1 && second[b][i * size + k] == p2;
      if (kept && unwritten++ == 0) first_index = i;
    }
    if (unwritten > 0)
      return Verdict::failure(
          "output_unwritten",
          std::to_string(unwritten) + " of " + std::to_string(a.elements) + " elements of `" +
              a.name + "` were never written, the first at index " + std::to_string(first_index),
          {{"buffer", a.name}, {"index", first_index}, {"bad_elements", unwritten}});
  }
  return {};
}

Verdict find_mutated(const std::vector<const ArgDesc*>& inputs, const OutputSnapshot& uploaded,
                     const OutputSnapshot& after) {
  for (std::size_t b = 0; b < inputs.size(); ++b) {
    const auto& before = uploaded[b];
    if (before == after[b]) continue;
    const ArgDesc& a = *inputs[b];
    const std::size_t size = element_size(a.type);
    std::size_t changed = 0, first_index = 0;
    for (std::size_t i = 0; i < a.elements; ++i)
      if (std::memcmp(&before[i * size], &after[b][i * size], size) != 0 && changed++ == 0)
        first_index = i;
    return Verdict::failure(
        "input_mutated",
        "the launch changed " + std::to_string(changed) + " elements of input `" + a.name +
            "`, the first at index " + std::to_string(first_index),
        {{"buffer", a.name}, {"index", first_index}, {"bad_elements", changed}});
  }
  return {};
}

Verdict out_of_bounds_write(const ArgDesc& buffer, GuardSide side, const GuardDamage& damage) {
  const auto size = static_cast<std::int64_t>(element_size(buffer.type));
  const auto first = static_cast<std::int64_t>(damage.first);
  const std::int64_t offset = side == GuardSide::before
                                  ? first - static_cast<std::int64_t>(kGuardBytes)
                                  : static_cast<std::int64_t>(buffer.bytes()) + first;
  // Floor division: the byte just before the start lies in element -1.
  const std::int64_t index = offset >= 0 ? offset / size : -((-offset + size - 1) / size);
  const bool before = side == GuardSide::before;
  return Verdict::failure(
      "out_of_bounds_write",
      std::string("the launch wrote ") + (before ? "before the start" : "past the end") + " of `" +
          buffer.name + "` (" + std::to_string(buffer.elements) + " elements): " +
          std::to_string(damage.changed) + " bytes of the " + std::to_string(kGuardBytes) +
          "-byte guard " + guard_side_name(side) + " it changed, the first at byte offset " +
          std::to_string(offset) + " from its start (element " + std::to_string(index) + ")",
      {{"buffer", buffer.name},
       {"side", guard_side_name(side)},
       {"offset_bytes", offset},
       {"index", index},
       {"bytes_changed", damage.changed},
       {"guard_bytes", kGuardBytes}});
}

}  // namespace kblaster::harness
