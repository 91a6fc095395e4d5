#include "gpu/content_hash.h"

#include <openssl/err.h>
#include <openssl/evp.h>

#include <cstdint>

namespace kblaster {
namespace {

// The call's name and OpenSSL's own reason, for an Error message.
std::string openssl_failure(const char* call) {
  char reason[256] = "unknown reason";
  if (unsigned long code = ERR_get_error()) ERR_error_string_n(code, reason, sizeof reason);
  return std::string(call) + " failed: " + reason;
}

}  // namespace

void Sha256::ContextDeleter::operator()(evp_md_ctx_st* ctx) const { EVP_MD_CTX_free(ctx); }

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (!ctx_)
    error_ = openssl_failure("EVP_MD_CTX_new");
  else if (EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1)
    error_ = openssl_failure("EVP_DigestInit_ex");
}

void Sha256::update(std::string_view bytes) {
  if (!error_.empty() || !ctx_) return;
  if (EVP_DigestUpdate(ctx_.get(), bytes.data(), bytes.size()) != 1)
    error_ = openssl_failure("EVP_DigestUpdate");
}

void Sha256::add_field(std::string_view bytes) {
  const std::uint64_t size = bytes.size();
  char prefix[8];
  for (int i = 0; i < 8; ++i) prefix[i] = static_cast<char>((size >> (8 * i)) & 0xff);
  update(std::string_view(prefix, sizeof prefix));
  update(bytes);
}

Result<std::string> Sha256::finish() {
  if (!ctx_ && error_.empty()) error_ = "Sha256::finish called twice";
  if (!error_.empty()) return Error::internal("SHA-256: " + error_);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  const bool ok = EVP_DigestFinal_ex(ctx_.get(), digest, &length) == 1;
  ctx_.reset();
  if (!ok) return Error::internal("SHA-256: " + openssl_failure("EVP_DigestFinal_ex"));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xf];
  }
  return hex;
}

Result<std::string> sha256_hex(std::string_view bytes) {
  Sha256 hasher;
  hasher.update(bytes);
  return hasher.finish();
}

}  // namespace kblaster
