// The thin layer over libgit2's C API: one process-wide init, RAII owners for
// the handles we use, and KB_GIT_CALL, which checks a call where it is made and
// turns a failure into an Error naming the call, file and line.
#pragma once

#include <git2.h>

#include <memory>
#include <string>

#include "core/status.h"

namespace kblaster {

// Initialises libgit2 once per process; safe to call from any thread, any number
// of times, and every later call returns the first one's outcome. libgit2 is
// never shut down: owners may outlive static destructors.
Status ensure_libgit2();

// An Error of `kind` naming `call` (its source text), where it was made, libgit2's
// return code and its last error message for this thread.
Error git_call_error(const char* call, int code, const char* file, int line,
                     ErrorKind kind = ErrorKind::io);

// The libgit2 message of the last failed call on this thread, or "" if none.
std::string git_last_message();

// Frees a libgit2 handle with its own free function.
template <class T, void (*Free)(T*)>
struct GitFree {
  void operator()(T* p) const { Free(p); }
};

// Owners: each frees its handle once; copy is deleted (unique_ptr) because two
// owners would free the handle twice.
using RepositoryPtr = std::unique_ptr<git_repository, GitFree<git_repository, git_repository_free>>;
using ObjectPtr = std::unique_ptr<git_object, GitFree<git_object, git_object_free>>;
using CommitPtr = std::unique_ptr<git_commit, GitFree<git_commit, git_commit_free>>;
using TreePtr = std::unique_ptr<git_tree, GitFree<git_tree, git_tree_free>>;
using TreeEntryPtr = std::unique_ptr<git_tree_entry, GitFree<git_tree_entry, git_tree_entry_free>>;
using BlobPtr = std::unique_ptr<git_blob, GitFree<git_blob, git_blob_free>>;
using DiffPtr = std::unique_ptr<git_diff, GitFree<git_diff, git_diff_free>>;
using RevwalkPtr = std::unique_ptr<git_revwalk, GitFree<git_revwalk, git_revwalk_free>>;
using SignaturePtr = std::unique_ptr<git_signature, GitFree<git_signature, git_signature_free>>;
using TreeBuilderPtr =
    std::unique_ptr<git_treebuilder, GitFree<git_treebuilder, git_treebuilder_free>>;
using ReferencePtr = std::unique_ptr<git_reference, GitFree<git_reference, git_reference_free>>;
using IndexPtr = std::unique_ptr<git_index, GitFree<git_index, git_index_free>>;

// Adapts an owner to libgit2's `T** out` parameters: `git_tree_lookup(out(tree), …)`.
// The owner takes the handle when the full expression ends.
template <class Owner>
class OutParam {
 public:
  explicit OutParam(Owner& owner) : owner_(owner) {}
  ~OutParam() { owner_.reset(raw_); }
  OutParam(const OutParam&) = delete;  // one adapter per call, or the handle is adopted twice
  OutParam& operator=(const OutParam&) = delete;
  operator typename Owner::pointer *() { return &raw_; }  // NOLINT: implicit by design

 private:
  Owner& owner_;
  typename Owner::pointer raw_ = nullptr;
};
template <class Owner>
OutParam<Owner> out(Owner& owner) {
  return OutParam<Owner>(owner);
}

// Object ids as 40 hex digits, and back.
std::string oid_hex(const git_oid& id);

}  // namespace kblaster

// Makes the libgit2 call `expr`; if it returns < 0, returns an Error::io naming it
// from the enclosing function (which returns a Result or Status).
#define KB_GIT_CALL(expr)                                                       \
  do {                                                                          \
    if (const int kb_git_rc_ = (expr); kb_git_rc_ < 0)                          \
      return ::kblaster::git_call_error(#expr, kb_git_rc_, __FILE__, __LINE__); \
  } while (0)
