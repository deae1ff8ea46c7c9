#include "libanalysis/tflm/cmsis_nn_kernels.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/tflm/micro_allocator_replay.h"
#include "tests/support/test_paths.h"

namespace tfa::tflm {
namespace {

Model LoadTflmModel(const std::string& name) {
  auto model = LoadModelFile(
      testing::OraclePath("external/tflite-micro__tensorflow_lite_micro_" + name + ".tflite"));
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? std::move(model).value() : Model{};
}

Build CmsisNn(CmsisNnCpu cpu) {
  Build build{Target::kMcu32};
  build.cmsis_nn = cpu;
  return build;
}

KernelRequests RequestsOf(const Model& model, size_t node, const Build& build) {
  auto requests = RequestsOfNode(build, model.subgraphs[0], model.subgraphs[0].nodes[node]);
  EXPECT_TRUE(requests.ok()) << requests.status().message();
  return requests.ok() ? std::move(requests).value() : KernelRequests{};
}

// conv.cc: OpData {OpDataConv, buffer_idx} (56 + 4 bytes), the reference's per-channel arrays,
// and arm_convolve_wrapper_s8's im2col for 3x3x16 columns.
TEST(CmsisNnKernels, ConvAsksForTheWrappersBuffer) {
  const Model model = LoadTflmModel("testing_test_conv_model");
  const KernelRequests reference = RequestsOf(model, 2, Target::kMcu32);
  EXPECT_EQ(reference.op_data, 56u);
  for (CmsisNnCpu cpu : {CmsisNnCpu::kPlainC, CmsisNnCpu::kCortexM4, CmsisNnCpu::kCortexM55}) {
    const KernelRequests conv = RequestsOf(model, 2, CmsisNn(cpu));
    EXPECT_EQ(conv.op_data, 60u);
    EXPECT_EQ(conv.persistent_buffers, (std::vector<uint64_t>{128, 128}));
    EXPECT_EQ(conv.scratch_buffers, (std::vector<uint64_t>{576}));
  }
  // The first convolution: 3x3x1 columns, 48 bytes on DSP, 64 on MVE.
  EXPECT_EQ(RequestsOf(model, 1, CmsisNn(CmsisNnCpu::kCortexM7)).scratch_buffers,
            (std::vector<uint64_t>{48}));
  EXPECT_EQ(RequestsOf(model, 1, CmsisNn(CmsisNnCpu::kCortexM85)).scratch_buffers,
            (std::vector<uint64_t>{64}));
}

// fully_connected.cc: seven more fields of OpData; MVE's kernel sums, one int32 per output, in
// a persistent buffer rather than a scratch one.
TEST(CmsisNnKernels, FullyConnectedKernelSumsArePersistentOnMve) {
  const Model model = LoadTflmModel("testing_test_conv_model");
  const KernelRequests dsp = RequestsOf(model, 5, CmsisNn(CmsisNnCpu::kCortexM4));
  EXPECT_EQ(dsp.op_data, 48u + 28u);
  EXPECT_TRUE(dsp.persistent_buffers.empty());
  EXPECT_TRUE(dsp.scratch_buffers.empty());
  const KernelRequests mve = RequestsOf(model, 5, CmsisNn(CmsisNnCpu::kCortexM55));
  EXPECT_EQ(mve.persistent_buffers, (std::vector<uint64_t>{40}));
  EXPECT_TRUE(mve.scratch_buffers.empty());
}

// pooling.cc and softmax.cc: their OpData grows (a buffer index; num_rows and row_size).
TEST(CmsisNnKernels, PoolingAndSoftmaxOpData) {
  const Model conv = LoadTflmModel("testing_test_conv_model");
  EXPECT_EQ(RequestsOf(conv, 3, CmsisNn(CmsisNnCpu::kCortexM4)).op_data, 36u);
  const Model speech = LoadTflmModel("examples_micro_speech_models_micro_speech_quantized");
  EXPECT_EQ(RequestsOf(speech, 3, Target::kMcu32).op_data, 56u);
  EXPECT_EQ(RequestsOf(speech, 3, CmsisNn(CmsisNnCpu::kCortexM4)).op_data, 64u);
}

// depthwise_conv.cc: a channel multiplier of 8 (1 channel in, 8 out) runs the kernel that needs
// no buffer on every core.
TEST(CmsisNnKernels, DepthwiseWithAChannelMultiplierNeedsNoBuffer) {
  const Model speech = LoadTflmModel("examples_micro_speech_models_micro_speech_quantized");
  for (CmsisNnCpu cpu : {CmsisNnCpu::kCortexM0, CmsisNnCpu::kCortexM4, CmsisNnCpu::kCortexM55}) {
    const KernelRequests depthwise = RequestsOf(speech, 1, CmsisNn(cpu));
    EXPECT_EQ(depthwise.op_data, 60u);
    EXPECT_EQ(depthwise.persistent_buffers, (std::vector<uint64_t>{32, 32}));
    EXPECT_TRUE(depthwise.scratch_buffers.empty());
  }
}

// svdf.cc: CmsisNnOpDataSvdf (nine ints and a pointer), the reference's two scratch buffers,
// and on MVE a kernel sum per feature row.
TEST(CmsisNnKernels, SvdfKernelSumsOnMve) {
  const Model keyword = LoadTflmModel("models_keyword_scrambled");
  const KernelRequests dsp = RequestsOf(keyword, 1, CmsisNn(CmsisNnCpu::kCortexM33));
  EXPECT_EQ(dsp.op_data, 40u);
  EXPECT_EQ(dsp.scratch_buffers, (std::vector<uint64_t>{256, 256}));
  EXPECT_TRUE(dsp.persistent_buffers.empty());
  const KernelRequests mve = RequestsOf(keyword, 1, CmsisNn(CmsisNnCpu::kCortexM55));
  EXPECT_EQ(mve.persistent_buffers, (std::vector<uint64_t>{256}));
}

TEST(CmsisNnKernels, ReplacedKernelsNotModelledAreRefused) {
  const Model seanet = LoadTflmModel("integration_tests_seanet_transpose_conv_transpose_conv0");
  auto requests = RequestsOfNode(CmsisNn(CmsisNnCpu::kCortexM4), seanet.subgraphs[0],
                                 seanet.subgraphs[0].nodes[0]);
  ASSERT_FALSE(requests.ok());
  EXPECT_NE(requests.status().message().find("CMSIS-NN TRANSPOSE_CONV kernel"), std::string::npos)
      << requests.status().message();
  EXPECT_EQ(CmsisNnKernelSource("CONV_2D"), "conv.cc");
  EXPECT_FALSE(CmsisNnKernelSource("RESHAPE"));
}

// pooling.cc: an int8 average pool sums an int32 per channel on DSP (7 x 32 output: 128
// bytes); an int16 one, which later revisions size differently, is refused.
TEST(CmsisNnKernels, AveragePoolBuffer) {
  Subgraph graph;
  for (TensorType type : {TensorType::kInt8, TensorType::kInt8, TensorType::kInt16}) {
    Tensor tensor;
    tensor.type = type;
    tensor.shape = graph.tensors.size() == 1 ? Dims{1, 7, 7, 32} : Dims{1, 14, 14, 32};
    graph.tensors.push_back(tensor);
  }
  Node pool;
  pool.op = "AVERAGE_POOL_2D";
  pool.inputs = {0};
  pool.outputs = {1};
  auto dsp = RequestsOfNode(CmsisNn(CmsisNnCpu::kCortexM4), graph, pool);
  ASSERT_TRUE(dsp.ok()) << dsp.status().message();
  EXPECT_EQ(dsp->op_data, 36u);
  EXPECT_EQ(dsp->scratch_buffers, (std::vector<uint64_t>{128}));
  auto mve = RequestsOfNode(CmsisNn(CmsisNnCpu::kCortexM85), graph, pool);
  ASSERT_TRUE(mve.ok());
  EXPECT_TRUE(mve->scratch_buffers.empty());
  pool.inputs = {2};
  EXPECT_FALSE(RequestsOfNode(CmsisNn(CmsisNnCpu::kCortexM4), graph, pool).ok());
}

// Ops the port does not replace keep the reference kernel's requests.
TEST(CmsisNnKernels, OtherOpsKeepTheReferenceKernel) {
  const Model conv = LoadTflmModel("testing_test_conv_model");
  for (size_t node : {size_t{0}, size_t{4}, size_t{6}}) {  // QUANTIZE, RESHAPE, DEQUANTIZE
    const KernelRequests reference = RequestsOf(conv, node, Target::kMcu32);
    const KernelRequests cmsis = RequestsOf(conv, node, CmsisNn(CmsisNnCpu::kCortexM4));
    EXPECT_EQ(cmsis.op_data, reference.op_data);
    EXPECT_EQ(cmsis.persistent_buffers, reference.persistent_buffers);
    EXPECT_EQ(cmsis.scratch_buffers, reference.scratch_buffers);
  }
}

// The whole replay: the predicted arena of a CMSIS-NN build against the reference kernels'.
TEST(CmsisNnKernels, ReplayOfTheConvModel) {
  const Model conv = LoadTflmModel("testing_test_conv_model");
  auto reference = ReplayMicroAllocator(conv, Target::kMcu32);
  auto m4 = ReplayMicroAllocator(conv, CmsisNn(CmsisNnCpu::kCortexM4));
  ASSERT_TRUE(reference.ok() && m4.ok());
  EXPECT_EQ(m4->cmsis_nn, CmsisNnCpu::kCortexM4);
  EXPECT_EQ(m4->scratch_buffer_count, 2u);
  EXPECT_EQ(reference->scratch_buffer_count, 0u);
  EXPECT_EQ(m4->head, 8320u);  // conv 2's input and output (7,744) and its 576-byte im2col
  EXPECT_EQ(m4->tail, 1500u);  // 1,452 + the bigger OpData and the scratch handles
}

}  // namespace
}  // namespace tfa::tflm
