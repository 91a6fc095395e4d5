// `--dry-run FILE`: a transport that sends nothing. Each request is written to FILE as
// one JSON line, its credentials redacted, and answered with a stand-in so the caller
// goes on as if the server had agreed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/status.h"
#include "net/transport.h"

namespace kblaster {

class DryRunTransport final : public HttpTransport {
 public:
  // Writes to `file`, created or truncated by open(); `secrets` never reach it.
  DryRunTransport(std::filesystem::path file, std::vector<std::string> secrets)
      : file_(std::move(file)), secrets_(std::move(secrets)) {}

  // Creates or empties the file, so a run that sends nothing still leaves it. Errors:
  // write_failure's, naming the file.
  Status open();

  // Appends {"method", "url", "headers" (credentials "***"), "body" (parsed when JSON)} as
  // one line, then answers: a GET whose query asks for a page (per_page=) with 200 and
  // "[]", any other GET with 200 and "{}", any other method with 201 and {"id": n,
  // "html_url": "dry-run"} (n counting up from 1). A file that cannot be written is
  // TransportFailure::setup, naming it.
  Delivery send(const HttpRequest& request) override;

  // How many requests were written.
  std::size_t count() const { return count_; }

 private:
  std::filesystem::path file_;
  std::vector<std::string> secrets_;
  std::size_t count_ = 0;
};

}  // namespace kblaster
