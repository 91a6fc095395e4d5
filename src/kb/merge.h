// Merging two KBs: lossless, commutative, associative and idempotent (issue 6).
//  - trajectories (with their steps) and lessons: union by id; the same id with
//    different content is an Error::usage naming it (ids are content hashes or UUIDs,
//    so that is a corrupt KB, and no choice would be lossless);
//  - techniques and states: union by key; on different columns the row whose
//    columns, compared in table order as byte strings, are smaller is kept;
//  - best kernel per task: the store's rule, higher speedup, then smaller source,
//    then smaller result text;
//  - stats: rebuilt from the union of steps (derive_stats), never added, so a
//    trajectory both KBs hold counts once.
#pragma once

#include <vector>

#include "core/status.h"
#include "kb/dump.h"
#include "kb/store.h"

namespace kblaster {

// Stats as Store::record_trajectory accumulates them, replayed over `trajectories`
// in id order and each trajectory's steps in order, so the floating-point sums are
// the same whatever order the trajectories came in. Sorted by (state, technique, arch).
std::vector<StatsRow> derive_stats(const std::vector<Trajectory>& trajectories);

// The merge of two KBs' contents (sorted as KbContents requires), stats rebuilt.
Result<KbContents> merge_contents(const KbContents& a, const KbContents& b);

// Merges `source` into `target` in one transaction on `target`; on error `target`
// is unchanged. Merging a store into itself is a no-op apart from the stats rebuild.
Status merge_into(Store& target, const Store& source);

}  // namespace kblaster
