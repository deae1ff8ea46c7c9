// TFLite Micro's own figures for the public models of tests/oracle/external, as its
// RecordingMicroAllocator measures them (tflite-micro 90b983c2b3f1, the four builds of the
// oracle's external/tflm/: 64-bit and 32-bit x86 (-m32, so the i386 ABI), each without and with
// TF_LITE_STATIC_MEMORY). Every model TFLM allocates is replayed to the byte; every model TFLM
// refuses is refused.
#include <gtest/gtest.h>

#include <iterator>
#include <string>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/tflm/micro_allocator_replay.h"
#include "tests/support/test_paths.h"

namespace tfa::tflm {
namespace {

struct Figures {
  uint64_t head = 0;
  uint64_t tail = 0;  // tail_model_only: less the recording allocator's objects
  uint64_t arena_used_bytes = 0;
};

// The four builds, in the order of AllocatedModel::figures.
Build OracleBuild(size_t index) {
  Build build = index < 2 ? Build{Target::kHost64} : Build{Target::kMcu32, Abi::kI386};
  build.static_memory = index % 2 == 1;
  build.recording_allocator = true;
  return build;
}

struct AllocatedModel {
  const char* name;
  // 64-bit, 64-bit static memory, 32-bit (i386), 32-bit (i386) static memory.
  Figures figures[4];
};

constexpr AllocatedModel kAllocated[] = {
    {"LiteRT__litert_js_packages_core_testdata_delegate_compatibility_test",
     {{2400, 2424, 5280}, {2400, 2200, 5056}, {2400, 1924, 4560}, {2400, 1820, 4456}}},
    {"LiteRT__litert_test_testdata_island_partial",
     {{48, 1320, 1824}, {48, 1064, 1568}, {48, 836, 1120}, {48, 700, 984}}},
    {"LiteRT__litert_test_testdata_rope",
     {{1036800, 2760, 1040016},
      {1036800, 2264, 1039520},
      {1036800, 1668, 1038704},
      {1036800, 1420, 1038456}}},
    {"LiteRT__tflite_converter_quantization_lite_testdata_mixed16x8",
     {{352, 696, 1504}, {352, 552, 1360}, {352, 436, 1024}, {352, 348, 936}}},
    {"LiteRT__tflite_testdata_add_shared_tensors",
     {{2304, 648, 3408}, {2304, 504, 3264}, {2304, 436, 2976}, {2304, 348, 2888}}},
    {"LiteRT__tflite_testdata_call_once_mul",
     {{48, 1288, 1792}, {48, 1032, 1536}, {48, 756, 1040}, {48, 604, 888}}},
    {"LiteRT__tflite_testdata_conv_huge_im2col",
     {{780337152, 1352, 780338960},
      {780337152, 1048, 780338656},
      {780337152, 820, 780338208},
      {780337152, 668, 780338056}}},
    {"LiteRT__tflite_testdata_empty_model", {{0, 8, 464}, {0, 8, 464}, {0, 4, 240}, {0, 4, 240}}},
    {"LiteRT__tflite_testdata_multi_add",
     {{3840, 1368, 5664}, {3840, 1016, 5312}, {3840, 852, 4928}, {3840, 676, 4752}}},
    {"LiteRT__tflite_testdata_multi_signatures",
     {{32, 744, 1232}, {32, 600, 1088}, {32, 468, 736}, {32, 396, 664}}},
    {"LiteRT__tflite_testdata_multi_subgraphs_while",
     {{128, 1528, 2112}, {128, 1256, 1840}, {128, 932, 1296}, {128, 788, 1152}}},
    {"coral-test_data__keras_lstm_mnist_ptq",
     {{1568, 2632, 4656}, {1568, 2392, 4416}, {1568, 1816, 3620}, {1568, 1696, 3500}}},
    {"mediapipe__mediapipe_util_tflite_testdata_test_two_signature_keys_model",
     {{96, 2152, 2704}, {96, 1720, 2272}, {96, 1332, 1664}, {96, 1132, 1464}}},
    {"tflite-micro__tensorflow_lite_micro_examples_hello_world_models_hello_world_int8",
     {{32, 1064, 1552}, {32, 904, 1392}, {32, 648, 916}, {32, 560, 828}}},
    {"tflite-micro__tensorflow_lite_micro_examples_micro_speech_models_micro_speech_quantized",
     {{5968, 1288, 7712}, {5968, 1096, 7520}, {5968, 808, 7012}, {5968, 704, 6908}}},
    {"tflite-micro__tensorflow_lite_micro_integration_tests_seanet_transpose_conv_transpose_conv0",
     {{23696, 1272, 25424}, {23696, 1112, 25264}, {23696, 968, 24900}, {23696, 896, 24828}}},
    {"tflite-micro__tensorflow_lite_micro_models_keyword_scrambled",
     {{672, 14264, 15392}, {672, 13800, 14928}, {672, 12680, 13588}, {672, 12448, 13356}}},
    {"tflite-micro__tensorflow_lite_micro_testing_test_conv_model",
     {{7744, 2088, 10288}, {7744, 1832, 10032}, {7744, 1444, 9424}, {7744, 1308, 9288}}},
};

// TFLM's refusals: unresolved ops, and kernels that fail Prepare (with TFLM's error line).
struct RefusedModel {
  const char* name;
  const char* reason;  // part of our error message
};

constexpr RefusedModel kRefused[] = {
    {"LiteRT__litert_test_testdata_qwen_fc_blockwise_quantized",
     "TFLite Micro refuses it in Prepare: Input type: FLOAT32 with filter type: INT4 not "
     "supported."},
    {"LiteRT__litert_test_testdata_simple_scatter_nd_op",
     "TFLite Micro has no kernel for SCATTER_ND"},
    {"LiteRT__litert_test_testdata_simple_topk_op_runtime_k",
     "TFLite Micro has no kernel for TOPK_V2"},
    {"LiteRT__tflite_converter_quantization_lite_testdata_svdf_quantized",
     "TFLite Micro refuses it in Prepare: output->dims->data[1] != num_units (4 != 6)"},
    {"LiteRT__tflite_delegates_xnnpack_odml_sdpa_composite_gqa",
     "TFLite Micro has no kernel for STABLEHLO_COMPOSITE"},
    {"LiteRT__tflite_testdata_0_subgraphs", "no subgraphs"},  // TFLM aborts on it
    {"LiteRT__tflite_testdata_dynamic_shapes", "TFLite Micro has no kernel for TILE"},
    {"LiteRT__tflite_testdata_lstm", "TFLite Micro has no kernel for LSTM"},
    {"LiteRT__tflite_testdata_multi_add_flex", "TFLite Micro has no kernel for FlexAddV2"},
    {"LiteRT__tflite_testdata_segment_sum_invalid_buffer",
     "TFLite Micro has no kernel for SEGMENT_SUM"},
    {"LiteRT__tflite_testdata_sparse_tensor", "TFLite Micro has no kernel for FakeOp"},
};

Result<Model> LoadExternal(const std::string& name) {
  return LoadModelFile(testing::OraclePath("external/" + name + ".tflite"));
}

TEST(TflmReplayReference, EveryModelTflmAllocatesIsExactInAllFourBuilds) {
  for (const AllocatedModel& expected : kAllocated) {
    auto model = LoadExternal(expected.name);
    ASSERT_TRUE(model.ok()) << model.status().message();
    for (size_t b = 0; b < std::size(expected.figures); ++b) {
      auto arena = ReplayMicroAllocator(model.value(), OracleBuild(b));
      const std::string where = std::string(expected.name) + " build " + std::to_string(b);
      ASSERT_TRUE(arena.ok()) << where << ": " << arena.status().message();
      EXPECT_EQ(arena.value().head, expected.figures[b].head) << where;
      EXPECT_EQ(arena.value().tail, expected.figures[b].tail) << where;
      EXPECT_EQ(arena.value().arena_used_bytes, expected.figures[b].arena_used_bytes) << where;
    }
  }
}

TEST(TflmReplayReference, EveryModelTflmRefusesIsRefusedWithItsReason) {
  for (const RefusedModel& expected : kRefused) {
    auto model = LoadExternal(expected.name);
    const Status status =
        model.ok() ? ReplayMicroAllocator(model.value(), Target::kHost64).status() : model.status();
    ASSERT_FALSE(status.ok()) << expected.name;
    EXPECT_NE(status.message().find(expected.reason), std::string::npos)
        << expected.name << ": " << status.message();
  }
}

// What the two 32-bit effects are worth on keyword_scrambled: the i386 ABI lays QUANTIZE's
// OpData out in 24 bytes instead of 32 (twice), and the recording allocator's 236 bytes of
// objects (against 132) move the tail's 16-byte padding. A Cortex-M MicroInterpreter (AAPCS,
// plain allocator) needs a 12,688-byte model tail: the replay's prediction, not a measurement.
TEST(TflmReplayReference, KeywordTailUnderEachAbiAndAllocator) {
  auto model = LoadExternal("tflite-micro__tensorflow_lite_micro_models_keyword_scrambled");
  ASSERT_TRUE(model.ok());
  const auto tail = [&](Abi abi, bool recording) {
    Build build{Target::kMcu32, abi};
    build.recording_allocator = recording;
    auto arena = ReplayMicroAllocator(model.value(), build);
    EXPECT_TRUE(arena.ok()) << arena.status().message();
    return arena.ok() ? arena.value().tail : 0;
  };
  EXPECT_EQ(tail(Abi::kAapcs, false), 12688u);
  EXPECT_EQ(tail(Abi::kI386, true), 12680u);
  auto aapcs = ReplayMicroAllocator(model.value(), Build{Target::kMcu32, Abi::kAapcs});
  auto i386 = ReplayMicroAllocator(model.value(), Build{Target::kMcu32, Abi::kI386});
  ASSERT_TRUE(aapcs.ok() && i386.ok());
  EXPECT_EQ(aapcs.value().op_data_requested - i386.value().op_data_requested, 2u * 8u);
}

}  // namespace
}  // namespace tfa::tflm
