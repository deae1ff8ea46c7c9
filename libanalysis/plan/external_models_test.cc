// Real models nobody in this project wrote (tests/oracle/external.tar.xz: upstream LiteRT's own
// test models, TFLite Micro's, community apps; MANIFEST.tsv gives each one's origin), held to what
// upstream's own tests and sources say of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/plan/delegate_request.h"
#include "libanalysis/plan/model_plan.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

std::string ExternalPath(const std::string& name) {
  return testing::OraclePath("external/" + name + ".tflite");
}

Model LoadExternal(const std::string& name) {
  auto model = LoadModelFile(ExternalPath(name));
  EXPECT_TRUE(model.ok()) << model.status().message();
  return model.ok() ? std::move(model).value() : Model{};
}

PlanOptions WithDelegate(const std::string& spec) {
  PlanOptions options;
  if (spec.empty()) return options;
  auto profile = ResolveDelegateSpec(spec);
  EXPECT_TRUE(profile.ok()) << profile.status().message();
  if (profile.ok()) options.delegates.push_back(std::move(profile).value());
  return options;
}

// The models upstream refuses, and how (the corpus README).
bool RefusedByUpstream(const std::string& name) {
  // svdf_quantized's SVDF state is [1,9] where Prepare requires [1,42] (batch, memory size x
  // filters): upstream's AllocateTensors fails on it.
  return name == "LiteRT__tflite_testdata_0_subgraphs" ||
         name == "LiteRT__tflite_testdata_add_shared_tensors" ||
         name == "LiteRT__tflite_converter_quantization_lite_testdata_svdf_quantized";
}

// Every other model loads and plans with no delegate and with each delegate profile.
TEST(ExternalModels, EveryValidModelPlansUnderEveryDelegate) {
  int models = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::OraclePath("external"))) {
    if (entry.path().extension() != ".tflite") continue;
    const std::string name = entry.path().stem().string();
    if (RefusedByUpstream(name)) continue;
    ++models;
    auto model = LoadModelFile(entry.path().string());
    ASSERT_TRUE(model.ok()) << model.status().message();
    for (const std::string spec : {"", "gpu", "xnnpack", "nnapi", "flex", "npu-example",
                                   "npu-qualcomm", "npu-mediatek", "npu-google_tensor"}) {
      auto plan = PlanModel(*model, WithDelegate(spec));
      EXPECT_TRUE(plan.ok()) << name << " " << spec << ": " << plan.status().message();
    }
  }
  EXPECT_EQ(models, 26);
}

// InterpreterBuilder: "No subgraph in the model."
TEST(ExternalModels, AModelWithoutSubgraphsIsRefusedAtLoad) {
  auto model = LoadModelFile(ExternalPath("LiteRT__tflite_testdata_0_subgraphs"));
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.status().message().find("no subgraphs"), std::string::npos);
}

// AddNodeWithParameters refuses node 0 (ADD reads and writes tensor 1), InterpreterBuilder goes
// on, AllocateTensors fails on the inconsistent subgraph: the model loads, it does not plan.
TEST(ExternalModels, ANodeReadingItsOwnOutputLoadsButDoesNotAllocate) {
  const Model model = LoadExternal("LiteRT__tflite_testdata_add_shared_tensors");
  ASSERT_EQ(model.subgraphs.size(), 1u);
  EXPECT_EQ(model.subgraphs[0].nodes.size(), 2u);
  auto plan = PlanModel(model, PlanOptions{});
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("Tensor 1 is both input 0 and output 0"),
            std::string::npos)
      << plan.status().message();
  EXPECT_NE(plan.status().message().find("inconsistent"), std::string::npos);
}

// A blockwise INT4 weight [1024, 1024]: two values a byte (BytesRequired), 32-value blocks whose
// fp16 scales are tensor 3.
TEST(ExternalModels, Int4WeightsArePackedTwoToAByteAndBlockwiseQuantizationIsRead) {
  const Model model = LoadExternal("LiteRT__litert_test_testdata_qwen_fc_blockwise_quantized");
  ASSERT_EQ(model.subgraphs.size(), 1u);
  const Tensor& weights = model.subgraphs[0].tensors[1];
  EXPECT_EQ(weights.type, TensorType::kInt4);
  EXPECT_EQ(weights.shape, (std::vector<int32_t>{1024, 1024}));
  EXPECT_EQ(weights.bytes, 524288u);
  EXPECT_EQ(weights.constant_bytes, 524288u);
  const Quantization& q = weights.quantization;
  EXPECT_TRUE(q.blockwise);
  EXPECT_EQ(q.block_size, 32);
  EXPECT_EQ(q.block_scales, 3);
  EXPECT_EQ(q.block_zero_points, -1);
  EXPECT_EQ(model.subgraphs[0].tensors[3].type, TensorType::kFloat16);
}

