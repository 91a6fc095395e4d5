// Reference outputs kept on disk for the other harness processes of one kblaster session: a
// multi-context timing ends its harness for each CUDA context, and a crashed harness is
// restarted, so the in-process memo (reference_memo.h) alone would run a seed's reference again
// in each (issue 22, point 9). The directory is the session's private one (kblaster makes it,
// passes it as $KBLASTER_REFERENCE_OUTPUTS and removes it at the end), so nothing outlives the
// command and no other run reads it. Every failure here only costs a reference run: a file that
// cannot be written is not written, and one that does not read back exactly is not used.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "reference_memo.h"

namespace kblaster::harness {

class SharedReferenceOutputs {
 public:
  // Off: every read misses and every write is dropped.
  SharedReferenceOutputs() = default;
  // Keeps files in `dir` (which must exist), at most `budget_bytes` of them in all.
  SharedReferenceOutputs(std::string dir, std::size_t budget_bytes)
      : dir_(std::move(dir)), budget_(budget_bytes) {}

  // From $KBLASTER_REFERENCE_OUTPUTS with reference_memo_budget(); off when it is unset.
  static SharedReferenceOutputs from_environment();

  bool on() const { return !dir_.empty(); }

  // The outputs another harness kept under `key`, when its file holds exactly that key and one
  // output of each of `sizes` bytes; nullopt otherwise.
  std::optional<MemoOutputs> read(const std::string& key,
                                  const std::vector<std::size_t>& sizes) const;
  // Keeps `outputs` under `key` (written aside, then renamed into place, so a reader never sees
  // half a file), unless that would take the directory over its budget or the file over the
  // process's file-size limit or half its filesystem's free space. Never throws.
  void write(const std::string& key, const MemoOutputs& outputs) const;

  // The file `key` is kept in: a 64-bit FNV-1a of the key, in hex (the key itself is stored and
  // checked on read, so a collision is a miss, not a wrong answer).
  std::string path_of(const std::string& key) const;

 private:
  std::string dir_;
  std::size_t budget_ = 0;
};

}  // namespace kblaster::harness
