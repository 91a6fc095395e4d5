// Base64 (RFC 4648, the standard alphabet with padding), as GitHub's git data API sends
// and takes a blob's bytes, so that any file, UTF-8 or not, goes through exactly.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kblaster {

// `bytes` encoded, padded with '=' to a multiple of 4 characters, on one line.
std::string base64_encode(std::string_view bytes);

// The bytes `text` encodes; line breaks (GitHub wraps at 60 columns) are skipped.
// nullopt when it holds any other character outside the alphabet, or padding that is
// not at its end.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace kblaster