// tflite/model_xnnpack_test.cc: with XNNPACK the execution plan is one delegate kernel over the
// three ADDs.
TEST(ExternalModels, XnnpackTakesAllThreeAddsOfMultiAdd) {
  const Model model = LoadExternal("LiteRT__tflite_testdata_multi_add");
  auto plan = PlanModel(model, WithDelegate("xnnpack"));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const Subgraph& g = *plan->subgraphs[0].delegated;
  ASSERT_EQ(g.execution_plan.size(), 1u);
  const Node& kernel = g.nodes[static_cast<size_t>(g.execution_plan[0])];
  EXPECT_EQ(kernel.kind, NodeKind::kDelegateKernel);
  EXPECT_EQ(kernel.replaces.size(), 3u);
}

// call_once_mul under XNNPACK (tests/oracle/external/...call_once_mul.xnnpack.json): the delegate
// takes the VAR_HANDLE alone and the MUL with the ASSIGN_VARIABLE, and prepares the VAR_HANDLE
// whose resource crosses to the CPU's READ_VARIABLE: arena 4, persistent arena 4.
TEST(ExternalModels, XnnpackPreparesTheVarHandleItTook) {
  const Model model = LoadExternal("LiteRT__tflite_testdata_call_once_mul");
  auto plan = PlanModel(model, WithDelegate("xnnpack"));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const SubgraphPlan& main = plan->subgraphs[0];
  ASSERT_TRUE(main.memory.has_value());
  EXPECT_EQ(main.memory->arena_size, 4u);
  EXPECT_EQ(main.memory->persistent_arena_size, 4u);
}

// litert/compiler/plugin/compiler_plugin_test.cc PartitionModelTest.PartitionIsland: the example
// plugin (MUL, SUB, odml.rms_norm) makes 2 partitions of 3 and 1 ops of MUL x3, ADD, MUL, and
// the main subgraph keeps 3 ops: dispatch, ADD, dispatch.
TEST(ExternalModels, ExamplePluginOutlinesIslandPartialIntoPartitionsOfThreeAndOne) {
  const Model model = LoadExternal("LiteRT__litert_test_testdata_island_partial");
  auto plan = PlanModel(model, WithDelegate("npu-example"));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const SubgraphPlan& s = plan->subgraphs[0];
  std::vector<size_t> partition_sizes;
  for (const NodeSubset& subset : s.last_subsets) {
    if (subset.type == SubsetType::kDelegate) partition_sizes.push_back(subset.nodes.size());
  }
  EXPECT_EQ(partition_sizes, (std::vector<size_t>{3, 1}));
  const Subgraph& g = *s.delegated;
  ASSERT_EQ(g.execution_plan.size(), 3u);
  EXPECT_EQ(g.nodes[static_cast<size_t>(g.execution_plan[0])].op, "npu:example");
  EXPECT_EQ(g.nodes[static_cast<size_t>(g.execution_plan[1])].op, "ADD");
  EXPECT_EQ(g.nodes[static_cast<size_t>(g.execution_plan[2])].op, "npu:example");
  EXPECT_NE(std::find(plan->delegation_notes.begin(), plan->delegation_notes.end(),
                      "npu:example: transcribed; the vendor SDK's own op validation may still "
                      "reject"),
            plan->delegation_notes.end());
}

