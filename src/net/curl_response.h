// What libcurl hands back during one transfer, collected into an HttpResponse within a
// byte bound: the callbacks CurlTransport installs.
#pragma once

#include <cstddef>
#include <string>

#include "net/http_headers.h"

namespace kblaster {

struct ReceivedResponse {
  std::size_t limit = 0;  // bytes of headers and body together
  std::size_t bytes = 0;
  bool over_limit = false;  // set when a callback refused data for the bound
  HttpHeaders headers{};    // of the last response only (not of a 100 Continue or proxy CONNECT)
  std::string body{};
};

// CURLOPT_WRITEFUNCTION with a ReceivedResponse* as its data: appends to the body, or
// returns 0 (libcurl then fails with CURLE_WRITE_ERROR) once the bound is passed.
std::size_t receive_body(char* data, std::size_t size, std::size_t count, void* response);

// CURLOPT_HEADERFUNCTION with a ReceivedResponse* as its data: one header line per call; a
// status line starts the headers afresh. Returns 0 once the bound is passed.
std::size_t receive_header(char* data, std::size_t size, std::size_t count, void* response);

}  // namespace kblaster
