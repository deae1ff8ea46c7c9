// `run --validate` on generated models with BIDIRECTIONAL_SEQUENCE_LSTM (48 inputs, variable
// states): float32 and hybrid (int8 weights), two outputs or one merged, with and without the
// auxiliary input; what upstream's kernel cannot run is refused in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "tests/support/synthetic_model_file.h"
#include "tests/support/tool_runner.h"

namespace tfa {
namespace {

using testing::RunTool;
using testing::SmallValues;

struct Variant {
  std::string name;
  bool hybrid = false, asymmetric = false;
  bool uint8_weights = false;  // hybrid weights in uint8 tensors, as the legacy converter wrote
  bool time_major = false, merge_outputs = false;
  bool cifg = false, peephole = false, projection = false;
  bool cross_links = false;  // an auxiliary input with weights in both directions
  int32_t batch = 2;
};

constexpr int32_t kTime = 4, kInputSize = 3, kCells = 5, kProjected = 3;

class BidirectionalLstmModel {
 public:
  explicit BidirectionalLstmModel(Variant v) : v_(std::move(v)), b_(v_.name + ".tflite") {
    b_.AddSubgraph("main");
  }

  std::string Write() && {
    const std::vector<int32_t> shape = v_.time_major
                                           ? std::vector<int32_t>{kTime, v_.batch, kInputSize}
                                           : std::vector<int32_t>{v_.batch, kTime, kInputSize};
    const int32_t units = v_.projection ? kProjected : kCells;
    const int32_t x = b_.AddTensor(0, "x", TensorType::kFloat32, shape);
    std::vector<int32_t> inputs = {x};
    Direction(inputs, "fw", units);
    Direction(inputs, "bw", units);
    for (const char* direction : {"fw", "bw"}) {
      inputs.push_back(b_.AddVariable(0, std::string(direction) + "/activation_state",
                                      TensorType::kFloat32, {v_.batch, units}));
      inputs.push_back(b_.AddVariable(0, std::string(direction) + "/cell_state",
                                      TensorType::kFloat32, {v_.batch, kCells}));
    }
    std::vector<int32_t> graph_inputs = {x};
    if (v_.cross_links) {
      const int32_t aux = b_.AddTensor(0, "aux", TensorType::kFloat32, shape);
      graph_inputs.push_back(aux);
      inputs.push_back(aux);
      for (const char* direction : {"fw", "bw"}) {
        for (int gate = 0; gate < 4; ++gate) {
          inputs.push_back(v_.cifg && gate == 0 ? -1
                                                : Weights(std::string(direction) + "/aux_weights",
                                                          {kCells, kInputSize}));
        }
      }
    } else {
      for (int i = 0; i < 9; ++i) inputs.push_back(-1);
    }
    std::vector<int32_t> out_shape = shape;
    out_shape.back() = v_.merge_outputs ? 2 * units : units;
    std::vector<int32_t> outputs = {b_.AddTensor(0, "fw_output", TensorType::kFloat32, out_shape)};
    if (!v_.merge_outputs)
      outputs.push_back(b_.AddTensor(0, "bw_output", TensorType::kFloat32, out_shape));
    OpOptions o;
    o.fused_activation = Activation::kTanh;
    o.time_major = v_.time_major;
    o.merge_outputs = v_.merge_outputs;
    o.asymmetric_quantize_inputs = v_.asymmetric;
    if (v_.projection) {
      o.cell_clip = 3.0f;
      o.proj_clip = 0.4f;
    }
    // Upstream's op_version: 2 hybrid, 3 hybrid with asymmetric inputs.
    const int32_t version = v_.hybrid ? (v_.asymmetric ? 3 : 2) : 1;
    b_.AddNode(0, "BIDIRECTIONAL_SEQUENCE_LSTM", inputs, outputs, o, version);
    b_.SetInputs(0, graph_inputs);
    b_.SetOutputs(0, outputs);
    return testing::WriteSyntheticModel(std::move(b_), v_.name + ".tflite");
  }

 private:
  // Float, or int8 of one scale (max |w| / 127) as upstream's converter quantizes weights.
  int32_t Weights(const std::string& name, std::vector<int32_t> shape) {
    int64_t n = 1;
    for (int32_t d : shape) n *= d;
    const std::vector<float> values = SmallValues(static_cast<size_t>(n), 0.5f, ++seed_);
    if (!v_.hybrid) return b_.AddConstant(0, name, TensorType::kFloat32, shape, FloatBytes(values));
    float range = 0;
    for (float value : values) range = std::max(range, std::fabs(value));
    std::vector<int8_t> quantized;
    for (float value : values)
      quantized.push_back(static_cast<int8_t>(std::lround(value * 127.0f / range)));
    Quantization q;
    q.scale = {range / 127.0f};
    q.zero_point = {0};
    return b_.AddConstant(0, name, v_.uint8_weights ? TensorType::kUInt8 : TensorType::kInt8, shape,
                          Int8Bytes(quantized), q);
  }
  int32_t Bias(const std::string& name, int32_t size) {
    return b_.AddConstant(0, name, TensorType::kFloat32, {size},
                          FloatBytes(SmallValues(static_cast<size_t>(size), 0.2f, ++seed_)));
  }

