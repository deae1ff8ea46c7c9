#include "runtime/kernels/cpu/kernel_thread_pool.h"

#include <gtest/gtest.h>

#include <thread>
#include <utility>
#include <vector>

namespace tfa::runtime {
namespace {

using Part = std::pair<int64_t, int64_t>;

// The parts ParallelFor hands out, by part number (each part writes its own slot).
std::vector<Part> PartsOf(const KernelThreadPool* pool, int64_t n, int64_t min_part) {
  std::vector<Part> parts(static_cast<size_t>(ThreadCount(pool)), Part{-1, -1});
  int used = 0;
  ParallelFor(pool, n, min_part, [&](int part, int64_t begin, int64_t end) {
    parts[static_cast<size_t>(part)] = {begin, end};
  });
  for (const Part& p : parts) used += p.first >= 0;
  parts.resize(static_cast<size_t>(used));
  return parts;
}

TEST(KernelThreadPoolTest, SplitsTheRangeIntoContiguousPartsInOrder) {
  const KernelThreadPool pool(3);
  EXPECT_EQ(PartsOf(&pool, 10, 1), (std::vector<Part>{{0, 3}, {3, 6}, {6, 10}}));
}

TEST(KernelThreadPoolTest, MinimumPartLengthLimitsTheParts) {
  const KernelThreadPool pool(4);
  EXPECT_EQ(PartsOf(&pool, 10, 4), (std::vector<Part>{{0, 5}, {5, 10}}));
  EXPECT_EQ(PartsOf(&pool, 3, 4), (std::vector<Part>{{0, 3}}));
}

TEST(KernelThreadPoolTest, NullPoolAndOneThreadRunOnePartOnTheCaller) {
  const KernelThreadPool one(1);
  for (const KernelThreadPool* pool : {static_cast<const KernelThreadPool*>(nullptr), &one}) {
    std::thread::id ran_on;
    ParallelFor(pool, 7, 1, [&](int part, int64_t begin, int64_t end) {
      EXPECT_EQ(part, 0);
      EXPECT_EQ(begin, 0);
      EXPECT_EQ(end, 7);
      ran_on = std::this_thread::get_id();
    });
    EXPECT_EQ(ran_on, std::this_thread::get_id());
  }
}

TEST(KernelThreadPoolTest, PartZeroRunsOnTheCallerTheOthersOnWorkers) {
  const KernelThreadPool pool(2);
  std::vector<std::thread::id> ran_on(2);
  pool.ParallelFor(2, 1, [&](int part, int64_t, int64_t) {
    ran_on[static_cast<size_t>(part)] = std::this_thread::get_id();
  });
  EXPECT_EQ(ran_on[0], std::this_thread::get_id());
  EXPECT_NE(ran_on[1], std::this_thread::get_id());
}

TEST(KernelThreadPoolTest, EmptyRangeRunsNothing) {
  const KernelThreadPool pool(2);
  int calls = 0;
  pool.ParallelFor(0, 1, [&](int, int64_t, int64_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace tfa::runtime
