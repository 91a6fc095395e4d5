// SHA-256 digests of byte strings, as lowercase hex: the compile cache's keys.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/status.h"

struct evp_md_ctx_st;

namespace kblaster {

// The SHA-256 of `bytes` as 64 lowercase hex digits. Fails only if OpenSSL does.
Result<std::string> sha256_hex(std::string_view bytes);

// An incremental SHA-256. The first OpenSSL failure is kept and reported by
// finish(); later calls do nothing. Not thread-safe. Move-only.
class Sha256 {
 public:
  Sha256();
  // Appends raw bytes.
  void update(std::string_view bytes);
  // Appends `bytes` framed by its length, so a sequence of fields hashes
  // unambiguously ("ab","c" differs from "a","bc").
  void add_field(std::string_view bytes);
  // The digest of everything appended, as hex; the hasher is spent afterwards.
  Result<std::string> finish();

 private:
  struct ContextDeleter {
    void operator()(evp_md_ctx_st* ctx) const;
  };
  std::unique_ptr<evp_md_ctx_st, ContextDeleter> ctx_;  // unique: an EVP context has one owner
  std::string error_;  // the first failure; empty while all is well
};

}  // namespace kblaster
