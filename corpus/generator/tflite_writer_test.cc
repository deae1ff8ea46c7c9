// The writer against the loader: what WriteTflite writes, ParseTflite reads back unchanged, and
// files corrupted through the object form fail with a one-line error naming the file and object.
#include "corpus/generator/tflite_writer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <tuple>

#include "corpus/generator/model_builder.h"
#include "corpus/generator/random_model.h"
#include "corpus/generator/synthetic_models.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/model/tflite_schema_generated.h"

namespace tfa {
namespace {

auto OptionsTie(const OpOptions& o) {
  return std::tie(o.fused_activation, o.padding, o.stride_w, o.stride_h, o.dilation_w, o.dilation_h,
                  o.filter_w, o.filter_h, o.depth_multiplier, o.axis, o.num_splits, o.keep_dims,
                  o.align_corners, o.half_pixel_centers, o.pot_scale_int16, o.adj_x, o.adj_y,
                  o.keep_num_dims, o.weights_format, o.asymmetric_quantize_inputs, o.beta, o.alpha,
                  o.mirror_pad_mode, o.begin_mask, o.end_mask, o.ellipsis_mask, o.new_axis_mask,
                  o.shrink_axis_mask, o.offset, o.new_shape, o.squeeze_dims, o.then_subgraph,
                  o.else_subgraph, o.cond_subgraph, o.body_subgraph, o.init_subgraph, o.subgraph,
                  o.custom_options_size, o.custom_options);
}

void ExpectSameTensor(const Tensor& a, const Tensor& b, const std::string& where) {
  SCOPED_TRACE(where + " \"" + a.name + "\"");
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.shape, b.shape);
  EXPECT_EQ(a.shape_signature, b.shape_signature);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.allocation, b.allocation);
  EXPECT_EQ(a.buffer, b.buffer);
  EXPECT_EQ(a.constant_bytes, b.constant_bytes);
  EXPECT_EQ(a.is_variable, b.is_variable);
  EXPECT_EQ(a.is_sparse, b.is_sparse);
  EXPECT_EQ(a.sparse_ledger_bytes, b.sparse_ledger_bytes);
  EXPECT_EQ(a.quantization->scale, b.quantization->scale);
  EXPECT_EQ(a.quantization->zero_point, b.quantization->zero_point);
  EXPECT_EQ(a.quantization->quantized_dimension, b.quantization->quantized_dimension);
}

void ExpectSameNode(const Node& a, const Node& b, const std::string& where) {
  SCOPED_TRACE(where + " (" + a.op + ")");
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.op, b.op);
  EXPECT_EQ(a.builtin_code, b.builtin_code);
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.inputs, b.inputs);
  EXPECT_EQ(a.outputs, b.outputs);
  EXPECT_EQ(a.intermediates, b.intermediates);
  EXPECT_EQ(a.temporaries, b.temporaries);
  EXPECT_EQ(a.inplace, b.inplace);
  EXPECT_EQ(a.side_effect, b.side_effect);
  EXPECT_TRUE(OptionsTie(a.options) == OptionsTie(b.options));
}

