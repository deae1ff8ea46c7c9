#include "runtime/kernels/cpu/unsorted_segment.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

template <typename T>
std::vector<T> RunSegments(const std::string& op, TensorType type, std::vector<int32_t> data_shape,
                           const std::vector<T>& data, std::vector<int32_t> ids_shape,
                           const std::vector<int32_t>& ids, int32_t num_segments,
                           std::vector<int32_t> out_shape) {
  KernelRunner k(op);
  k.AddInput<T>(type, std::move(data_shape), data);
  k.AddInt32Input(std::move(ids_shape), ids);
  k.AddInt32Input({1}, {num_segments});
  k.AddOutput(type, std::move(out_shape));
  const Status status = k.Run();
  EXPECT_TRUE(status.ok()) << status.message();
  return k.Output<T>();
}

const std::vector<int32_t> kData2D = {1, 2, 3, 4, 5, 6, 7, 8, 4, 3, 2, 1};
const std::vector<float> kFloatData2D = {1, 2, 3, 4, 5, 6, 7, 8, 4, 3, 2, 1};
const std::vector<float> kFloatData = {1, 2, 3, 4, 4, 3, 2, 1};
const std::vector<int32_t> kFloatIds = {1, 0, 1, 7, 7, 7, 7, 7};

// Figures of upstream's unsorted_segment_sum_test.cc.
TEST(UnsortedSegmentTest, UpstreamSumFigures) {
  const char* op = "UNSORTED_SEGMENT_SUM";
  EXPECT_EQ(RunSegments<int32_t>(op, TensorType::kInt32, {7}, {5, 1, 7, 2, 3, 4, 10}, {7},
                                 {0, 0, 1, 1, 0, 1, 0}, 2, {2}),
            (std::vector<int32_t>{19, 13}));
  EXPECT_EQ(
      RunSegments<int32_t>(op, TensorType::kInt32, {3, 4}, kData2D, {3}, {0, 1, 0}, 2, {2, 4}),
      (std::vector<int32_t>{5, 5, 5, 5, 5, 6, 7, 8}));
  EXPECT_EQ(RunSegments<float>(op, TensorType::kFloat32, {6}, {1, 2, 3, 4, 4, 3}, {6},
                               {1, 0, 1, 7, 7, 7}, 8, {8}),
            (std::vector<float>{2, 4, 0, 0, 0, 0, 0, 11}));
  EXPECT_EQ(
      RunSegments<int32_t>(op, TensorType::kInt32, {2, 2}, {1, 2, 3, 4}, {2}, {-1, -1}, 1, {1, 2}),
      (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(
      RunSegments<int32_t>(op, TensorType::kInt32, {4}, {1, 2, 3, 4}, {4}, {-1, 0, -1, 1}, 2, {2}),
      (std::vector<int32_t>{2, 4}));
  EXPECT_EQ(
      RunSegments<int32_t>(op, TensorType::kInt32, {2, 2}, {1, 2, 3, 4}, {2}, {0, 1}, 3, {3, 2}),
      (std::vector<int32_t>{1, 2, 3, 4, 0, 0}));
  EXPECT_EQ(RunSegments<int32_t>(op, TensorType::kInt32, {2},
                                 {std::numeric_limits<int32_t>::max(), 1}, {2}, {0, 0}, 1, {1}),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::min()}));
}

// Figures of upstream's unsorted_segment_prod_test.cc.
TEST(UnsortedSegmentTest, UpstreamProdFigures) {
  const char* op = "UNSORTED_SEGMENT_PROD";
  EXPECT_EQ(RunSegments<int32_t>(op, TensorType::kInt32, {8}, {1, 2, 3, 4, 4, 3, 2, 1}, {8},
                                 {1, 0, 1, 7, 7, 7, 7, -1}, 8, {8}),
            (std::vector<int32_t>{2, 3, 1, 1, 1, 1, 1, 96}));
  EXPECT_EQ(
      RunSegments<int32_t>(op, TensorType::kInt32, {3, 4}, kData2D, {3}, {0, 1, 0}, 2, {2, 4}),
      (std::vector<int32_t>{4, 6, 6, 4, 5, 6, 7, 8}));
  EXPECT_EQ(RunSegments<float>(op, TensorType::kFloat32, {8}, kFloatData, {8}, kFloatIds, 8, {8}),
            (std::vector<float>{2, 3, 1, 1, 1, 1, 1, 96}));
}

