// Differential property tests: every kernel of the OpenCL delegate against the runtime's CPU
// kernel for the same op, node by node, on random shapes (channel counts that are not a multiple
// of 4, odd and large spatial sizes, broadcasts) and every option combination the gpu profile
// accepts. Ops the runtime has no CPU kernel for are held to a host reference written here from
// upstream's definition of the op.
//
// The OpenCL side runs the node as the partition kernel does (EncodeNode, buffers for the tensors
// the partition kernel puts on the device, the steps enqueued in order), so what passes here is
// what a partition computes. The op program is built once per test process.
//
// This file runs one test per op (OpProperties lists every op once); the properties live by op
// family in opencl_*_property_test.cc, the harness in runtime/delegates/testing/
// (opencl_node_check.h, opencl_case_generators.h).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <functional>
#include <initializer_list>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "runtime/delegates/opencl/opencl_ops.h"
#include "runtime/delegates/testing/opencl_node_check.h"
#include "runtime/delegates/testing/opencl_op_properties.h"

namespace tfa::runtime::opencl_property {
namespace {

// One test per op, each checking RC_PARAMS' max_success random cases (CMake sets 200).
struct OpProperty {
  std::string op;
  std::function<void()> property;
};

std::vector<OpProperty> OpProperties() {
  std::vector<OpProperty> properties = {
      {"CONV_2D", Conv2DMatchesCpu},
      {"DEPTHWISE_CONV_2D", DepthwiseConv2DMatchesCpu},
      {"TRANSPOSE_CONV", TransposeConvMatchesCpu},
      {"Convolution2DTransposeBias", Convolution2DTransposeBiasMatchesCpu},
      {"FULLY_CONNECTED", FullyConnectedMatchesCpu},
      {"PRELU", PreluMatchesCpu},
      {"SOFTMAX", SoftmaxMatchesCpu},
      {"MIRROR_PAD", MirrorPadMatchesCpu},
      {"CONCATENATION", ConcatenationMatchesCpu},
      {"SLICE", SliceMatchesCpu},
      {"STRIDED_SLICE", StridedSliceMatchesCpu},
      {"TRANSPOSE", TransposeMatchesCpu},
      {"GATHER", GatherMatchesCpu},
      {"TILE", TileMatchesReference},
      {"ADD_N", AddNMatchesReference},
      {"BATCH_MATMUL", BatchMatmulMatchesReference},
      {"LOGICAL_AND", LogicalAndMatchesReference},
      {"CAST", CastMatchesCpu},
  };
  const auto add = [&](std::initializer_list<const char*> ops,
                       void (*property)(const std::string&)) {
    for (const char* op : ops) properties.push_back({op, [op, property] { property(op); }});
  };
  add({"QUANTIZE", "DEQUANTIZE"}, FakeQuantMatchesCpuRoundTrip);
  add({"ADD", "SUB", "MUL", "DIV", "MAXIMUM", "MINIMUM", "SQUARED_DIFFERENCE", "POW", "FLOOR_DIV",
       "FLOOR_MOD"},
      BinaryOpMatchesCpu);
  add({"RELU",   "RELU6",      "RELU_N1_TO_1", "RELU_0_TO_1", "LOGISTIC", "TANH", "HARD_SWISH",
       "ELU",    "LEAKY_RELU", "ABS",          "EXP",         "LOG",      "SQRT", "RSQRT",
       "SQUARE", "NEG",        "SIN",          "COS",         "FLOOR",    "SIGN", "GELU"},
      UnaryOpMatchesCpu);
  add({"AVERAGE_POOL_2D", "MAX_POOL_2D"}, Pool2DMatchesCpu);
  add({"MaxPoolingWithArgmax2D"}, MaxPoolingWithArgmaxMatchesCpu);
  add({"MaxUnpooling2D"}, MaxUnpoolingMatchesCpu);
  add({"RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"}, ResizeMatchesCpu);
  add({"PAD", "PADV2"}, PadMatchesCpu);
  add({"MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD"}, ReductionMatchesCpu);
  add({"RESHAPE", "SQUEEZE", "EXPAND_DIMS"}, ReshapeMatchesCpu);
  add({"DEPTH_TO_SPACE", "SPACE_TO_DEPTH"}, DepthSpaceShuffleMatchesCpu);
  add({"SPLIT", "SPLIT_V"}, SplitMatchesCpu);
  add({"PACK", "UNPACK"}, PackOrUnpackMatchesReference);
  add({"EQUAL", "NOT_EQUAL", "GREATER", "GREATER_EQUAL", "LESS", "LESS_EQUAL"},
      ComparisonMatchesReference);
  add({"SELECT", "SELECT_V2"}, SelectMatchesReference);
  return properties;
}

// Test names and messages show the op, not the bytes of the struct.
void PrintTo(const OpProperty& property, std::ostream* os) { *os << property.op; }

class OpenClKernelProperty : public ::testing::TestWithParam<OpProperty> {};

TEST_P(OpenClKernelProperty, MatchesCpu) {
  if (!Runner().program) GTEST_SKIP() << Runner().unavailable;
  ::rc::detail::checkGTest(GetParam().property);
}

INSTANTIATE_TEST_SUITE_P(Ops, OpenClKernelProperty, ::testing::ValuesIn(OpProperties()),
                         [](const auto& info) { return info.param.op; });

// Every op the delegate has a kernel for is covered (DENSIFY only runs folded, at Prepare, on the
// host; LSTM, whose states are model tensors, is checked on whole models by OpenClLstmTest).
TEST(OpenClKernelPropertyTest, CoversEveryOpOfTheDelegate) {
  std::set<std::string> covered;
  for (const OpProperty& p : OpProperties()) covered.insert(p.op);
  for (const std::string& op : covered) EXPECT_TRUE(OpenClHasKernelFor(op)) << op;
  EXPECT_EQ(covered.size() + 2, OpenClOpNames().size());
}

}  // namespace
}  // namespace tfa::runtime::opencl_property