void ExpectSameModel(const Model& a, const Model& b) {
  EXPECT_EQ(a.path, b.path);
  EXPECT_EQ(a.format, b.format);
  EXPECT_EQ(a.schema_version, b.schema_version);
  EXPECT_EQ(a.description, b.description);
  EXPECT_EQ(a.metadata_names, b.metadata_names);
  EXPECT_EQ(a.constant_bytes, b.constant_bytes);
  EXPECT_EQ(a.has_sparse_tensors, b.has_sparse_tensors);
  ASSERT_EQ(a.signatures.size(), b.signatures.size());
  for (size_t i = 0; i < a.signatures.size(); ++i) {
    EXPECT_EQ(a.signatures[i].key, b.signatures[i].key);
    EXPECT_EQ(a.signatures[i].subgraph_index, b.signatures[i].subgraph_index);
    EXPECT_EQ(a.signatures[i].inputs, b.signatures[i].inputs);
    EXPECT_EQ(a.signatures[i].outputs, b.signatures[i].outputs);
  }
  ASSERT_EQ(a.subgraphs.size(), b.subgraphs.size());
  for (size_t s = 0; s < a.subgraphs.size(); ++s) {
    const Subgraph& x = a.subgraphs[s];
    const Subgraph& y = b.subgraphs[s];
    const std::string where = "subgraph " + std::to_string(s);
    EXPECT_EQ(x.name, y.name) << where;
    EXPECT_EQ(x.inputs, y.inputs) << where;
    EXPECT_EQ(x.outputs, y.outputs) << where;
    EXPECT_EQ(x.variables, y.variables) << where;
    EXPECT_EQ(x.execution_plan, y.execution_plan) << where;
    ASSERT_EQ(x.tensors.size(), y.tensors.size()) << where;
    for (size_t t = 0; t < x.tensors.size(); ++t) {
      ExpectSameTensor(x.tensors[t], y.tensors[t], where + ": tensor " + std::to_string(t));
    }
    ASSERT_EQ(x.nodes.size(), y.nodes.size()) << where;
    for (size_t n = 0; n < x.nodes.size(); ++n) {
      ExpectSameNode(x.nodes[n], y.nodes[n], where + ": node " + std::to_string(n));
    }
  }
}

class SyntheticRoundTripTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SyntheticRoundTripTest, ReadsBackUnchanged) {
  auto built = BuildSyntheticModel(GetParam());
  ASSERT_TRUE(built.ok()) << built.status().message();
  const std::vector<uint8_t> file = WriteTflite(built->model, built->data);
  auto parsed = ParseTflite(file, built->model.path);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ExpectSameModel(built->model, *parsed);

  // Constant contents land in the buffers the tensors name.
  const tflite::Model* fb = tflite::GetModel(file.data());
  for (const auto& [index, contents] : built->data.buffers) {
    const tflite::Buffer* buffer = fb->buffers()->Get(static_cast<flatbuffers::uoffset_t>(index));
    ASSERT_NE(buffer->data(), nullptr) << "buffer " << index;
    EXPECT_EQ(std::vector<uint8_t>(buffer->data()->begin(), buffer->data()->end()), contents)
        << "buffer " << index;
    // Kernels read constants in place: upstream aligns buffer data to 16 bytes.
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer->data()->data()) % 16, 0u) << "buffer " << index;
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogue, SyntheticRoundTripTest,
                         ::testing::ValuesIn(SyntheticModelNames()),
                         [](const auto& info) { return info.param; });

TEST(TfliteWriter, RandomModelsReadBackUnchanged) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const SyntheticModel built = BuildRandomModel(seed, 30);
    auto parsed = ParseTflite(WriteTflite(built.model, built.data), built.model.path);
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    ExpectSameModel(built.model, *parsed);
  }
}

