#include "llm/truncation.h"

namespace kblaster {

bool truncated(const LlmAnswer& answer) {
  return answer.stop_reason == "length" || answer.stop_reason == "max_tokens";
}

}  // namespace kblaster
