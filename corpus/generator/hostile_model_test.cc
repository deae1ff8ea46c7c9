// Files made to hurt a reader: many declared objects in few bytes, huge string tensors. The
// loader and the analyses must stay proportional to the file and graph, and fail with one line.
#include <gtest/gtest.h>

#include <flatbuffers/flatbuffers.h>

#include <vector>

#include "corpus/generator/tflite_writer.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/model/tflite_schema_generated.h"
#include "libanalysis/report/report_builder.h"

namespace tfa {
namespace {

// One subgraph whose tensor vector holds `count` offsets to the same small tensor table: 4 bytes
// of file per declared tensor, the cheapest way to declare many.
std::vector<uint8_t> ManyTensorsSharingOneTable(uint32_t count) {
  flatbuffers::FlatBufferBuilder b;
  const auto shape = b.CreateVector(std::vector<int32_t>{1, 8});
  const auto name = b.CreateString("t");
  const auto tensor = tflite::CreateTensor(b, shape, tflite::TensorType::FLOAT32, 0, name);
  const std::vector<flatbuffers::Offset<tflite::Tensor>> tensors(count, tensor);
  const auto subgraph = tflite::CreateSubGraph(b, b.CreateVector(tensors),
                                               b.CreateVector(std::vector<int32_t>{0}),
                                               b.CreateVector(std::vector<int32_t>{0}));
  const auto buffers = b.CreateVector(
      std::vector<flatbuffers::Offset<tflite::Buffer>>{tflite::CreateBuffer(b)});
  const auto model =
      tflite::CreateModel(b, 3, 0, b.CreateVector(std::vector{subgraph}), 0, buffers);
  b.Finish(model, "TFL3");
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

TEST(HostileModel, AMillionTensorsInFourMegabytesLoadAndReport) {
  const uint32_t count = 1'000'000;
  const std::vector<uint8_t> file = ManyTensorsSharingOneTable(count);
  EXPECT_LT(file.size(), 4'100'000u);
  auto model = ParseTflite(file, "many.tflite");
  ASSERT_TRUE(model.ok()) << model.status().message();
  ASSERT_EQ(model->subgraphs[0].tensors.size(), count);
  // Without nodes nothing is planned, as upstream's planner executes no step.
  auto report = BuildReport(*model, ReportOptions{});
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_TRUE(report->subgraphs[0].arena.has_value());
  EXPECT_EQ(report->subgraphs[0].arena->size, 0u);
}

TEST(HostileModel, HugeStringTensorsAreNeverAllocated) {
  tflite::ModelT m;
  m.version = 3;
  m.buffers.push_back(std::make_unique<tflite::BufferT>());
  auto subgraph = std::make_unique<tflite::SubGraphT>();
  auto text = std::make_unique<tflite::TensorT>();
  text->name = "text";
  text->type = tflite::TensorType::STRING;
  text->shape = {1 << 30, 1 << 30};  // 2^60 strings: the bytes are only known at run time
  subgraph->tensors.push_back(std::move(text));
  subgraph->inputs = {0};
  subgraph->outputs = {0};
  m.subgraphs.push_back(std::move(subgraph));
  auto model = ParseTflite(PackTflite(m), "strings.tflite");
  ASSERT_TRUE(model.ok()) << model.status().message();
  const Tensor& t = model->subgraphs[0].tensors[0];
  EXPECT_FALSE(t.bytes.has_value());
  EXPECT_EQ(t.allocation, AllocationType::kDynamic);
  auto report = BuildReport(*model, ReportOptions{});
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(report->subgraphs[0].arena->size, 0u);
}

TEST(HostileModel, ConstantStringTensorIsItsBufferWhateverItsHeaderClaims) {
  tflite::ModelT m;
  m.version = 3;
  m.buffers.push_back(std::make_unique<tflite::BufferT>());
  auto data = std::make_unique<tflite::BufferT>();
  // TFLite's string buffer: int32 count, count + 1 int32 offsets, then the characters. This one
  // claims 2^30 strings in 12 bytes.
  data->data = {0, 0, 0, 64, 12, 0, 0, 0, 12, 0, 0, 0};
  m.buffers.push_back(std::move(data));
  auto subgraph = std::make_unique<tflite::SubGraphT>();
  auto text = std::make_unique<tflite::TensorT>();
  text->name = "vocabulary";
  text->type = tflite::TensorType::STRING;
  text->shape = {1 << 30};
  text->buffer = 1;
  subgraph->tensors.push_back(std::move(text));
  subgraph->outputs = {0};
  m.subgraphs.push_back(std::move(subgraph));
  // The analyses treat string data as opaque bytes (upstream's BytesRequired does not apply to
  // strings), so the header's count is never trusted for a size.
  auto model = ParseTflite(PackTflite(m), "strings.tflite");
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_EQ(model->subgraphs[0].tensors[0].bytes_or_zero(), 12u);
  auto report = BuildReport(*model, ReportOptions{});
  ASSERT_TRUE(report.ok()) << report.status().message();
}

}  // namespace
}  // namespace tfa
