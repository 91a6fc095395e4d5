#include "search/technique_appliers.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <type_traits>

#include "core/launch_plan.h"
#include "transform/launch_bounds.h"
#include "transform/launch_constants.h"
#include "transform/loop_unroll.h"
#include "transform/restrict.h"

namespace kblaster {
namespace {

Proposal declined(std::string why) {
  Proposal p;
  p.why_not = std::move(why);
  return p;
}

Proposal offered(Candidate child) {
  Proposal p;
  p.children.push_back(std::move(child));
  return p;
}

bool on_path(const Candidate& c, std::string_view technique) {
  return std::find(c.path.begin(), c.path.end(), technique) != c.path.end();
}

// What a technique proposes from: the parent, the technique's id (each child's
// new path entry), and what decides the children.
struct Request {
  const Candidate& parent;
  std::string_view technique;
  const KernelSpec& spec;
  const TargetGpu& gpu;
  const LaunchShape& shape;
};

Candidate child_of(const Request& r, std::string change) {
  Candidate c = r.parent;
  c.path.emplace_back(r.technique);
  c.changes.push_back(std::move(change));
  return c;
}

Proposal rewrite(const Request& r, const SourceRewrite& w) {
  if (!w.changed) return declined(w.description);
  Candidate c = child_of(r, w.description);
  c.source = w.source;
  return offered(std::move(c));
}

Proposal flag(const Request& r, const std::string& f, const std::string& change) {
  if (std::find(r.parent.extra_flags.begin(), r.parent.extra_flags.end(), f) !=
      r.parent.extra_flags.end())
    return declined("already built with " + f);
  Candidate c = child_of(r, change);
  c.extra_flags.push_back(f);
  return offered(std::move(c));
}

// Spec tunables of one kind: every value other than the parent's current one, but those whose
// child breaks the spec's `requires` at a size it runs (each said in `refused`).
template <class V>
void tunable_children(const Request& r, const std::string& name, const std::vector<V>& values,
                      std::map<std::string, V> Candidate::*field, Proposal& p,
                      std::vector<std::string>& refused) {
  const auto& current = r.parent.*field;
  const V now = current.count(name) ? current.at(name) : values.front();
  auto text = [](const V& v) {
    if constexpr (std::is_same_v<V, std::string>)
      return v;
    else
      return std::to_string(v);
  };
  for (const V& v : values) {
    if (v == now) continue;
    Candidate c = child_of(r, "set tunable " + name + " = " + text(v) + " (was " + text(now) + ")");
    (c.*field)[name] = v;
    if (auto why = broken_by_tunables(r.spec, c.launcher_args, c.macros)) {
      refused.push_back(name + " = " + text(v) + " breaks " + *why);
      continue;
    }
    p.children.push_back(std::move(c));
  }
}

// Why a tunables technique proposes nothing: every value breaks `requires`, or there is none.
std::string no_tunable_child(const std::vector<std::string>& refused, const std::string& none) {
  return refused.empty() ? none : "every other value breaks `requires`: " + refused.front();
}

// tile_size_tuning: the spec's -D tunables (`tunables`).
Proposal macro_tunables(const Request& r) {
  Proposal p;
  std::vector<std::string> refused;
  for (const auto& t : r.spec.tunables)
    if (t.values.size() > 1) tunable_children(r, t.name, t.values, &Candidate::macros, p, refused);
  if (p.children.empty()) p.why_not = no_tunable_child(refused, "the spec declares no -D tunable");
  return p;
}

// occupancy_tuning: the spec's launcher-argument tunables (`args`, `tunable`).
Proposal arg_tunables(const Request& r) {
  Proposal p;
  std::vector<std::string> refused;
  for (const auto& a : r.spec.args)
    if (a.tunable.size() > 1)
      tunable_children(r, a.name, a.tunable, &Candidate::launcher_args, p, refused);
  if (p.children.empty())
    p.why_not = no_tunable_child(refused, "the spec declares no launcher-argument tunable");
  return p;
}

// The blocks the profiled grid would have with a block constant changed from
// `now` to `proposed`, assuming the grid is the work divided by the block: about
// grid * now / proposed. A constant in two block dimensions (dim3(k, k)) scales the
// grid by (now / proposed)^2, so there the estimate errs towards the current grid.
// nullopt without a profiled grid and SM count.
std::optional<double> scaled_grid(const LaunchShape& shape, std::int64_t now,
                                  std::int64_t proposed) {
  if (!shape.grid_size || !shape.sm_count || *shape.grid_size <= 0) return std::nullopt;
  return *shape.grid_size * double(now) / double(proposed);
}

// The child the profile argues for when the grid leaves SMs idle: among the
// smaller blocks (scaled_grid), the largest that reaches the SM count wins, else
// the smallest.
bool prefer_filling_block(const LaunchShape& shape,
                          const std::vector<std::pair<std::int64_t, std::int64_t>>& values,
                          Proposal& p) {
  const auto grid = scaled_grid(shape, 1, 1);  // the profiled grid, if any
  if (!grid || *grid >= *shape.sm_count) return false;
  std::optional<std::size_t> pick;
  auto blocks = [&](std::size_t i) {
    return *scaled_grid(shape, values[i].first, values[i].second);
  };
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i].second >= values[i].first) continue;  // only smaller blocks add blocks
    const bool fills = blocks(i) >= *shape.sm_count;
    if (!pick) {
      pick = i;
      continue;
    }
    const bool pick_fills = blocks(*pick) >= *shape.sm_count;
    if (fills && (!pick_fills || values[i].second > values[*pick].second))
      pick = i;
    else if (!fills && !pick_fills && values[i].second < values[*pick].second)
      pick = i;
  }
  if (!pick) return false;
  char because[160];
  std::snprintf(because, sizeof because,
                "the grid has %.0f blocks for %.0f SMs; this gives about %.0f", *shape.grid_size,
                *shape.sm_count, blocks(*pick));
  p.preferred = {p.children[*pick].fingerprint()};
  p.because = because;
  return true;
}

