// The smallest GitHub client, for the tests of the test servers themselves: one
// request, the status, the headers and the body as JSON. kblaster's own client is
// src/github; this one only proves FakeGitHub and Prism right.
#pragma once

#include <httplib.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

namespace kblaster::testing {

struct RawReply {
  int status = 0;  // 0: no answer (httplib's error names why)
  httplib::Error error = httplib::Error::Success;
  httplib::Headers headers;
  nlohmann::json body;  // null when the body was empty or not JSON
  std::string text;     // the body as received
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

// Sends requests to `base_url` ("http://127.0.0.1:PORT") with GitHub's headers and the
// token as a Bearer credential ("" sends none). Not thread-safe.
class RawGitHubClient {
 public:
  explicit RawGitHubClient(const std::string& base_url, const std::string& token,
                           std::chrono::milliseconds timeout = std::chrono::seconds(30))
      : client_(base_url) {
    client_.set_read_timeout(timeout);
    client_.set_url_encode(false);  // paths are sent as written, %2F and all
    headers_ = {{"Accept", "application/vnd.github+json"},
                {"X-GitHub-Api-Version", "2022-11-28"},
                {"User-Agent", "kblaster-tests"}};
    if (!token.empty()) headers_.emplace("Authorization", "Bearer " + token);
  }

  RawReply get(const std::string& path) { return reply(client_.Get(path, headers_)); }
  RawReply post(const std::string& path, const nlohmann::json& body) {
    return reply(client_.Post(path, headers_, body.dump(), "application/json"));
  }
  RawReply patch(const std::string& path, const nlohmann::json& body) {
    return reply(client_.Patch(path, headers_, body.dump(), "application/json"));
  }
  RawReply del(const std::string& path) { return reply(client_.Delete(path, headers_)); }
  // Replaces the Authorization header ("" removes it).
  void set_authorization(const std::string& value) {
    headers_.erase("Authorization");
    if (!value.empty()) headers_.emplace("Authorization", value);
  }

 private:
  static RawReply reply(const httplib::Result& r) {
    RawReply out;
    out.error = r.error();
    if (!r) return out;
    out.status = r->status;
    out.headers = r->headers;
    out.text = r->body;
    out.body = nlohmann::json::parse(r->body, nullptr, false);
    if (out.body.is_discarded()) out.body = nullptr;
    return out;
  }

  httplib::Client client_;
  httplib::Headers headers_;
};

}  // namespace kblaster::testing
