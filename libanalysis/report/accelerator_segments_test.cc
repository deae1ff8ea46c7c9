#include "libanalysis/report/accelerator_segments.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "corpus/generator/synthetic_models.h"
#include "libanalysis/plan/model_plan.h"
#include "libanalysis/report/report_builder.h"

namespace tfa {
namespace {

Model Synthetic(const std::string& name) {
  auto built = BuildSyntheticModel(name);
  EXPECT_TRUE(built.ok()) << built.status().message();
  return built.ok() ? std::move(built->model) : Model{};
}

TEST(AcceleratorSegmentsTest, OnlyTheEdgeTpuCustomOpIsAnAccelerator) {
  EXPECT_EQ(AcceleratorOfCustomOp("edgetpu-custom-op"), "edgetpu");
  EXPECT_EQ(AcceleratorOfCustomOp("TFLite_Detection_PostProcess"), "");
  EXPECT_EQ(AcceleratorOfCustomOp("FlexAddV2"), "");
}

// edgetpu_classifier_edgetpu: QUANTIZE -> edgetpu-custom-op (6144 bytes of custom options) ->
// DEQUANTIZE, input [1,16,16,3] float32, output [1,5].
TEST(AcceleratorSegmentsTest, TheCompiledModelHasOneEdgeTpuSegmentBetweenTwoCpuNodes) {
  const Model model = Synthetic("edgetpu_classifier_edgetpu");
  auto plan = PlanModel(model, PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  auto report = BuildReport(*plan, "test");
  ASSERT_TRUE(report.ok()) << report.status().message();
  const SubgraphReport& s = report->subgraphs.at(0);
  ASSERT_TRUE(s.accelerators.has_value());
  ASSERT_EQ(s.accelerators->segments.size(), 1u);
  const AcceleratorSegment& tpu = s.accelerators->segments[0];
  EXPECT_EQ(tpu.accelerator, "edgetpu");
  EXPECT_EQ(tpu.node, 1);
  EXPECT_EQ(tpu.op, "edgetpu-custom-op");
  EXPECT_EQ(tpu.program_bytes, 6144u);
  EXPECT_EQ(tpu.inputs, std::vector<int32_t>{1});
  EXPECT_EQ(tpu.outputs, std::vector<int32_t>{2});
  EXPECT_EQ(tpu.bytes_in, 16u * 16u * 3u);  // the uint8 input
  EXPECT_EQ(tpu.bytes_out, 5u);
  EXPECT_EQ(s.accelerators->cpu_nodes, (std::vector<int32_t>{0, 2}));
  EXPECT_EQ(s.accelerators->unknowns.size(), 2u);
  // libedgetpu's CustomOpPrepare adds no temporaries: its Prepare is modelled, not estimated, and
  // its output sits in the arena: input (3072 B) at 0, input_uint8 (768 B) at 3072, probs_uint8
  // (5 B) at 3840.
  ASSERT_TRUE(s.arena.has_value());
  EXPECT_TRUE(s.arena->assumptions.empty());
  EXPECT_EQ(s.arena->size, 3072u + 768u + 5u);
  // The chip's transfers count wherever copies are: 768 B in and 5 B out per inference.
  EXPECT_EQ(s.copy.accelerator_bytes_in, 768u);
  EXPECT_EQ(s.copy.accelerator_bytes_out, 5u);
  EXPECT_EQ(s.copy.bytes_to_delegate, 768u);
  EXPECT_EQ(s.copy.bytes_from_delegate, 5u);
  EXPECT_FALSE(report->allocate_tensors_failure.has_value());
}

TEST(AcceleratorSegmentsTest, TheUncompiledTwinHasNone) {
  const Model model = Synthetic("edgetpu_classifier");
  auto plan = PlanModel(model, PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_FALSE(FindAcceleratorSegments(*plan->subgraphs[0].memory->prepared).has_value());
}

}  // namespace
}  // namespace tfa
