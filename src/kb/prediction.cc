#include "kb/prediction.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace kblaster {

namespace {

// The measured statistics of one technique at each back-off level.
struct Levels {
  TechniqueStats exact, similar_state, other_arch;
};

void add(TechniqueStats& to, const TechniqueStats& row) {
  to.attempts += row.attempts;
  to.measured += row.measured;
  to.sum_log_speedup += row.sum_log_speedup;
  to.sum_sq_log_speedup += row.sum_sq_log_speedup;
}

// Rows of the state's class (or of the state alone if its key has no dot), every arch.
// Both forms are range scans of the stats primary key (state, technique, arch).
Result<std::map<std::string, Levels, std::less<>>> read_levels(const Database& db,
                                                               std::string_view state,
                                                               std::string_view arch) {
  const std::size_t dot = state.find('.');
  const bool has_class = dot != std::string_view::npos;
  const std::string lo(has_class ? state.substr(0, dot + 1) : state);  // "memory."
  std::string hi(lo);
  if (has_class) hi.back() = '/';  // "memory/": '/' follows '.'
  constexpr const char* kColumns =
      "SELECT state, technique, arch, attempts, measured, sum_log_speedup, sum_sq_log_speedup "
      "FROM stats ";
  Result<Statement> st =
      db.prepare(std::string(kColumns) +
                 (has_class ? "WHERE state >= ?1 AND state < ?2" : "WHERE state = ?1"));
  if (!st) return st.error();
  if (!has_class) {
    KB_TRY(st->bind({std::string_view(lo)}));
  } else {
    KB_TRY(st->bind({std::string_view(lo), std::string_view(hi)}));
  }
  std::map<std::string, Levels, std::less<>> levels;
  for (;;) {
    Result<bool> row = st->step();
    if (!row) return row.error();
    if (!*row) break;
    TechniqueStats s;
    s.attempts = st->int64(3);
    s.measured = st->int64(4);
    s.sum_log_speedup = st->real(5);
    s.sum_sq_log_speedup = st->real(6);
    const std::string row_state = st->text(0);
    const bool same_arch = st->text(2) == arch;
    Levels& l = levels[st->text(1)];
    if (same_arch) add(l.similar_state, s);
    if (row_state == state) {
      add(l.other_arch, s);
      if (same_arch) add(l.exact, s);
    }
  }
  return levels;
}

// k of the header: the prior as pseudo-observations.
double prior_count(const Prior& prior, const PredictionOptions& o) {
  return o.prior_weight * prior.confidence;
}

// s_eff^2 of the header: the steps' variance, with one pseudo-observation of unit_sd^2.
double step_variance(const TechniqueStats& s, const PredictionOptions& o) {
  const double n = static_cast<double>(s.measured);
  const double unit_var = o.unit_sd * o.unit_sd;
  return n > 0 ? ((n - 1) * s.variance_log_speedup() + unit_var) / n : unit_var;
}

// rho of the header: the chance a step is measured, the prior's k steps all measured.
double measured_share(const TechniqueStats& s, double k) {
  const double n = static_cast<double>(s.measured), a = static_cast<double>(s.attempts);
  return a + k > 0 ? (n + k) / (a + k) : 1.0;
}

Prediction prediction(const TechniqueStats& s, double gain, double uncertainty) {
  Prediction p;
  p.expected_log_speedup = gain;
  p.uncertainty = uncertainty;
  p.evidence = s.measured;
  p.attempts = s.attempts;
  return p;
}

// Applies the header's formulas to `s` (all zero for the prior and none levels).
Prediction estimate(const TechniqueStats& s, const Prior& prior, const PredictionOptions& o) {
  const double n = static_cast<double>(s.measured);
  const double k = prior_count(prior, o);
  const double mu =
      n + k > 0 ? (s.sum_log_speedup + k * prior.expected_log_speedup) / (n + k) : 0.0;
  return prediction(s, measured_share(s, k) * mu,
                    std::sqrt(step_variance(s, o) / std::max(n + k, 1.0)));
}

// The header's borrowed-level formulas: `s` pools other states or archs.
Prediction estimate_borrowed(const TechniqueStats& s, const Prior& prior,
                             const PredictionOptions& o) {
  const Prediction base = estimate(TechniqueStats{}, prior, o);  // the prior level, or none
  const double n = static_cast<double>(s.measured);
  const double w_b = 1.0 / (base.uncertainty * base.uncertainty);
  double mu = base.expected_log_speedup;
  double w = w_b;
  if (n > 0) {
    const double w_m = 1.0 / (step_variance(s, o) / n + o.borrow_sd * o.borrow_sd);
    w = w_m + w_b;
    mu = (s.sum_log_speedup / n * w_m + base.expected_log_speedup * w_b) / w;
  }
  return prediction(s, measured_share(s, prior_count(prior, o)) * mu, std::sqrt(1.0 / w));
}

}  // namespace

const char* prediction_source_name(Prediction::Source source) {
  switch (source) {
    case Prediction::Source::exact:
      return "exact";
    case Prediction::Source::similar_state:
      return "similar_state";
    case Prediction::Source::other_arch:
      return "other_arch";
    case Prediction::Source::prior:
      return "prior";
    case Prediction::Source::none:
      return "none";
  }
  return "none";
}

Result<std::vector<Prediction>> predict(const Store& store, const Catalogue& catalogue,
                                        std::string_view state, std::string_view arch,
                                        PredictionOptions options) {
  auto levels = read_levels(store.database(), state, arch);
  if (!levels) return levels.error();
  const PerfStateInfo* info = catalogue.find_state(std::string(state));
  const Levels empty;
  std::vector<Prediction> out;
  out.reserve(catalogue.techniques.size());
  for (const Technique& t : catalogue.techniques) {
    const auto found = levels->find(t.id);
    const Levels& l = found == levels->end() ? empty : found->second;
    const Prior* found_prior = nullptr;
    if (info) {
      const auto it = info->priors.find(t.id);
      if (it != info->priors.end()) found_prior = &it->second;
    }
    const bool has_prior = found_prior != nullptr;
    const Prior prior = has_prior ? *found_prior : Prior{};
    const std::pair<const TechniqueStats*, Prediction::Source> order[] = {
        {&l.exact, Prediction::Source::exact},
        {&l.similar_state, Prediction::Source::similar_state},
        {&l.other_arch, Prediction::Source::other_arch}};
    Prediction p = estimate(TechniqueStats{}, prior, options);
    p.source = has_prior ? Prediction::Source::prior : Prediction::Source::none;
    for (const auto& [stats, source] : order) {
      if (stats->attempts < options.min_evidence) continue;
      p = source == Prediction::Source::exact ? estimate(*stats, prior, options)
                                              : estimate_borrowed(*stats, prior, options);
      p.source = source;
      break;
    }
    p.technique = t.id;
    p.attempts_here = l.exact.attempts;
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(), [](const Prediction& x, const Prediction& y) {
    if (x.expected_log_speedup != y.expected_log_speedup)
      return x.expected_log_speedup > y.expected_log_speedup;
    return x.technique < y.technique;
  });
  return out;
}

}  // namespace kblaster
