#include "git/libgit2.h"

#include <string_view>

namespace kblaster {

Status ensure_libgit2() {
  static const int count = git_libgit2_init();  // C++ makes this initialisation thread-safe
  if (count < 0) return Error::environment("libgit2 failed to initialise: " + git_last_message());
  return Ok{};
}

std::string git_last_message() {
  const git_error* e = git_error_last();
  return e && e->message ? e->message : "";
}

Error git_call_error(const char* call, int code, const char* file, int line, ErrorKind kind) {
  std::string_view where(file);
  if (auto slash = where.rfind("/src/"); slash != std::string_view::npos)
    where.remove_prefix(slash + 1);
  std::string message = "libgit2 call `" + std::string(call) + "` failed (error " +
                        std::to_string(code) + ") at " + std::string(where) + ":" +
                        std::to_string(line);
  if (auto detail = git_last_message(); !detail.empty()) message += ": " + detail;
  return Error{kind, std::move(message), {}};
}

std::string oid_hex(const git_oid& id) {
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &id);
  return hex;
}

}  // namespace kblaster
