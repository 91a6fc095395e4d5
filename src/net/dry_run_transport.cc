#include "net/dry_run_transport.h"

#include <nlohmann/json.hpp>

#include "core/file_write.h"
#include "net/redact.h"

namespace kblaster {

Status DryRunTransport::open() { return write_file(file_, ""); }

Delivery DryRunTransport::send(const HttpRequest& request) {
  const std::vector<std::string> secrets = call_secrets(request, secrets_);
  nlohmann::json line = {{"method", method_name(request.method)},
                         {"url", redact(request.url, secrets)}};
  nlohmann::json& headers = line["headers"] = nlohmann::json::object();
  for (const auto& [name, value] : request.headers.fields()) headers[name] = redact(value, secrets);
  if (!request.body.empty()) {
    const std::string body = redact(request.body, secrets);
    line["body"] =
        nlohmann::json::accept(body) ? nlohmann::json::parse(body) : nlohmann::json(body);
  }
  const std::string text =
      line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  if (auto written = append_file(file_, text); !written)
    return TransportError{TransportFailure::setup, "--dry-run: " + written.error().message};
  ++count_;
  HttpResponse response;
  response.headers.add("Content-Type", "application/json");
  if (request.method == HttpMethod::get) {
    response.status = 200;
    response.body = request.url.find("per_page=") != std::string::npos ? "[]" : "{}";
  } else {
    response.status = 201;
    response.body = nlohmann::json{{"id", count_}, {"html_url", "dry-run"}}.dump();
  }
  return response;
}

}  // namespace kblaster
