// Writing the seed catalogue's techniques and states into a KB, so that the KB
// file is self-describing and `kblaster kb show` can name what it counts.
#pragma once

#include "core/status.h"
#include "kb/catalogue.h"
#include "kb/store.h"

namespace kblaster {

// Inserts or updates every technique and state of `catalogue`, in one
// transaction. Statistics, trajectories and lessons are left untouched.
Status seed_catalogue(Store& store, const Catalogue& catalogue);

}  // namespace kblaster
