// A run's prompts and answers on disk, one JSON file per exchange, named by the prompt's
// hash: what `--replay DIR` answers from, and a record of what the model was asked.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "llm/llm_backend.h"

namespace kblaster {

// Bytes of one stored exchange that are read: the largest prompt and answer, with room.
inline constexpr std::size_t kMaxExchangeBytes = 16 * 1024 * 1024;

// One call to a model: the request, and its answer or the remote failure it met.
struct Exchange {
  LlmRequest request;
  std::optional<LlmAnswer> answer;  // nullopt when the call failed
  std::string failure;              // the Error::remote's message when it failed
  std::string backend;              // the LlmBackend's name()
};

// The directory of one run's exchanges. The first time a run asks a prompt its exchange is
// <dir>/<hash>.json; the nth time (n >= 2), <dir>/<hash>-<n>.json, so a search that asks the
// same prompt twice replays both answers in order. Each file holds {request, answer,
// backend, model, usage, seconds}, and stop_reason, or error for a failed call.
class ExchangeStore {
 public:
  explicit ExchangeStore(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // The file of the `occurrence`th asking (from 1) of the prompt `hash`.
  std::filesystem::path file_of(std::string_view hash, int occurrence) const;

  // Writes `exchange` whole by rename (replace_file), creating the directory; errors are
  // replace_file's (a full disk is exit 3, naming the path).
  Status save(const Exchange& exchange, std::string_view hash, int occurrence) const;

  // The stored exchange, nullopt when there is no such file. A file that is too large, not
  // JSON, malformed, or holds another prompt than `hash` is an Error::usage naming it.
  Result<std::optional<Exchange>> load(std::string_view hash, int occurrence) const;

  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

// How many times each prompt has been asked so far in a run. Thread-safe.
class PromptOccurrences {
 public:
  // The occurrence of this asking of `hash`: 1 the first time, then 2, 3, ….
  int next(const std::string& hash);

 private:
  std::mutex mutex_;
  std::map<std::string, int> count_;
};

}  // namespace kblaster
