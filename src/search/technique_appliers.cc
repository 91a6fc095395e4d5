#include "search/technique_appliers.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <type_traits>

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

Candidate child_of(const Candidate& parent, std::string_view technique, std::string change) {
  Candidate c = parent;
  c.path.emplace_back(technique);
  c.changes.push_back(std::move(change));
  return c;
}

Proposal rewrite(const Candidate& parent, std::string_view technique, const SourceRewrite& r) {
  if (!r.changed) return declined(r.description);
  Candidate c = child_of(parent, technique, r.description);
  c.source = r.source;
  return offered(std::move(c));
}

Proposal flag(const Candidate& parent, std::string_view technique, const std::string& f,
              const std::string& change) {
  if (std::find(parent.extra_flags.begin(), parent.extra_flags.end(), f) !=
      parent.extra_flags.end())
    return declined("already built with " + f);
  Candidate c = child_of(parent, technique, change);
  c.extra_flags.push_back(f);
  return offered(std::move(c));
}

// Spec tunables of one kind: every value other than the parent's current one.
template <class V>
void tunable_children(const Candidate& parent, std::string_view technique, const std::string& name,
                      const std::vector<V>& values, std::map<std::string, V> Candidate::*field,
                      Proposal& p) {
  const auto& current = parent.*field;
  const V now = current.count(name) ? current.at(name) : values.front();
  auto text = [](const V& v) {
    if constexpr (std::is_same_v<V, std::string>)
      return v;
    else
      return std::to_string(v);
  };
  for (const V& v : values) {
    if (v == now) continue;
    Candidate c = child_of(parent, technique,
                           "set tunable " + name + " = " + text(v) + " (was " + text(now) + ")");
    (c.*field)[name] = v;
    p.children.push_back(std::move(c));
  }
}

Proposal tunables(const Candidate& parent, std::string_view technique, const KernelSpec& spec,
                  bool launcher_args) {
  Proposal p;
  if (launcher_args) {
    for (const auto& a : spec.args)
      if (a.tunable.size() > 1)
        tunable_children(parent, technique, a.name, a.tunable, &Candidate::launcher_args, p);
  } else {
    for (const auto& t : spec.tunables)
      if (t.values.size() > 1)
        tunable_children(parent, technique, t.name, t.values, &Candidate::macros, p);
  }
  if (p.children.empty())
    p.why_not = launcher_args ? "the spec declares no launcher-argument tunable"
                              : "the spec declares no -D tunable";
  return p;
}

// The child the profile argues for when the grid leaves SMs idle: for each
// candidate value v of a constant now k, the grid becomes about grid * k / v
// blocks; the largest v that reaches the SM count wins, else the smallest v.
// A constant in two block dimensions (dim3(k, k)) scales the grid by (k / v)^2,
// so the estimate errs low there and the pick is a smaller block than needed.
bool prefer_filling_block(const LaunchShape& shape,
                          const std::vector<std::pair<std::int64_t, std::int64_t>>& values,
                          Proposal& p) {
  if (!shape.grid_size || !shape.sm_count || *shape.grid_size <= 0 ||
      *shape.grid_size >= *shape.sm_count)
    return false;
  std::optional<std::size_t> pick;
  auto blocks = [&](std::size_t i) {
    return *shape.grid_size * double(values[i].first) / double(values[i].second);
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

// Block-size constants in the source: the usual power-of-two sizes not yet taken.
Proposal launch_geometry(const Candidate& parent, std::string_view technique,
                         const LaunchShape& shape) {
  Proposal p;
  std::vector<std::pair<std::int64_t, std::int64_t>> values;  // (now, proposed) per child
  for (const LaunchConstant& k : find_launch_constants(parent.source))
    for (std::int64_t v : {32, 64, 128, 256, 512, 1024}) {
      if (v == k.value) continue;
      const SourceRewrite r = set_launch_constant(parent.source, k, v);
      if (!r.changed) continue;
      Candidate c = child_of(parent, technique, r.description);
      c.source = r.source;
      p.children.push_back(std::move(c));
      values.emplace_back(k.value, v);
    }
  if (p.children.empty()) p.why_not = "no compile-time block-size constant in the source";
  if (!prefer_filling_block(shape, values, p)) prefer_neighbours(values, p);
  return p;
}

// The embedded techniques: whether one may apply again on a path that has it
// (tunables and launch constants take other values; flags and rewrites are done
// once), and whether its children differ from their parent in source alone.
struct EmbeddedTechnique {
  std::string_view id;
  bool repeats;
  bool source_only;
};
constexpr EmbeddedTechnique kEmbedded[] = {
    {.id = "restrict_pointers", .repeats = false, .source_only = true},
    {.id = "launch_bounds", .repeats = false, .source_only = true},
    {.id = "loop_unrolling", .repeats = false, .source_only = true},
    {.id = "launch_geometry_tuning", .repeats = true, .source_only = true},
    {.id = "tile_size_tuning", .repeats = true, .source_only = false},
    {.id = "occupancy_tuning", .repeats = true, .source_only = false},
    {.id = "fast_math", .repeats = false, .source_only = false},
    {.id = "max_register_cap", .repeats = true, .source_only = false},
    {.id = "cache_loads_in_l1", .repeats = false, .source_only = false},
    {.id = "target_native_arch", .repeats = false, .source_only = false},
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
  const bool once = embedded && !embedded->repeats;
  if (once && on_path(parent, technique)) return declined("already applied on this path");
  if (technique == "restrict_pointers")
    return rewrite(parent, technique, add_restrict(parent.source));
  if (technique == "launch_bounds")
    return rewrite(parent, technique, add_launch_bounds(parent.source));
  if (technique == "loop_unrolling")
    return rewrite(parent, technique, unroll_constant_loops(parent.source));
  if (technique == "launch_geometry_tuning") return launch_geometry(parent, technique, shape);
  if (technique == "tile_size_tuning") return tunables(parent, technique, spec, false);
  if (technique == "occupancy_tuning") return tunables(parent, technique, spec, true);
  if (technique == "fast_math")
    return flag(parent, technique, "-use_fast_math",
                "built with -use_fast_math (kept only if it verifies at the kernel's tolerance)");
  if (technique == "cache_loads_in_l1")
    return flag(parent, technique, "-Xptxas=-dlcm=ca", "global loads cached in L1 (-dlcm=ca)");
  if (technique == "max_register_cap") {
    Proposal p;
    for (int cap : {32, 64, 128}) {
      const std::string f = "--maxrregcount=" + std::to_string(cap);
      auto single = flag(parent, technique, f, "registers capped at " + std::to_string(cap));
      for (auto& c : single.children) {
        // One cap at a time: drop an earlier cap.
        std::erase_if(c.extra_flags, [&](const std::string& x) {
          return x != f && x.rfind("--maxrregcount=", 0) == 0;
        });
        p.children.push_back(std::move(c));
      }
    }
    if (p.children.empty()) p.why_not = "every cap was tried on this path";
    return p;
  }
  if (technique == "target_native_arch") {
    if (!gpu.has_arch_specific) return declined(gpu.arch + " has no arch-specific (a) variant");
    Candidate c = child_of(parent, technique, "built for " + gpu.arch + "a");
    c.arch = gpu.arch + "a";
    return offered(std::move(c));
  }
  return declined("no embedded applier (needs an LLM backend)");
}

}  // namespace kblaster
