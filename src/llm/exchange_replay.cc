#include "llm/exchange_replay.h"

#include "llm/request_json.h"

namespace kblaster {

Result<LlmAnswer> ReplayBackend::complete(const LlmRequest& request) {
  auto hash = prompt_hash(request);
  if (!hash) return hash.error();
  const int occurrence = occurrences_.next(*hash);
  auto stored = store_.load(*hash, occurrence);
  if (!stored) return stored.error();
  if (!*stored)
    return Error::usage(
        "--replay " + store_.dir().string() + ": no stored answer to the " + request.purpose +
        " prompt " + *hash +
        (occurrence > 1 ? " (asked " + std::to_string(occurrence) + " times)" : std::string()) +
        "; the recorded run did not ask it");
  if (!(*stored)->answer) return Error::remote((*stored)->failure);
  return *(*stored)->answer;
}

}  // namespace kblaster
