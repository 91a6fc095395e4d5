#include "llm/http_backend.h"

namespace kblaster {

HttpLlmBackend::HttpLlmBackend(LlmEndpoint endpoint, HttpTransport& transport,
                               HttpClientServices services)
    : endpoint_(std::move(endpoint)),
      clock_(services.clock),
      http_(transport, std::move(services),
            llm_client_options(endpoint_.api_key, endpoint_.timeout_s)) {}

Result<LlmAnswer> HttpLlmBackend::complete(const LlmRequest& request) {
  const double started = clock_.now_seconds();
  ApiCall call = prepare(request);
  call.timeout_s = call_time_limit(call.timeout_s, request);
  call.whole_s = request.time_limit_s;
  auto json = post_json(http_, call, secrets());
  if (!json) return json.error();
  auto answer = read(*json, call);
  if (!answer) return answer;
  if (answer->model.empty()) answer->model = endpoint_.model;
  answer->seconds = clock_.now_seconds() - started;
  return answer;
}

}  // namespace kblaster
