#include "llm/exchange_recording.h"

#include "llm/request_json.h"

namespace kblaster {

Result<LlmAnswer> RecordingBackend::complete(const LlmRequest& request) {
  auto hash = prompt_hash(request);
  if (!hash) return hash.error();
  const int occurrence = occurrences_.next(*hash);
  auto answer = inner_.complete(request);
  if (!answer && answer.error().kind != ErrorKind::remote) return answer;
  Exchange exchange{.request = request,
                    .answer = answer ? std::optional<LlmAnswer>(*answer) : std::nullopt,
                    .failure = answer ? std::string() : answer.error().message,
                    .backend = std::string(inner_.name())};
  KB_TRY(store_.save(exchange, *hash, occurrence));
  return answer;
}

}  // namespace kblaster
