// The loader on the real corpus, cross-checked against what upstream's interpreter reported for
// the same files (tests/oracle/models/*.none.json): op sequence, tensor count, byte sizes and
// which tensors are constants.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/model/tflite_schema_generated.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

using testing::CorpusModelNames;
using testing::CorpusModelPath;
using testing::OraclePath;
using testing::ReadJsonFile;

class CorpusModelTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusModelTest, MatchesUpstreamInterpreterView) {
  const std::string name = GetParam();
  auto model = LoadModelFile(CorpusModelPath(name));
  ASSERT_TRUE(model.ok()) << model.status().message();
  const auto oracle = ReadJsonFile(OraclePath("models/" + name + ".none.json"));

  ASSERT_EQ(model->subgraphs.size(), oracle.at("num_subgraphs").get<size_t>());
  const Subgraph& sg = model->subgraphs[0];
  const auto& ops = oracle.at("original_ops");
  ASSERT_EQ(sg.nodes.size(), ops.size());
  for (size_t i = 0; i < ops.size(); ++i)
    EXPECT_EQ(sg.nodes[i].op, ops[i].get<std::string>()) << "node " << i;
  EXPECT_EQ(sg.inputs, oracle.at("inputs").get<std::vector<int32_t>>());
  EXPECT_EQ(sg.outputs, oracle.at("outputs").get<std::vector<int32_t>>());

