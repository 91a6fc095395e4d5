// The thin layer over libcurl's C API: one process-wide init, RAII owners for the
// handles we use, KB_CURL_CALL, which checks a call where it is made, and the
// TransportFailure each CURLcode stands for.
#pragma once

#include <curl/curl.h>

#include <memory>

#include "net/transport.h"

namespace kblaster {

// curl_global_init(CURL_GLOBAL_DEFAULT) once per process; safe from any thread, and every
// later call returns the first one's code. libcurl is never cleaned up: handles may
// outlive static destructors.
CURLcode ensure_libcurl();

// A setup failure naming `call` (its source text), where it was made and libcurl's words.
TransportError curl_call_error(const char* call, CURLcode code, const char* file, int line);

// The kind of failure a finished transfer's code stands for (CURLE_OK is not a failure).
TransportFailure failure_for(CURLcode code);

struct CurlEasyFree {
  void operator()(CURL* p) const { curl_easy_cleanup(p); }
};
struct CurlSlistFree {
  void operator()(curl_slist* p) const { curl_slist_free_all(p); }
};
// Owners: each frees its handle once; copy is deleted (unique_ptr) because two owners would
// free it twice.
using CurlEasyPtr = std::unique_ptr<CURL, CurlEasyFree>;
using CurlSlistPtr = std::unique_ptr<curl_slist, CurlSlistFree>;

}  // namespace kblaster

// Makes the libcurl call `expr`; unless it returns CURLE_OK, returns a TransportError
// (TransportFailure::setup) naming it from the enclosing function.
#define KB_CURL_CALL(expr)                                                        \
  do {                                                                            \
    if (const CURLcode kb_curl_rc_ = (expr); kb_curl_rc_ != CURLE_OK)             \
      return ::kblaster::curl_call_error(#expr, kb_curl_rc_, __FILE__, __LINE__); \
  } while (0)