// Otherwise the neighbours: each constant at half or twice its value.
void prefer_neighbours(const std::vector<std::pair<std::int64_t, std::int64_t>>& values,
                       Proposal& p) {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i].second == 2 * values[i].first || 2 * values[i].second == values[i].first)
      p.preferred.push_back(p.children[i].fingerprint());
  if (!p.preferred.empty()) p.because = "a neighbouring size, half or twice the current one";
}

// True when raising the block constant from `now` to `proposed` would leave the
// grid (scaled_grid) with fewer blocks than the GPU has SMs. On the H200 no such
// child was faster: softmax_slow's 59 larger-block children in launch.grid_undersized
// were 29 SAME and 30 SLOWER (bench/results/2026-11-30-undersized-rule.md).
bool leaves_sms_without_a_block(const LaunchShape& shape, std::int64_t now, std::int64_t proposed) {
  const auto blocks = scaled_grid(shape, now, proposed);
  return proposed > now && blocks && *blocks < *shape.sm_count;
}

// Block-size constants in the source: the usual power-of-two sizes not yet taken,
// except larger blocks that would leave SMs without a block.
Proposal block_sizes(const Request& r) {
  Proposal p;
  std::vector<std::pair<std::int64_t, std::int64_t>> values;  // (now, proposed) per child
  bool shrinks_grid = false;
  for (const LaunchConstant& k : find_launch_constants(r.parent.source))
    for (std::int64_t v : {32, 64, 128, 256, 512, 1024}) {
      if (v == k.value) continue;
      if (leaves_sms_without_a_block(r.shape, k.value, v)) {
        shrinks_grid = true;
        continue;
      }
      const SourceRewrite w = set_launch_constant(r.parent.source, k, v);
      if (!w.changed) continue;
      Candidate c = child_of(r, w.description);
      c.source = w.source;
      p.children.push_back(std::move(c));
      values.emplace_back(k.value, v);
    }
  if (p.children.empty() && shrinks_grid) {
    char why[160];
    std::snprintf(why, sizeof why,
                  "the grid has %.0f blocks for %.0f SMs: a larger block would leave SMs without "
                  "a block, and no smaller size is left",
                  *r.shape.grid_size, *r.shape.sm_count);
    p.why_not = why;
  } else if (p.children.empty()) {
    p.why_not = "no compile-time block-size constant in the source";
  }
  if (!prefer_filling_block(r.shape, values, p)) prefer_neighbours(values, p);
  return p;
}