  // Upstream's tensor list also holds what kernels add in Prepare after the model's tensors:
  // temporaries, and spare tensors some kernels add and leave unallocated.
  size_t temporaries = 0;
  for (const auto& node : oracle.at("temporaries")) temporaries += node.at("temporaries").size();
  const auto& tensors = oracle.at("tensors");
  ASSERT_LE(sg.tensors.size() + temporaries, tensors.size());
  std::vector<bool> densify_output(sg.tensors.size(), false);
  for (const Node& n : sg.nodes) {
    if (n.op == "DENSIFY") densify_output[static_cast<size_t>(n.outputs[0])] = true;
  }
  for (const auto& t : tensors) {
    const size_t index = t.at("tensor").get<size_t>();
    if (index >= sg.tensors.size()) continue;
    const Tensor& ours = sg.tensors[index];
    // Upstream's DENSIFY kernel renames its output "Densify_output" (tflite/kernels/densify.cc).
    if (!densify_output[index]) {
      EXPECT_EQ(ours.name, t.at("name").get<std::string>());
    }
    const std::string alloc = t.at("allocation_type").get<std::string>();
    EXPECT_EQ(ours.is_constant(), alloc == "mmap_ro") << "tensor " << index << " " << ours.name;
    // Sparse constants are stored compressed; upstream reports their dense size after DENSIFY.
    if (!ours.is_sparse) {
      ASSERT_TRUE(ours.bytes.has_value()) << "tensor " << index;
      EXPECT_EQ(*ours.bytes, t.at("bytes").get<uint64_t>())
          << "tensor " << index << " " << ours.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusModelTest, ::testing::ValuesIn(CorpusModelNames()),
                         [](const auto& info) { return info.param; });

TEST(CorpusModel, OpHistogramOfFaceDetectionShortRange) {
  auto model = LoadModelFile(CorpusModelPath("face_detection__face_detection_short_range"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  std::map<std::string, int> histogram;
  for (const Node& n : model->subgraphs[0].nodes) ++histogram[n.op];
  // Counted independently from the oracle's original_ops list of the same file.
  const auto oracle =
      ReadJsonFile(OraclePath("models/face_detection__face_detection_short_range.none.json"));
  std::map<std::string, int> expected;
  for (const auto& op : oracle.at("original_ops")) ++expected[op.get<std::string>()];
  EXPECT_EQ(histogram, expected);
  EXPECT_EQ(histogram.at("CONV_2D"), 21);
  EXPECT_EQ(histogram.at("DEQUANTIZE"), 74);
}

TEST(CorpusModel, SparseModelIsFlagged) {
  auto model = LoadModelFile(CorpusModelPath("face_detection__face_detection_full_range_sparse"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_TRUE(model->has_sparse_tensors);
  int densify = 0;
  for (const Node& n : model->subgraphs[0].nodes) densify += n.op == "DENSIFY";
  EXPECT_GT(densify, 0);
}

// Small int constants keep their values: RESIZE_BILINEAR's size is the output's height and
// width, PAD's paddings are one (before, after) pair per input dimension; float weights keep none.
TEST(CorpusModel, SmallIntConstantsKeepTheirValues) {
  auto model = LoadModelFile(CorpusModelPath("hands__palm_detection_lite"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  const Subgraph& s = model->subgraphs[0];
  int resizes = 0, pads = 0;
  for (const Node& n : s.nodes) {
    if (n.op == "RESIZE_BILINEAR") {
      ++resizes;
      const auto& out = s.tensors[n.outputs[0]].shape;
      EXPECT_EQ(s.tensors[n.inputs[1]].int_values, (std::vector<int64_t>{out[1], out[2]}));
    } else if (n.op == "PAD") {
      ++pads;
      const size_t rank = s.tensors[n.inputs[0]].shape.size();
      EXPECT_EQ(s.tensors[n.inputs[1]].int_values->size(), 2 * rank);
    } else if (n.op == "CONV_2D") {
      EXPECT_TRUE(s.tensors[n.inputs[1]].int_values->empty());
    }
  }
  EXPECT_EQ(resizes, 2);  // the op histogram of `info`
  EXPECT_EQ(pads, 3);
}

TEST(CorpusModel, CustomOpsKeepTheirCustomCode) {
  auto model = LoadModelFile(CorpusModelPath("selfie_segmentation__selfie_segmentation"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  int transpose_conv_bias = 0;
  for (const Node& n : model->subgraphs[0].nodes) {
    if (n.kind == NodeKind::kCustom) {
      EXPECT_EQ(n.builtin_code, 32);
      transpose_conv_bias += n.op == "Convolution2DTransposeBias";
    }
  }
  EXPECT_GT(transpose_conv_bias, 0);
}

TEST(LoadModelFile, MissingFileIsAOneLineError) {
  auto model = LoadModelFile("/nonexistent/model.tflite");
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.status().message().find("/nonexistent/model.tflite: cannot open file"),
            std::string::npos);
  EXPECT_EQ(model.status().message().find('\n'), std::string::npos);
}

}  // namespace
}  // namespace tfa

namespace tfa {
namespace {

using testing::CorpusModelPath;

// Found by fuzz_report: a span that does not start on a flatbuffer-aligned address made the
// Verifier read misaligned scalars (UBSan). ParseTflite now copies such spans.
TEST(ParseTflite, AcceptsASpanAtAnOddAddress) {
  const std::string bytes =
      testing::ReadTextFile(CorpusModelPath("face_detection__face_detection_short_range"));
  std::vector<uint8_t> shifted(bytes.size() + 1);
  std::copy(bytes.begin(), bytes.end(), shifted.begin() + 1);
  auto model =
      ParseTflite(std::span<const uint8_t>(shifted.data() + 1, bytes.size()), "shifted.tflite");
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_EQ(model->subgraphs[0].nodes.size(), 164u);
}

}  // namespace
}  // namespace tfa

namespace tfa {
namespace {

// Found by fuzz_tflite_loader: an operator whose builtin_options_type names a table that is
// absent made the loader call through a null options pointer (UBSan). Kept as a fuzz seed too.
TEST(ParseTflite, OptionsTypeWithoutTableReadsAsDefaults) {
  const std::string bytes = testing::ReadTextFile(
      testing::SourcePath("fuzz/seeds/tflite_loader/regression_null_builtin_options.tflite"));
  auto model = ParseTflite(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
      "regression.tflite");
  if (!model.ok()) {
    EXPECT_EQ(model.status().message().find('\n'), std::string::npos);
    return;
  }
  for (const Subgraph& sg : model->subgraphs) {
    for (const Node& n : sg.nodes)
      EXPECT_EQ(n.options->fused_activation, Activation::kNone) << n.op;
  }
}

// Files are mapped, not read (issue 18): a model padded past 4 GB by a sparse hole loads without
// its bytes being read (the Verifier sees the first 2 GB window only), and the size limit is
// applied before anything is mapped.
TEST(LoadModelFile, MapsAFileLargerThanFourGigabytes) {
  const std::string bytes =
      testing::ReadTextFile(CorpusModelPath("face_detection__face_detection_short_range"));
  const std::string path = ::testing::TempDir() + "/padded_past_4gb.tflite";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  std::filesystem::resize_file(path, (uint64_t{4} << 30) + 4096);
  auto model = LoadModelFile(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_EQ(model->subgraphs[0].nodes.size(), 164u);
}

TEST(LoadModelFile, FileAboveTheLimitIsRefused) {
  LoadOptions options;
  options.max_file_bytes = 100;
  const std::string path = CorpusModelPath("face_detection__face_detection_short_range");
  auto model = LoadModelFile(path, options);
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().message().rfind(path + ": file is ", 0), 0u);
  EXPECT_NE(model.status().message().find(" bytes, above the limit of 100"), std::string::npos);
}

TEST(LoadModelFile, DirectoryIsAOneLineError) {
  const std::string dir = ::testing::TempDir();
  auto model = LoadModelFile(dir);
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().message(), dir + ": is a directory");
}

}  // namespace
}  // namespace tfa

namespace tfa {
namespace {

// A one-tensor model whose tensor [4] carries a per-axis table of `scales` on `dimension`.
std::vector<uint8_t> PerAxisModel(int32_t dimension, size_t scales) {
  tflite::ModelT model;
  model.version = 3;
  model.buffers.push_back(std::make_unique<tflite::BufferT>());
  auto subgraph = std::make_unique<tflite::SubGraphT>();
  auto tensor = std::make_unique<tflite::TensorT>();
  tensor->name = "bias";
  tensor->type = tflite::TensorType::INT32;
  tensor->shape = {4};
  tensor->quantization = std::make_unique<tflite::QuantizationParametersT>();
  tensor->quantization->scale.assign(scales, 0.5f);
  tensor->quantization->zero_point.assign(scales, 0);
  tensor->quantization->quantized_dimension = dimension;
  subgraph->tensors.push_back(std::move(tensor));
  subgraph->inputs = {0};
  subgraph->outputs = {0};
  model.subgraphs.push_back(std::move(subgraph));
  flatbuffers::FlatBufferBuilder builder;
  builder.Finish(tflite::Model::Pack(builder, &model), tflite::ModelIdentifier());
  return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

// InterpreterBuilder::ParseQuantization refuses an affine table that does not fit the tensor: a
// quantized dimension past its rank (TOCO's rank-1 biases quantized on dimension 3), or a per-axis
// scale count other than that dimension's extent. The GPU delegate would dequantize such a table
// out of bounds; the model never gets that far upstream.
TEST(ParseTflite, RefusesAQuantizedDimensionTheTensorDoesNotHave) {
  const std::vector<uint8_t> valid = PerAxisModel(0, 4);
  EXPECT_TRUE(ParseTflite(valid, "valid.tflite").ok());
  const std::vector<uint8_t> past_rank = PerAxisModel(3, 4);
  auto refused = ParseTflite(past_rank, "toco_bias.tflite");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("quantized_dimension must be in range [0, 1). Was 3."),
            std::string::npos)
      << refused.status().message();
  const std::vector<uint8_t> short_table = PerAxisModel(0, 3);
  auto counted = ParseTflite(short_table, "short.tflite");
  ASSERT_FALSE(counted.ok());
  EXPECT_NE(counted.status().message().find(
                "num_scales must be 1 for per-layer quantization, or 4 for per-axis "
                "quantization, but got 3."),
            std::string::npos)
      << counted.status().message();
}

}  // namespace
}  // namespace tfa