  // One direction's 17 tensors, in upstream's order.
  void Direction(std::vector<int32_t>& inputs, const std::string& direction, int32_t units) {
    for (int gate = 0; gate < 4; ++gate) {
      inputs.push_back(v_.cifg && gate == 0
                           ? -1
                           : Weights(direction + "/input_weights_" + std::to_string(gate),
                                     {kCells, kInputSize}));
    }
    for (int gate = 0; gate < 4; ++gate) {
      inputs.push_back(
          v_.cifg && gate == 0
              ? -1
              : Weights(direction + "/recurrent_weights_" + std::to_string(gate), {kCells, units}));
    }
    for (int gate : {0, 1, 3}) {
      inputs.push_back(!v_.peephole || (v_.cifg && gate == 0)
                           ? -1
                           : Weights(direction + "/peephole_" + std::to_string(gate), {kCells}));
    }
    for (int gate = 0; gate < 4; ++gate) {
      inputs.push_back(
          v_.cifg && gate == 0 ? -1 : Bias(direction + "/bias_" + std::to_string(gate), kCells));
    }
    inputs.push_back(v_.projection ? Weights(direction + "/projection", {units, kCells}) : -1);
    inputs.push_back(v_.projection ? Bias(direction + "/projection_bias", units) : -1);
  }

  Variant v_;
  ModelBuilder b_;
  uint32_t seed_ = 0;
};

std::string Model(Variant v) { return BidirectionalLstmModel(std::move(v)).Write(); }

void ExpectValidates(const std::string& model, const std::string& options = "") {
  auto run = RunTool("run --validate --json --input-seed 1 " + options + model);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  const auto j = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << run.out;
  EXPECT_TRUE(j.value("validated", false)) << j.dump();
  for (const auto& check : j.at("checks")) EXPECT_TRUE(check.at("ok").get<bool>()) << check;
}

TEST(RunBidirectionalLstm, FloatValidates) {
  const std::string model = Model({.name = "bidi_lstm_float"});
  ExpectValidates(model);
  // Upstream's NNAPI delegate takes the float op (version 1); simulated here, its partition runs
  // the CPU kernel without the node's temporaries.
  ExpectValidates(model, "--delegate nnapi ");
  ExpectValidates(
      Model({.name = "bidi_lstm_float_peephole_projection", .peephole = true, .projection = true}));
  ExpectValidates(Model({.name = "bidi_lstm_float_merged_cifg_aux",
                         .time_major = true,
                         .merge_outputs = true,
                         .cifg = true,
                         .cross_links = true}));
}

TEST(RunBidirectionalLstm, HybridValidates) {
  ExpectValidates(Model({.name = "bidi_lstm_hybrid", .hybrid = true}));
  ExpectValidates(Model({.name = "bidi_lstm_hybrid_uint8", .hybrid = true, .uint8_weights = true}));
  ExpectValidates(Model({.name = "bidi_lstm_hybrid_asymmetric_peephole_aux",
                         .hybrid = true,
                         .asymmetric = true,
                         .peephole = true,
                         .projection = true,
                         .cross_links = true}));
}

// Upstream's batch-major pass offsets each batch row's state by the merged output's width, past
// the end of the state: refused before anything runs, in one line.
TEST(RunBidirectionalLstm, ABatchMajorMergedOutputIsRefused) {
  auto run =
      RunTool("run " + Model({.name = "bidi_lstm_batch_major_merged", .merge_outputs = true}));
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_NE(run.err.find("(BIDIRECTIONAL_SEQUENCE_LSTM): a batch-major merged output with "
                         "batch > 1"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

// TFLite Micro registers no kernel for the op (micro_mutable_op_resolver.h).
TEST(RunBidirectionalLstm, TflmRefusesTheOp) {
  auto report = RunTool("report --target tflm " + Model({.name = "bidi_lstm_tflm"}));
  EXPECT_EQ(report.exit_code, 2) << report.out;
  EXPECT_NE(report.err.find("node 0 (BIDIRECTIONAL_SEQUENCE_LSTM): TFLite Micro has no kernel"),
            std::string::npos)
      << report.err;
  EXPECT_EQ(std::count(report.err.begin(), report.err.end(), '\n'), 1) << report.err;
}

}  // namespace
}  // namespace tfa
