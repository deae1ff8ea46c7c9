// QuantizedGemm (gemmlowp) against its plain twin, and the int8 shift it relies on.
#include "runtime/kernels/cpu/quantized_gemm.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

namespace tfa::runtime {
namespace {

TEST(QuantizedGemm, SmallProductByHand) {
  // a = [[1, 2], [3, 4]] + 1, b = [[5, 6], [7, 8], [9, 10]] - 5.
  const std::vector<uint8_t> a = {1, 2, 3, 4};
  const std::vector<uint8_t> b = {5, 6, 7, 8, 9, 10};
  std::vector<int32_t> acc(6);
  QuantizedGemm({2, 3, 2}, a.data(), 1, b.data(), -5, acc.data());
  // Row 0: (2, 3) . (0, 1) = 3, (2, 3) . (2, 3) = 13, (2, 3) . (4, 5) = 23.
  // Row 1: (4, 5) . (0, 1) = 5, (4, 5) . (2, 3) = 23, (4, 5) . (4, 5) = 41.
  EXPECT_EQ(acc, (std::vector<int32_t>{3, 13, 23, 5, 23, 41}));
}

TEST(QuantizedGemm, ShiftInt8ToUint8AddsOneHundredTwentyEight) {
  const std::vector<int8_t> in = {-128, -1, 0, 1, 127};
  std::vector<uint8_t> out(in.size());
  ShiftInt8ToUint8(in.data(), static_cast<int64_t>(in.size()), out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 127, 128, 129, 255}));
}

// Any shape (gemmlowp's edge blocks included), any offsets a quantized kernel can pass (a zero
// point and the int8 shift: -383 .. 255): the accumulators are identical.
RC_GTEST_PROP(QuantizedGemm, EqualsTheReference, ()) {
  const QuantizedGemmShape shape{*rc::gen::inRange<int64_t>(1, 70),
                                 *rc::gen::inRange<int64_t>(1, 70),
                                 *rc::gen::inRange<int64_t>(1, 300)};
  const auto a = *rc::gen::container<std::vector<uint8_t>>(static_cast<size_t>(shape.m * shape.k),
                                                           rc::gen::arbitrary<uint8_t>());
  const auto b = *rc::gen::container<std::vector<uint8_t>>(static_cast<size_t>(shape.n * shape.k),
                                                           rc::gen::arbitrary<uint8_t>());
  const auto a_offset = *rc::gen::inRange<int32_t>(-383, 256);
  const auto b_offset = *rc::gen::inRange<int32_t>(-383, 256);
  std::vector<int32_t> fast(static_cast<size_t>(shape.m * shape.n));
  std::vector<int32_t> reference(fast.size());
  QuantizedGemm(shape, a.data(), a_offset, b.data(), b_offset, fast.data());
  QuantizedGemmReference(shape, a.data(), a_offset, b.data(), b_offset, reference.data());
  RC_ASSERT(fast == reference);
}

}  // namespace
}  // namespace tfa::runtime