// tflite/delegates/xnnpack: the odml.scaled_dot_product_attention composite with f32 rank-4
// inputs goes to XNNPACK whole.
TEST(ExternalModels, XnnpackTakesTheScaledDotProductAttentionComposite) {
  const Model model = LoadExternal("LiteRT__tflite_delegates_xnnpack_odml_sdpa_composite_gqa");
  ASSERT_EQ(model.subgraphs[0].nodes.size(), 1u);
  EXPECT_EQ(model.subgraphs[0].nodes[0].options->composite_name,
            "odml.scaled_dot_product_attention");
  EXPECT_EQ(model.subgraphs[0].nodes[0].options->subgraph, 1);
  auto plan = PlanModel(model, WithDelegate("xnnpack"));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const Subgraph& g = *plan->subgraphs[0].delegated;
  ASSERT_EQ(g.execution_plan.size(), 1u);
  EXPECT_EQ(g.nodes[static_cast<size_t>(g.execution_plan[0])].kind, NodeKind::kDelegateKernel);
}

// SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE: PACK is computed at Eval, so the RESHAPE at plan
// position 6 has a shape unknown at Prepare, its output is dynamic, and AllocateTensors plans the
// arena up to it only.
TEST(ExternalModels, DynamicShapesStopPlanningAtTheFirstDynamicOutput) {
  const Model model = LoadExternal("LiteRT__tflite_testdata_dynamic_shapes");
  auto plan = PlanModel(model, PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_TRUE(plan->subgraphs[0].memory.has_value());
  EXPECT_EQ(plan->subgraphs[0].memory->planning_stops_at, 6);
}

// Upstream's runtime_version table, checked against the min_runtime_version metadata that the
// converter stamped into these files from the same table.
TEST(ExternalModels, MinimumRuntimeVersionIsTheConvertersStamp) {
  const std::vector<std::pair<std::string, std::string>> stamped = {
      {"LiteRT__tflite_testdata_call_once_mul", "2.6.0"},
      {"LiteRT__tflite_testdata_multi_subgraphs_while", "1.15.0"},
      {"LiteRT__litert_test_testdata_simple_scatter_nd_op", "2.1.0"},
      {"LiteRT__tflite_converter_quantization_lite_testdata_mixed16x8", "1.14.0"},
      {"LiteRT__tflite_testdata_multi_signatures", "1.6.0"},
      {"coral-test_data__keras_lstm_mnist_ptq", "1.14.0"},
  };
  for (const auto& [name, version] : stamped) {
    auto plan = PlanModel(LoadExternal(name), PlanOptions{});
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    EXPECT_EQ(plan->runtime_version.minimum, version) << name;
    EXPECT_TRUE(plan->runtime_version.unknown.empty()) << name;
  }
}

// tflite/kernels/conv_mem_test: the mobile build keeps conv_huge_im2col under 3 GiB, since it
// drops the 3.5 GB im2col (IsMobilePlatform, kMaxIm2colBufferSizeMobile); x86-64 keeps it.
TEST(ExternalModels, MobileBuildsKeepTheHugeIm2colModelUnderThreeGibibytes) {
  const Model model = LoadExternal("LiteRT__tflite_testdata_conv_huge_im2col");
  auto desktop = PlanModel(model, PlanOptions{});
  ASSERT_TRUE(desktop.ok()) << desktop.status().message();
  EXPECT_EQ(desktop->subgraphs[0].memory->arena_size, 4438167552u);
  PlanOptions mobile;
  mobile.build = *KernelBuildFor("android-arm64", 1);
  auto android = PlanModel(model, mobile);
  ASSERT_TRUE(android.ok()) << android.status().message();
  EXPECT_EQ(android->subgraphs[0].memory->arena_size, 926650368u);
  EXPECT_LT(android->subgraphs[0].memory->arena_size, uint64_t{3} << 30);
}

// multi_add_flex (MANIFEST: 1 subgraph, 3 nodes, CUSTOM:FlexAddV2 x3, float32): the oracle README
// says that without the Flex delegate AllocateTensors returns unresolved ops. The plan still
// plans it, with the three nodes recorded as unresolved.
TEST(ExternalModels, MultiAddFlexWithoutTheFlexDelegateHasUnresolvedOps) {
  const Model model = LoadExternal("LiteRT__tflite_testdata_multi_add_flex");
  ASSERT_EQ(model.subgraphs.size(), 1u);
  ASSERT_EQ(model.subgraphs[0].nodes.size(), 3u);
  for (const Node& node : model.subgraphs[0].nodes) EXPECT_EQ(node.op, "FlexAddV2");
  auto plan = PlanModel(model, PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const SubgraphPlan& sp = plan->subgraphs[0];
  EXPECT_EQ(sp.unresolved_flex_nodes, (std::vector<int32_t>{0, 1, 2}));
  ASSERT_TRUE(sp.memory.has_value());
  EXPECT_EQ(sp.memory->arena_size, 388u);
}

// FlexDelegate::IsNodeSupportedByDelegate takes all three; they are consecutive, so one partition
// replaces them, and nothing is left unresolved.
TEST(ExternalModels, TheFlexDelegateTakesEveryFlexOpOfMultiAddFlex) {
  const Model model = LoadExternal("LiteRT__tflite_testdata_multi_add_flex");
  auto plan = PlanModel(model, WithDelegate("flex"));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const SubgraphPlan& sp = plan->subgraphs[0];
  ASSERT_EQ(sp.last_kernel_nodes.size(), 1u);
  const Node& kernel = sp.delegated->nodes[static_cast<size_t>(sp.last_kernel_nodes[0])];
  EXPECT_EQ(kernel.op, "flex");
  EXPECT_EQ(std::vector<int32_t>(kernel.replaces.begin(), kernel.replaces.end()),
            (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(sp.delegated->execution_plan, std::vector<int32_t>{sp.last_kernel_nodes[0]});
  EXPECT_TRUE(sp.unresolved_flex_nodes.empty());
  EXPECT_TRUE(sp.rejected.empty());
}

// InterpreterBuilder::ApplyDelegates applies the Flex delegate before the delegates the user adds
// (tflite/core/interpreter_builder.cc): listed after xnnpack, it still goes first, and XNNPACK then
// finds only its kernel, which it refuses.
TEST(ExternalModels, TheFlexDelegateIsAppliedBeforeTheUsersDelegates) {
  const Model model = LoadExternal("LiteRT__tflite_testdata_multi_add_flex");
  PlanOptions options = WithDelegate("xnnpack");
  options.delegates.push_back(WithDelegate("flex").delegates.at(0));
  auto plan = PlanModel(model, options);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_EQ(plan->delegates.size(), 2u);
  EXPECT_EQ(plan->delegates[0].name, "flex");
  EXPECT_EQ(plan->delegates[1].name, "xnnpack");
  EXPECT_EQ(plan->delegation_notes,
            std::vector<std::string>{
                "flex: applied before xnnpack: InterpreterBuilder applies it before every "
                "delegate the user adds"});
  const SubgraphPlan& sp = plan->subgraphs[0];
  ASSERT_EQ(sp.rejected.size(), 1u);
  EXPECT_EQ(sp.rejected[0].delegate, "xnnpack");
  EXPECT_EQ(sp.rejected[0].op, "flex");
}

// has_flex_op_ is false for a model without Flex ops: InterpreterBuilder applies no Flex delegate.
TEST(ExternalModels, TheFlexDelegateIsNotAppliedToAModelWithoutFlexOps) {
  const Model model = LoadExternal("LiteRT__tflite_testdata_multi_add");
  auto plan = PlanModel(model, WithDelegate("flex"));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_TRUE(plan->delegates.empty());
  ASSERT_EQ(plan->delegation_notes.size(), 1u);
  EXPECT_EQ(plan->delegation_notes[0].rfind("flex: not applied", 0), 0u);
  EXPECT_TRUE(plan->subgraphs[0].unresolved_flex_nodes.empty());
}

// Upstream's GPU delegate takes all four nodes of micro_speech_quantized, then its kernel's init
// fails (its FULLY_CONNECTED reads 8 channels with weights 4000 wide), and the interpreter
// restores the original plan: no partition, the CPU arena (oracle: external/
// tflite-micro__..._micro_speech_quantized.gpu.json, arena_size 7976, delegate_messages).
TEST(ExternalModels, GpuKernelInitFailureOnMicroSpeechRestoresTheOriginalPlan) {
  const Model model = LoadExternal(
      "tflite-micro__tensorflow_lite_micro_examples_micro_speech_models_micro_speech_quantized");
  auto plan = PlanModel(model, WithDelegate("gpu"));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_TRUE(plan->delegates.empty());
  ASSERT_EQ(plan->delegate_failures.size(), 1u);
  const DelegateFailure& f = plan->delegate_failures[0];
  EXPECT_EQ(f.delegate, "gpu");
  EXPECT_EQ(f.subgraph, 0);
  EXPECT_EQ(f.nodes, (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(f.reason, "FULLY_CONNECTED: Amount of input channels should match weights width");
  EXPECT_EQ(f.log, (std::vector<std::string>{
                       "TfLiteGpuDelegate Init: FULLY_CONNECTED: Amount of input channels should "
                       "match weights width",
                       "TfLiteGpuDelegate Prepare: delegate is not initialized",
                       "Node number 4 (TfLiteGpuDelegateV2) failed to prepare.",
                       "Restored original execution plan after delegate application failure."}));
  const SubgraphPlan& sp = plan->subgraphs[0];
  EXPECT_TRUE(sp.last_kernel_nodes.empty());
  EXPECT_EQ(sp.delegated->execution_plan, (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(sp.memory->arena_size, 7976u);
  EXPECT_EQ(sp.memory->persistent_arena_size, 0u);
}

// qwen_fc_blockwise_quantized: the GPU delegate selects the INT4 blockwise FULLY_CONNECTED and
// its init cannot read the weights as float data (oracle gpu.json: arena 13380, "Node number 1");
// XNNPACK takes it as a dynamically quantized FULLY_CONNECTED, since upstream builds the delegate
// with XNNPACK_DELEGATE_USE_LATEST_OPS (oracle xnnpack.json: one kernel, arena 8192).
TEST(ExternalModels, QwenBlockwiseInt4FullyConnectedGoesToXnnpackNotToTheGpu) {
  const Model model = LoadExternal("LiteRT__litert_test_testdata_qwen_fc_blockwise_quantized");
  auto gpu = PlanModel(model, WithDelegate("gpu"));
  ASSERT_TRUE(gpu.ok()) << gpu.status().message();
  ASSERT_EQ(gpu->delegate_failures.size(), 1u);
  EXPECT_EQ(gpu->delegate_failures[0].reason,
            "FULLY_CONNECTED: Unsupported data type for float32 tensor");
  EXPECT_EQ(gpu->delegate_failures[0].log.at(2),
            "Node number 1 (TfLiteGpuDelegateV2) failed to prepare.");
  EXPECT_TRUE(gpu->subgraphs[0].last_kernel_nodes.empty());
  EXPECT_EQ(gpu->subgraphs[0].memory->arena_size, 13380u);

  auto xnnpack = PlanModel(model, WithDelegate("xnnpack"));
  ASSERT_TRUE(xnnpack.ok()) << xnnpack.status().message();
  EXPECT_TRUE(xnnpack->delegate_failures.empty());
  const SubgraphPlan& sp = xnnpack->subgraphs[0];
  ASSERT_EQ(sp.last_kernel_nodes.size(), 1u);
  const Node& kernel = sp.delegated->nodes[static_cast<size_t>(sp.last_kernel_nodes[0])];
  EXPECT_EQ(std::vector<int32_t>(kernel.replaces.begin(), kernel.replaces.end()),
            std::vector<int32_t>{0});
  EXPECT_TRUE(sp.rejected.empty());
  EXPECT_EQ(sp.memory->arena_size, 8192u);
}

// multi_subgraphs_while: the GPU delegate takes one ADD of the WHILE body (subgraph 2), whose
// kernel fails its init on the scalar "arg2"; the interpreter removes the delegate from every
// subgraph (oracle gpu.json: "Node number 3", main arena 196).
TEST(ExternalModels, GpuKernelInitFailureInAWhileBodyRemovesTheDelegateEverywhere) {
  const Model model = LoadExternal("LiteRT__tflite_testdata_multi_subgraphs_while");
  auto plan = PlanModel(model, WithDelegate("gpu"));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_EQ(plan->delegate_failures.size(), 1u);
  const DelegateFailure& f = plan->delegate_failures[0];
  EXPECT_EQ(f.subgraph, 2);
  EXPECT_EQ(f.nodes, std::vector<int32_t>{1});
  EXPECT_EQ(f.reason, "Tensor \"arg2\" has bad input dims size: 0.");
  EXPECT_EQ(f.log.at(2), "Node number 3 (TfLiteGpuDelegateV2) failed to prepare.");
  for (const SubgraphPlan& sp : plan->subgraphs) EXPECT_TRUE(sp.last_kernel_nodes.empty());
  EXPECT_EQ(plan->subgraphs[0].memory->arena_size, 196u);
}

}  // namespace
}  // namespace tfa
