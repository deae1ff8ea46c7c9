#include "runtime/kernels/cpu/working_buffers.h"

#include <gtest/gtest.h>

namespace tfa::runtime {
namespace {

TEST(WorkingBuffersTest, PlannedTemporariesServeAndTheRestComesFromScratch) {
  uint8_t temporary_bytes[32] = {};
  RuntimeTensor temporary;
  temporary.data = temporary_bytes;
  temporary.bytes = sizeof(temporary_bytes);
  KernelContext context;
  context.temporaries = {&temporary, nullptr};
  // Temporary 0 fits; 1 has no buffer; 2 is beyond the plan's list.
  const WorkingBuffers prepared(context, {32, 10, 70});
  EXPECT_EQ(prepared.scratch_bytes(), 64u + 128u);
  alignas(64) uint8_t scratch[192] = {};
  context.scratch = scratch;
  const WorkingBuffers buffers(context, {32, 10, 70});
  EXPECT_EQ(buffers.Get<uint8_t>(0), temporary_bytes);
  EXPECT_EQ(buffers.Get<uint8_t>(1), scratch);
  EXPECT_EQ(buffers.Get<uint8_t>(2), scratch + 64);
}

TEST(WorkingBuffersTest, ATooSmallTemporaryIsNotUsed) {
  uint8_t temporary_bytes[8] = {};
  RuntimeTensor temporary;
  temporary.data = temporary_bytes;
  temporary.bytes = sizeof(temporary_bytes);
  KernelContext context;
  context.temporaries = {&temporary};
  EXPECT_EQ(WorkingBuffers(context, {16}).scratch_bytes(), 64u);
}

}  // namespace
}  // namespace tfa::runtime
