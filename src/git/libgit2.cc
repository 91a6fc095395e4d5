#include "git/libgit2.h"

#include <string_view>

namespace kblaster {

namespace {

// libgit2, and what kblaster asks of it: objects are not hashed again on every read. Git itself
// reads them so (it checks hashes when objects arrive, by index-pack, and in fsck); libgit2's
// default re-hashes each blob, a tenth of `plan`'s time on a large repository.
int init_libgit2() {
  const int count = git_libgit2_init();
  if (count >= 0) git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
  return count;
}

}  // namespace

Status ensure_libgit2() {
  static const int count = init_libgit2();  // C++ makes this initialisation thread-safe
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