// A small model that uses one op of each kind the options writer knows about less commonly.
SyntheticModel OptionsModel() {
  ModelBuilder b("options.tflite", "every options table");
  const int32_t sg = b.AddSubgraph("main");
  const int32_t x = b.AddTensor(sg, "x", TensorType::kFloat32, {1, 4, 4, 2});
  const int32_t y = b.AddTensor(sg, "y", TensorType::kFloat32, {1, 8, 8, 2});
  const int32_t z = b.AddTensor(sg, "z", TensorType::kFloat32, {1, 2});
  const int32_t parts0 = b.AddTensor(sg, "p0", TensorType::kFloat32, {1, 8, 8, 1});
  const int32_t parts1 = b.AddTensor(sg, "p1", TensorType::kFloat32, {1, 8, 8, 1});
  const int32_t axis = b.AddConstant(sg, "axis", TensorType::kInt32, {}, Int32Bytes({3}));
  const int32_t size = b.AddConstant(sg, "size", TensorType::kInt32, {2}, Int32Bytes({8, 8}));
  const int32_t reduce = b.AddConstant(sg, "reduce", TensorType::kInt32, {2}, Int32Bytes({1, 2}));
  const int32_t mean = b.AddTensor(sg, "mean", TensorType::kFloat32, {1, 2});
  OpOptions resize;
  resize.half_pixel_centers = true;
  b.AddNode(sg, "RESIZE_BILINEAR", {x, size}, {y}, resize, 3);
  OpOptions split;
  split.num_splits = 2;
  b.AddNode(sg, "SPLIT", {axis, y}, {parts0, parts1}, split);
  OpOptions reducer;
  reducer.keep_dims = false;
  b.AddNode(sg, "MEAN", {x, reduce}, {mean}, reducer);
  OpOptions leaky;
  leaky.alpha = 0.2f;
  b.AddNode(sg, "LEAKY_RELU", {mean}, {z}, leaky);
  b.AddCustomNode(sg, "MyCustomOp", {z}, {b.AddTensor(sg, "c", TensorType::kFloat32, {1, 2})}, 24);
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {parts0, parts1, z});
  b.AddMetadata("min_runtime_version", {'1', '.', '1', '4', '.', '0', 0});
  b.AddSignature({"serving_default", 0, {{"x", x}}, {{"z", z}}});
  return std::move(b).Finish();
}

TEST(TfliteWriter, OptionsCustomOpsMetadataAndSignaturesReadBack) {
  const SyntheticModel built = OptionsModel();
  const std::vector<uint8_t> file = WriteTflite(built.model, built.data);
  auto parsed = ParseTflite(file, "options.tflite");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ExpectSameModel(built.model, *parsed);
  EXPECT_EQ(parsed->subgraphs[0].nodes[4].kind, NodeKind::kCustom);
  EXPECT_EQ(parsed->subgraphs[0].nodes[4].options->custom_options_size, 24u);
  const tflite::Model* fb = tflite::GetModel(file.data());
  ASSERT_EQ(fb->metadata()->size(), 1u);
  const auto* meta = fb->buffers()->Get(fb->metadata()->Get(0)->buffer())->data();
  EXPECT_STREQ(reinterpret_cast<const char*>(meta->data()), "1.14.0");
}