Proposal restrict_params(const Request& r) { return rewrite(r, add_restrict(r.parent.source)); }

Proposal launch_bounds(const Request& r) { return rewrite(r, add_launch_bounds(r.parent.source)); }

Proposal loop_unrolling(const Request& r) {
  return rewrite(r, unroll_constant_loops(r.parent.source));
}

Proposal fast_math(const Request& r) {
  return flag(r, "-use_fast_math",
              "built with -use_fast_math (kept only if it verifies at the kernel's tolerance)");
}

// One cap at a time: a child drops the parent's earlier cap.
Proposal register_caps(const Request& r) {
  Proposal p;
  for (int cap : {32, 64, 128}) {
    const std::string f = "--maxrregcount=" + std::to_string(cap);
    auto single = flag(r, f, "registers capped at " + std::to_string(cap));
    for (auto& c : single.children) {
      std::erase_if(c.extra_flags, [&](const std::string& x) {
        return x != f && x.rfind("--maxrregcount=", 0) == 0;
      });
      p.children.push_back(std::move(c));
    }
  }
  if (p.children.empty()) p.why_not = "every cap was tried on this path";
  return p;
}

Proposal cache_in_l1(const Request& r) {
  return flag(r, "-Xptxas=-dlcm=ca", "global loads cached in L1 (-dlcm=ca)");
}

Proposal native_arch(const Request& r) {
  if (!r.gpu.has_arch_specific) return declined(r.gpu.arch + " has no arch-specific (a) variant");
  Candidate c = child_of(r, "built for " + r.gpu.arch + "a");
  c.arch = r.gpu.arch + "a";
  return offered(std::move(c));
}

// The embedded techniques: whether one may apply again on a path that has it
// (tunables and launch constants take other values; flags and rewrites are done
// once), whether its children differ from their parent in source alone, and what
// it proposes.
struct EmbeddedTechnique {
  std::string_view id;
  bool repeats;
  bool source_only;
  Proposal (*propose)(const Request&);
};
constexpr EmbeddedTechnique kEmbedded[] = {
    {.id = "restrict_pointers", .repeats = false, .source_only = true, .propose = restrict_params},
    {.id = "launch_bounds", .repeats = false, .source_only = true, .propose = launch_bounds},
    {.id = "loop_unrolling", .repeats = false, .source_only = true, .propose = loop_unrolling},
    {.id = "launch_geometry_tuning", .repeats = true, .source_only = true, .propose = block_sizes},
    {.id = "tile_size_tuning", .repeats = true, .source_only = false, .propose = macro_tunables},
    {.id = "occupancy_tuning", .repeats = true, .source_only = false, .propose = arg_tunables},
    {.id = "fast_math", .repeats = false, .source_only = false, .propose = fast_math},
    {.id = "max_register_cap", .repeats = true, .source_only = false, .propose = register_caps},
    {.id = "cache_loads_in_l1", .repeats = false, .source_only = false, .propose = cache_in_l1},
    {.id = "target_native_arch", .repeats = false, .source_only = false, .propose = native_arch},
};

const EmbeddedTechnique* find_embedded(std::string_view id) {
  for (const auto& t : kEmbedded)
    if (t.id == id) return &t;
  return nullptr;
}

}  // namespace

const std::set<std::string>& embedded_techniques() {
  static const std::set<std::string> ids = [] {
    std::set<std::string> out;
    for (const auto& t : kEmbedded) out.emplace(t.id);
    return out;
  }();
  return ids;
}

bool has_arch_specific_variant(std::string_view arch) {
  for (std::string_view a : {"sm_90", "sm_100", "sm_101", "sm_120"})
    if (arch == a) return true;
  return false;
}

bool rewrites_source_only(std::string_view technique) {
  const auto* t = find_embedded(technique);
  return t && t->source_only;
}

Proposal propose(std::string_view technique, const Candidate& parent, const KernelSpec& spec,
                 const TargetGpu& gpu, const LaunchShape& shape) {
  const auto* embedded = find_embedded(technique);
  if (!embedded) return declined("no embedded applier (needs an LLM backend)");
  if (!embedded->repeats && on_path(parent, technique))
    return declined("already applied on this path");
  return embedded->propose({parent, technique, spec, gpu, shape});
}

}  // namespace kblaster