// Figures of upstream's unsorted_segment_max_test.cc and unsorted_segment_min_test.cc.
TEST(UnsortedSegmentTest, UpstreamMaxMinFigures) {
  constexpr float kLowest = std::numeric_limits<float>::lowest();
  constexpr float kHighest = std::numeric_limits<float>::max();
  EXPECT_EQ(RunSegments<int32_t>("UNSORTED_SEGMENT_MAX", TensorType::kInt32, {6},
                                 {5, 1, 7, 2, 3, 4}, {6}, {0, 0, 1, 1, 0, 1}, 2, {2}),
            (std::vector<int32_t>{5, 7}));
  EXPECT_EQ(RunSegments<float>("UNSORTED_SEGMENT_MAX", TensorType::kFloat32, {3, 4}, kFloatData2D,
                               {3}, {0, 1, 0}, 2, {2, 4}),
            (std::vector<float>{4, 3, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(RunSegments<float>("UNSORTED_SEGMENT_MAX", TensorType::kFloat32, {8}, kFloatData, {8},
                               kFloatIds, 8, {8}),
            (std::vector<float>{2, 3, kLowest, kLowest, kLowest, kLowest, kLowest, 4}));
  EXPECT_EQ(RunSegments<int32_t>("UNSORTED_SEGMENT_MAX", TensorType::kInt32, {2, 2}, {1, 2, 3, 4},
                                 {2}, {-1, -1}, 1, {1, 2}),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::lowest(),
                                  std::numeric_limits<int32_t>::lowest()}));
  EXPECT_EQ(RunSegments<int32_t>("UNSORTED_SEGMENT_MIN", TensorType::kInt32, {6},
                                 {5, 3, 7, 8, 6, 4}, {6}, {0, 0, 1, 1, 0, 1}, 2, {2}),
            (std::vector<int32_t>{3, 4}));
  EXPECT_EQ(RunSegments<int32_t>("UNSORTED_SEGMENT_MIN", TensorType::kInt32, {3, 4}, kData2D, {3},
                                 {0, 1, 0}, 2, {2, 4}),
            (std::vector<int32_t>{1, 2, 2, 1, 5, 6, 7, 8}));
  EXPECT_EQ(RunSegments<float>("UNSORTED_SEGMENT_MIN", TensorType::kFloat32, {8}, kFloatData, {8},
                               kFloatIds, 8, {8}),
            (std::vector<float>{2, 1, kHighest, kHighest, kHighest, kHighest, kHighest, 1}));
}

// Upstream's ConstParamenterTest: constant ids and count size the output at Prepare.
TEST(UnsortedSegmentTest, ConstantIdsAreCheckedAtPrepare) {
  KernelRunner k("UNSORTED_SEGMENT_MIN");
  k.AddInt32Input({3, 2}, {1, 2, 3, 4, 5, 6});
  k.AddInt32Input({3}, {0, 1, 0}).is_constant = true;
  k.AddInt32Input({1}, {2}).is_constant = true;
  k.AddOutput(TensorType::kInt32, {2, 2});
  ASSERT_TRUE(k.Run().ok());
  EXPECT_EQ(k.Output<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4}));
}

// Ids of rank 2 take the data's first two dimensions.
TEST(UnsortedSegmentTest, IdsOfHigherRank) {
  EXPECT_EQ(RunSegments<int32_t>("UNSORTED_SEGMENT_SUM", TensorType::kInt32, {2, 2, 2},
                                 {1, 2, 3, 4, 5, 6, 7, 8}, {2, 2}, {1, 0, 0, 1}, 2, {2, 2}),
            (std::vector<int32_t>{8, 10, 8, 10}));
}

TEST(UnsortedSegmentTest, AnIdAtOrAboveTheCountIsAnError) {
  KernelRunner k("UNSORTED_SEGMENT_SUM");
  k.AddInt32Input({2}, {1, 2});
  k.AddInt32Input({2}, {0, 2});
  k.AddInt32Input({}, {2});
  k.AddOutput(TensorType::kInt32, {2});
  EXPECT_EQ(k.Run().message(), "segment id 2 is not below num_segments 2");
}

TEST(UnsortedSegmentTest, IdsThatAreNotADataPrefixAreAnError) {
  KernelRunner k("UNSORTED_SEGMENT_MAX");
  k.AddFloatInput({2, 2}, {1, 2, 3, 4});
  k.AddInt32Input({3}, {0, 0, 0});
  k.AddInt32Input({}, {1});
  k.AddOutput(TensorType::kFloat32, {1, 2});
  EXPECT_FALSE(k.Run().ok());
}

}  // namespace
}  // namespace tfa::runtime
