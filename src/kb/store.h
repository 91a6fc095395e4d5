// The Knowledge Base file: one SQLite database (DESIGN.md, "Knowledge Base and
// MAIC-RL"). Every write is one transaction, so a killed run leaves a valid KB.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "kb/records.h"
#include "kb/sqlite.h"

namespace kblaster {

inline constexpr std::string_view kDefaultKbPath = ".kblaster/kb.sqlite";

// Whether record_trajectory stored the trajectory or already had its id.
enum class Recorded { added, already_present };
// Whether offer_best_kernel kept the offered kernel or the one already stored.
enum class Offered { kept_offer, kept_existing };

// An open KB. Not thread-safe: one Store per thread; several processes may share
// a file (WAL, busy timeout). Copy deleted: it owns the connection.
class Store {
 public:
  // Opens or creates the KB at `path` (parent directories created), sets WAL,
  // synchronous=FULL, foreign keys and a busy timeout, and migrates the schema.
  // Errors name the file.
  static Result<Store> open(const std::filesystem::path& path);
  Store(Store&&) noexcept = default;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::filesystem::path& path() const { return path_; }
  const Database& database() const { return db_; }

  // Stores all steps and their statistics in one transaction; a trajectory whose
  // id is present already changes nothing. Steps must be numbered 0..n-1.
  Result<Recorded> record_trajectory(const Trajectory& trajectory);
  // All-zero statistics when nothing was recorded for the key.
  Result<TechniqueStats> stats(std::string_view state, std::string_view technique,
                               std::string_view arch) const;
  Result<std::int64_t> trajectory_count() const;

  Result<std::optional<BestKernel>> best_kernel(std::string_view task) const;
  // Keeps the higher speedup; on a tie the lexically smaller source, so the
  // outcome does not depend on the order of offers.
  Result<Offered> offer_best_kernel(const BestKernel& kernel);

  // Records what a kernel cost a sweep: a newer record of (task, arch) replaces an older one.
  Status record_cost(const KernelCost& cost);
  // The newest cost of each task on `arch` (every arch when empty: the newest of any),
  // in seconds, by task.
  Result<std::map<std::string, double>> costs(std::string_view arch) const;

  // Stores `lesson` unless one with its id is there (see Lesson::id).
  Status add_lesson(const Lesson& lesson);
  // Lessons for (state, technique), oldest first.
  Result<std::vector<Lesson>> lessons(std::string_view state, std::string_view technique) const;

  // PRAGMA integrity_check's answer: "ok", or the problems it found.
  Result<std::string> integrity_check() const;

 private:
  Store(std::filesystem::path path, Database db) : path_(std::move(path)), db_(std::move(db)) {}
  std::filesystem::path path_;
  Database db_;
};

}  // namespace kblaster
