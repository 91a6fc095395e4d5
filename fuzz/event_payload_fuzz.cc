// libFuzzer target: parse_event on the input as the payload of a pull_request
// event and of a push event (the JSON file at $GITHUB_EVENT_PATH).
#include <cstddef>
#include <cstdint>

#include "fuzz_check.h"
#include "github/event_payload.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kblaster;
  const std::string payload(reinterpret_cast<const char*>(data), size);
  for (const char* event : {"pull_request", "push"}) {
    Result<EventRevisions> revisions = parse_event(event, payload, "event.json");
    if (!revisions) expect_input_error(revisions.error());
  }
  return 0;
}