TEST(TfliteWriter, OperatorCodesAboveTheByteFieldAreClamped) {
  const SyntheticModel built = OptionsModel();
  tflite::ModelT m = ToModelT(built.model, built.data);
  // Codes are deduplicated in first-use order: RESIZE_BILINEAR, SPLIT, MEAN, LEAKY_RELU, custom.
  ASSERT_EQ(m.operator_codes.size(), 5u);
  EXPECT_EQ(m.operator_codes[0]->builtin_code, 23);
  EXPECT_EQ(m.operator_codes[0]->deprecated_builtin_code, 23);
  EXPECT_EQ(m.operator_codes[0]->version, 3);
  EXPECT_EQ(m.operator_codes[4]->builtin_code, 32);
  EXPECT_EQ(m.operator_codes[4]->custom_code, "MyCustomOp");

  ModelBuilder b("while.tflite");
  const int32_t main = b.AddSubgraph("main");
  b.AddSubgraph("cond");
  b.AddSubgraph("body");
  OpOptions o;
  o.cond_subgraph = 1;
  o.body_subgraph = 2;
  b.AddNode(main, "WHILE", {}, {}, o);
  tflite::ModelT w = ToModelT(std::move(b).Finish().model);
  ASSERT_EQ(w.operator_codes.size(), 1u);
  EXPECT_EQ(w.operator_codes[0]->builtin_code, 119);
  EXPECT_EQ(w.operator_codes[0]->deprecated_builtin_code, 119);
  SyntheticModel call_once = *BuildSyntheticModel("call_once_variables");
  tflite::ModelT c = ToModelT(call_once.model);
  bool found = false;
  for (const auto& code : c.operator_codes) {
    if (code->builtin_code == 142) {  // VAR_HANDLE
      EXPECT_EQ(code->deprecated_builtin_code, 127);
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

TEST(TfliteWriter, ConstantWithoutBufferIndexGetsANewBuffer) {
  Model model;
  model.schema_version = 3;
  Subgraph& sg = model.subgraphs.emplace_back();
  Tensor t;
  t.name = "w";
  t.shape = {2};
  t.allocation = AllocationType::kMmapRo;
  t.constant_bytes = 8;
  sg.tensors.push_back(t);
  tflite::ModelT m = ToModelT(model);
  ASSERT_EQ(m.buffers.size(), 2u);
  EXPECT_TRUE(m.buffers[0]->data.empty());
  EXPECT_EQ(m.buffers[1]->data, std::vector<uint8_t>(8, 0));
  EXPECT_EQ(m.subgraphs[0]->tensors[0]->buffer, 1u);
}

// ---- Bad input: every corruption fails with one line naming the file and the object. ----

// A valid model to corrupt: x -> CONV_2D(w, bias) -> y -> RELU -> z.
SyntheticModel SmallConvModel() {
  ModelBuilder b("bad.tflite");
  const int32_t sg = b.AddSubgraph("main");
  const int32_t x = b.AddTensor(sg, "x", TensorType::kFloat32, {1, 4, 4, 2});
  const int32_t w = b.AddConstant(sg, "w", TensorType::kFloat32, {3, 1, 1, 2},
                                  FloatBytes(std::vector<float>(6, 0.5f)));
  const int32_t bias =
      b.AddConstant(sg, "bias", TensorType::kFloat32, {3}, FloatBytes({0.1f, 0.2f, 0.3f}));
  const int32_t y = b.AddTensor(sg, "y", TensorType::kFloat32, {1, 4, 4, 3});
  const int32_t z = b.AddTensor(sg, "z", TensorType::kFloat32, {1, 4, 4, 3});
  OpOptions conv;
  conv.padding = Padding::kSame;
  b.AddNode(sg, "CONV_2D", {x, w, bias}, {y}, conv);
  b.AddNode(sg, "RELU", {y}, {z});
  b.SetInputs(sg, {x});
  b.SetOutputs(sg, {z});
  return std::move(b).Finish();
}

tflite::ModelT SmallConvModelT() {
  const SyntheticModel m = SmallConvModel();
  return ToModelT(m.model, m.data);
}

// Parses `file` and expects a one-line error that names bad.tflite and contains `expected`.
void ExpectError(const std::vector<uint8_t>& file, const std::string& expected) {
  auto parsed = ParseTflite(file, "bad.tflite");
  ASSERT_FALSE(parsed.ok()) << "expected an error containing: " << expected;
  const std::string& message = parsed.status().message();
  EXPECT_EQ(message.rfind("bad.tflite: ", 0), 0u) << message;
  EXPECT_NE(message.find(expected), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(TfliteWriterBadInput, ValidModelParses) {
  auto parsed = ParseTflite(PackTflite(SmallConvModelT()), "bad.tflite");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->subgraphs[0].tensors[3].bytes, 1u * 4 * 4 * 3 * 4);
}

TEST(TfliteWriterBadInput, TruncatedFile) {
  const std::vector<uint8_t> file = PackTflite(SmallConvModelT());
  for (size_t keep : {file.size() / 2, file.size() - 16, size_t{12}}) {
    SCOPED_TRACE("kept " + std::to_string(keep) + " bytes");
    ExpectError(std::vector<uint8_t>(file.begin(), file.begin() + static_cast<ptrdiff_t>(keep)),
                "flatbuffer verification failed");
  }
  ExpectError(std::vector<uint8_t>(file.begin(), file.begin() + 5), "too short");
}

TEST(TfliteWriterBadInput, CorruptedRootOffset) {
  std::vector<uint8_t> file = PackTflite(SmallConvModelT());
  const uint32_t root = 0xfffffff0u;
  std::memcpy(file.data(), &root, sizeof(root));
  ExpectError(file, "flatbuffer verification failed");
}

TEST(TfliteWriterBadInput, CorruptedBytesNeverCrash) {
  // Each single-byte corruption either still parses or fails with a message; never a crash.
  const std::vector<uint8_t> file = PackTflite(SmallConvModelT());
  int failures = 0;
  for (size_t i = 0; i < file.size(); ++i) {
    std::vector<uint8_t> corrupt = file;
    corrupt[i] ^= 0xa5;
    auto parsed = ParseTflite(corrupt, "bad.tflite");
    if (parsed.ok()) continue;
    ++failures;
    EXPECT_EQ(parsed.status().message().rfind("bad.tflite: ", 0), 0u) << parsed.status().message();
  }
  EXPECT_GT(failures, 0);
}

TEST(TfliteWriterBadInput, WrongFileIdentifier) {
  std::vector<uint8_t> file = PackTflite(SmallConvModelT());
  std::memcpy(file.data() + 4, "TFL2", 4);
  ExpectError(file, "file identifier is \"TFL2\", expected \"TFL3\"");
}

TEST(TfliteWriterBadInput, ShapeElementCountOverflows) {
  tflite::ModelT m = SmallConvModelT();
  m.subgraphs[0]->tensors[3]->shape = {2147483647, 2147483647, 2147483647};
  ExpectError(PackTflite(m),
              "subgraph 0: tensor 3 \"y\": shape has more elements than fit in 64 bits");
}

TEST(TfliteWriterBadInput, ShapeByteSizeOverflows) {
  tflite::ModelT m = SmallConvModelT();
  // 3 * (2^31 - 1)^2 elements fit in 64 bits; times 4 bytes they do not.
  m.subgraphs[0]->tensors[3]->shape = {2147483647, 2147483647, 3};
  ExpectError(PackTflite(m), "subgraph 0: tensor 3 \"y\": byte size overflows 64 bits");
}

TEST(TfliteWriterBadInput, NodeInputOutOfRange) {
  tflite::ModelT m = SmallConvModelT();
  m.subgraphs[0]->operators[1]->inputs = {99};
  ExpectError(PackTflite(m),
              "subgraph 0: node 1 (RELU): inputs[0] = tensor 99 is out of range (5 tensors)");
}

TEST(TfliteWriterBadInput, NodeOutputOutOfRange) {
  tflite::ModelT m = SmallConvModelT();
  m.subgraphs[0]->operators[0]->outputs = {-7};
  ExpectError(PackTflite(m),
              "subgraph 0: node 0 (CONV_2D): outputs[0] = tensor -7 is out of range");
}

TEST(TfliteWriterBadInput, SubgraphInputOutOfRange) {
  tflite::ModelT m = SmallConvModelT();
  m.subgraphs[0]->inputs = {5};
  ExpectError(PackTflite(m), "subgraph 0: inputs[0] = tensor 5 is out of range (5 tensors)");
}

TEST(TfliteWriterBadInput, BufferIndexOutOfRange) {
  tflite::ModelT m = SmallConvModelT();
  m.subgraphs[0]->tensors[1]->buffer = 999;
  ExpectError(PackTflite(m), "subgraph 0: tensor 1 \"w\": buffer 999 is out of range (3 buffers)");
}

TEST(TfliteWriterBadInput, ExternalBufferBeyondEndOfFile) {
  tflite::ModelT m = SmallConvModelT();
  // The form models over 2 GB use: data outside the flatbuffer at offset/size.
  m.buffers[1]->data.clear();
  m.buffers[1]->offset = 64;
  m.buffers[1]->size = uint64_t{3} << 31;
  ExpectError(PackTflite(m),
              "subgraph 0: tensor 1 \"w\": buffer 1 spans bytes [64, +6442450944) "
              "beyond the end of the file");
}

TEST(TfliteWriterBadInput, ExternalBufferEndOverflows) {
  tflite::ModelT m = SmallConvModelT();
  m.buffers[2]->data.clear();
  m.buffers[2]->offset = ~uint64_t{0} - 4;
  m.buffers[2]->size = 12;
  ExpectError(PackTflite(m), "tensor 2 \"bias\": buffer 2 spans bytes");
}

TEST(TfliteWriterBadInput, ExternalBufferInsideFileIsRead) {
  tflite::ModelT m = SmallConvModelT();
  // 24 bytes of weights kept after the flatbuffer, as upstream's large-model writer does.
  m.buffers[1]->data.clear();
  m.buffers[1]->offset = 2;  // patched below, once the flatbuffer's size is known
  m.buffers[1]->size = 24;
  const size_t flatbuffer_size = PackTflite(m).size();
  m.buffers[1]->offset = flatbuffer_size;
  std::vector<uint8_t> file = PackTflite(m);
  ASSERT_EQ(file.size(), flatbuffer_size);
  file.resize(file.size() + 24, 0);
  auto parsed = ParseTflite(file, "bad.tflite");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->subgraphs[0].tensors[1].constant_bytes, 24u);
  EXPECT_EQ(parsed->subgraphs[0].tensors[1].allocation, AllocationType::kMmapRo);
}

TEST(TfliteWriterBadInput, ConstantBufferSizeDoesNotMatchShape) {
  tflite::ModelT m = SmallConvModelT();
  m.buffers[2]->data.resize(7);
  ExpectError(PackTflite(m),
              "subgraph 0: tensor 2 \"bias\": constant buffer 2 holds 7 bytes but the "
              "shape needs 12");
}

TEST(TfliteWriterBadInput, Cycle) {
  tflite::ModelT m = SmallConvModelT();
  // CONV_2D now reads RELU's output, which RELU computes later from CONV_2D's output.
  m.subgraphs[0]->operators[0]->inputs[0] = 4;
  ExpectError(PackTflite(m),
              "subgraph 0: node 0 (CONV_2D) reads tensor 4 produced later by node 1 (RELU)");
}

// Upstream's InterpreterBuilder builds such a model and its AllocateTensors fails: it loads, with
// the reason it cannot be allocated (graph_validation.h OverlappingNodeError).
TEST(TfliteWriterBadInput, SameTensorAsInputAndOutputLoadsButCannotBeAllocated) {
  tflite::ModelT m = SmallConvModelT();
  m.subgraphs[0]->operators[1]->inputs = {4};
  auto parsed = ParseTflite(PackTflite(m), "bad.tflite");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->subgraphs[0].allocation_error,
            "Tensor 4 is both input 0 and output 0 (node 1 (RELU)), so AllocateTensors() is "
            "called on an inconsistent model");
}

TEST(TfliteWriterBadInput, TensorProducedTwice) {
  tflite::ModelT m = SmallConvModelT();
  m.subgraphs[0]->operators[1]->outputs = {3};
  m.subgraphs[0]->operators[1]->inputs = {0};
  ExpectError(PackTflite(m),
              "subgraph 0: tensor 3 is produced by both node 0 (CONV_2D) and node 1 (RELU)");
}

TEST(TfliteWriterBadInput, NoSubgraphs) {
  tflite::ModelT m = SmallConvModelT();
  m.subgraphs.clear();
  ExpectError(PackTflite(m), "model has no subgraphs");
}

TEST(TfliteWriterBadInput, ControlFlowNamesMissingSubgraph) {
  auto built = BuildSyntheticModel("if_two_branches");
  ASSERT_TRUE(built.ok()) << built.status().message();
  tflite::ModelT m = ToModelT(built->model, built->data);
  m.subgraphs.pop_back();  // the else branch
  ExpectError(PackTflite(m), "subgraph 0: node 0 (IF) names subgraph 2 of 2");
}

TEST(TfliteWriterBadInput, WhileBodyCallsItself) {
  auto built = BuildSyntheticModel("while_loop");
  ASSERT_TRUE(built.ok()) << built.status().message();
  Model model = built->model;
  // The body (subgraph 2) runs a WHILE whose body is subgraph 2 again.
  OpOptions loop;
  loop.cond_subgraph = 1;
  loop.body_subgraph = 2;
  Node nested = model.subgraphs[0].nodes[0];
  ASSERT_EQ(nested.op, "WHILE");
  nested.options = loop;
  Subgraph& body = model.subgraphs[2];
  nested.inputs = body.outputs;
  std::vector<int32_t> outputs;
  for (int32_t t : body.outputs) {
    body.tensors.push_back(body.tensors[static_cast<size_t>(t)]);
    outputs.push_back(static_cast<int32_t>(body.tensors.size() - 1));
  }
  nested.outputs = outputs;
  body.nodes.push_back(nested);
  body.outputs = outputs;
  ExpectError(
      WriteTflite(model, built->data),
      "subgraph 2 calls subgraph 2 which is already on the call chain (recursive control flow)");
}

TEST(TfliteWriterBadInput, OpcodeIndexOutOfRange) {
  tflite::ModelT m = SmallConvModelT();
  m.subgraphs[0]->operators[1]->opcode_index = 7;
  ExpectError(PackTflite(m),
              "subgraph 0: node 1: opcode_index 7 is out of range (2 operator codes)");
}

TEST(TfliteWriterBadInput, CustomWithoutCustomCode) {
  tflite::ModelT m = SmallConvModelT();
  m.operator_codes[1]->builtin_code = 32;
  m.operator_codes[1]->deprecated_builtin_code = 32;
  ExpectError(PackTflite(m), "operator code 1 is CUSTOM without a custom_code");
}

TEST(TfliteWriterBadInput, NegativeBuiltinCode) {
  tflite::ModelT m = SmallConvModelT();
  m.operator_codes[1]->builtin_code = -5;
  m.operator_codes[1]->deprecated_builtin_code = -5;
  ExpectError(PackTflite(m), "operator code 1 has builtin code -5");
}

TEST(TfliteWriterBadInput, UnknownTensorType) {
  tflite::ModelT m = SmallConvModelT();
  m.subgraphs[0]->tensors[4]->type = static_cast<tflite::TensorType>(99);
  ExpectError(PackTflite(m), "subgraph 0: tensor 4 \"z\": unknown tensor type 99");
}

TEST(TfliteWriterBadInput, VariableWithConstantBuffer) {
  tflite::ModelT m = SmallConvModelT();
  m.subgraphs[0]->tensors[1]->is_variable = true;
  ExpectError(PackTflite(m), "tensor 1 \"w\": a variable tensor with a constant buffer");
}

TEST(TfliteWriterBadInput, SignatureNamesMissingSubgraph) {
  tflite::ModelT m = SmallConvModelT();
  auto def = std::make_unique<tflite::SignatureDefT>();
  def->signature_key = "serving_default";
  def->subgraph_index = 4;
  m.signature_defs.push_back(std::move(def));
  ExpectError(PackTflite(m), "signature \"serving_default\" names subgraph 4 of 1");
}

TEST(TfliteWriterBadInput, SignatureNamesMissingTensor) {
  tflite::ModelT m = SmallConvModelT();
  auto def = std::make_unique<tflite::SignatureDefT>();
  def->signature_key = "serving_default";
  auto input = std::make_unique<tflite::TensorMapT>();
  input->name = "x";
  input->tensor_index = 77;
  def->inputs.push_back(std::move(input));
  m.signature_defs.push_back(std::move(def));
  ExpectError(PackTflite(m), "signature \"serving_default\": \"x\" names tensor 77 of 5");
}

TEST(TfliteWriterBadInput, MetadataNamesMissingBuffer) {
  tflite::ModelT m = SmallConvModelT();
  auto meta = std::make_unique<tflite::MetadataT>();
  meta->name = "min_runtime_version";
  meta->buffer = 999;
  m.metadata.push_back(std::move(meta));
  ExpectError(PackTflite(m), "metadata \"min_runtime_version\" names buffer 999 of");
}

}  // namespace
}  // namespace tfa
