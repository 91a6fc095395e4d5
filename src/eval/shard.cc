#include "eval/shard.h"

#include <algorithm>
#include <charconv>

#include "core/stable_hash.h"

namespace kblaster {
namespace {

constexpr int kMaxShards = 4096;

std::optional<long> integer(std::string_view text) {
  long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

Result<Shard> checked(long index, long count, std::string_view where, std::string_view text) {
  if (count < 1 || count > kMaxShards || index < 1 || index > count)
    return Error::usage(
        std::string(where) + ": `" + std::string(text) +
        "` is no shard: expected K/N with 1 <= K <= N <= " + std::to_string(kMaxShards));
  return Shard{static_cast<int>(index), static_cast<int>(count)};
}

// The variable's integer value, nullopt when unset; Error::usage naming it when not an integer.
Result<std::optional<long>> integer_variable(const EnvironmentLookup& env, const char* name) {
  const auto value = env(name);
  if (!value) return std::optional<long>();
  const auto n = integer(*value);
  if (!n) return Error::usage(std::string(name) + "=`" + *value + "` is not an integer");
  return std::optional<long>(*n);
}

}  // namespace

Result<Shard> parse_shard(std::string_view text, std::string_view where) {
  const auto slash = text.find('/');
  const auto index = integer(text.substr(0, slash));
  const auto count =
      slash == std::string_view::npos ? std::nullopt : integer(text.substr(slash + 1));
  if (!index || !count) return checked(0, 0, where, text);
  return checked(*index, *count, where, text);
}

Result<std::optional<Shard>> shard_from_environment(const EnvironmentLookup& env) {
  if (const auto named = env("KBLASTER_SHARD")) {
    auto shard = parse_shard(*named, "KBLASTER_SHARD");
    if (!shard) return shard.error();
    return std::optional(*shard);
  }
  auto slurm_id = integer_variable(env, "SLURM_ARRAY_TASK_ID");
  if (!slurm_id) return slurm_id.error();
  if (*slurm_id) {
    auto count = integer_variable(env, "SLURM_ARRAY_TASK_COUNT");
    if (!count) return count.error();
    auto min = integer_variable(env, "SLURM_ARRAY_TASK_MIN");
    if (!min) return min.error();
    if (!*count)
      return Error::usage("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not");
    const long index = **slurm_id - min->value_or(0) + 1;
    auto shard = checked(index, **count, "SLURM_ARRAY_TASK_ID",
                         std::to_string(index) + "/" + std::to_string(**count));
    if (!shard) return shard.error();
    return std::optional(*shard);
  }
  auto k8s = integer_variable(env, "JOB_COMPLETION_INDEX");
  if (!k8s) return k8s.error();
  if (*k8s) {
    auto count = integer_variable(env, "KBLASTER_SHARD_COUNT");
    if (!count) return count.error();
    if (!*count)
      return Error::usage(
          "JOB_COMPLETION_INDEX is set but KBLASTER_SHARD_COUNT is not: set it to the Job's "
          "completions");
    auto shard = checked(**k8s + 1, **count, "JOB_COMPLETION_INDEX",
                         std::to_string(**k8s + 1) + "/" + std::to_string(**count));
    if (!shard) return shard.error();
    return std::optional(*shard);
  }
  return std::optional<Shard>();
}

std::vector<std::string> shard_kernels(std::vector<std::string> names,
                                       const std::map<std::string, double>& cost, Shard shard) {
  std::vector<double> known;
  for (const auto& n : names)
    if (const auto it = cost.find(n); it != cost.end() && it->second > 0)
      known.push_back(it->second);
  double fallback = 1.0;
  if (!known.empty()) {
    std::sort(known.begin(), known.end());
    fallback = known[known.size() / 2];
  }
  const auto seconds = [&](const std::string& n) {
    const auto it = cost.find(n);
    return it != cost.end() && it->second > 0 ? it->second : fallback;
  };
  std::sort(names.begin(), names.end(), [&](const std::string& a, const std::string& b) {
    const double ca = seconds(a), cb = seconds(b);
    return ca != cb ? ca > cb : a < b;
  });
  std::vector<double> load(static_cast<std::size_t>(std::max(1, shard.count)), 0.0);
  std::vector<std::string> mine;
  for (const auto& n : names) {
    const auto least = std::min_element(load.begin(), load.end()) - load.begin();
    load[static_cast<std::size_t>(least)] += seconds(n);
    if (least + 1 == shard.index) mine.push_back(n);
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

std::string split_digest(const std::vector<std::string>& names,
                         const std::map<std::string, double>& cost, int count) {
  std::string all;
  for (int k = 1; k <= count; ++k)
    for (const auto& n : shard_kernels(names, cost, {k, count}))
      all += std::to_string(k) + ":" + n + "\n";
  return stable_hash(all).substr(0, 12);
}

}  // namespace kblaster
