// How many bytes of the non-persistent arena are in use at each step of the execution plan.
//
// A step counts every block of the plan live there (first_step <= step <= last_step): each
// tensor's own allocation once, none for an in-place alias (it has no block of its own), twice
// for a tensor upstream places twice (a graph input that a node also writes: both blocks hold
// arena space). The maximum is the arena's peak live bytes; the arena is at least that large, and
// larger where the live blocks leave gaps between them.
#ifndef LIBANALYSIS_REPORT_LIVE_ARENA_BYTES_H_
#define LIBANALYSIS_REPORT_LIVE_ARENA_BYTES_H_

#include <cstdint>
#include <vector>

#include "libanalysis/arena/arena_plan.h"

namespace tfa {

// One entry per step of `plan` (plan.num_steps).
std::vector<uint64_t> LiveArenaBytes(const ArenaPlan& plan);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_LIVE_ARENA_BYTES_H_
