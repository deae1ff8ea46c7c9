#include "runtime/delegates/xnnpack/xnnpack_library.h"

#include <gtest/gtest.h>

#include <memory>

#include "runtime/delegates/testing/delegate_run_checks.h"
#include "runtime/delegates/xnnpack/xnnpack_delegate.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

TEST(XnnpackLibraryTest, InitializesOnce) {
  auto first = XnnpackLibrary::Get();
  auto second = XnnpackLibrary::Get();
  ASSERT_TRUE(first.ok()) << first.status().message();
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*first, *second);
}

// What the kernels' runtimes allocate through the counting allocator, they give back when the
// interpreter goes: the counts return to where they were, and the peak saw all of it at once.
TEST(XnnpackLibraryTest, CountsEveryByteTheRuntimesHoldAndGiveBack) {
  auto library = XnnpackLibrary::Get();
  ASSERT_TRUE(library.ok()) << library.status().message();
  const XnnpackAllocationCounts before = (*library)->counts();
  auto delegate = CreateXnnpackDelegate();
  ASSERT_TRUE(delegate.ok()) << delegate.status().message();
  const auto* xnnpack = static_cast<const XnnpackDelegate*>(delegate->get());
  auto interpreter =
      testing::RunModel(tfa::testing::CorpusModelPath("face_detection__face_detection_short_range"),
                        {delegate->get()});
  ASSERT_TRUE(interpreter);
  ASSERT_EQ(xnnpack->partitions().size(), 1u);
  const XnnpackPartitionStats& stats = *xnnpack->partitions()[0];
  const uint64_t held =
      stats.packed_weights_and_operators_bytes + stats.workspace_bytes + stats.setup_bytes;
  const XnnpackAllocationCounts running = (*library)->counts();
  EXPECT_EQ(running.live_bytes - before.live_bytes, held);
  EXPECT_GE(running.peak_bytes, running.live_bytes);
  interpreter.reset();
  EXPECT_EQ((*library)->counts().live_bytes, before.live_bytes);
}

}  // namespace
}  // namespace tfa::runtime
