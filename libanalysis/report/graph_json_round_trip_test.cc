// Graph JSON written from a .tflite carries everything the analysis reads: the report on the
// converted model equals the report on the .tflite (but for the file name), for every model of the
// corpus, of the upstream oracle and of the synthetic catalogue (written as .tflite and read
// back, so sparse ledgers and custom options come from the loader), with no delegate, the GPU
// delegate and XNNPACK.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "corpus/generator/synthetic_models.h"
#include "corpus/generator/tflite_writer.h"
#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/report/report_builder.h"
#include "libanalysis/report/report_json.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

std::vector<std::string> ModelPaths() {
  std::vector<std::string> paths;
  for (const std::string& name : testing::CorpusModelNames()) {
    paths.push_back(testing::CorpusModelPath(name));
  }
  for (const char* dir : {"int8", "families", "control_flow"}) {
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(testing::OraclePath(dir))) {
      if (entry.path().extension() == ".tflite") found.push_back(entry.path().string());
    }
    std::sort(found.begin(), found.end());
    paths.insert(paths.end(), found.begin(), found.end());
  }
  for (const std::string& name : SyntheticModelNames()) paths.push_back(name);
  return paths;
}

// A catalogue model as its .tflite reads back; a model path stands for itself.
Result<Model> LoadCase(const std::string& name) {
  if (name.find('/') != std::string::npos) return LoadModelFile(name);
  auto synthetic = BuildSyntheticModel(name);
  if (!synthetic.ok()) return synthetic.status();
  return ParseTflite(WriteTflite(synthetic->model, synthetic->data), name + ".tflite");
}

std::string ReportJsonOf(const Model& model, const std::string& delegate) {
  ReportOptions options;
  if (!delegate.empty()) options.delegates.emplace_back().spec = delegate;
  auto report = BuildReport(model, options);
  if (!report.ok()) return "error: " + report.status().message();
  return ReportToJson(*report);
}

// The lines around the first difference, for a readable failure.
std::string FirstDifference(const std::string& a, const std::string& b) {
  const size_t at =
      static_cast<size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
  const size_t from = at < 300 ? 0 : at - 300;
  return "at byte " + std::to_string(at) + ":\n.tflite: ..." + a.substr(from, 400) +
         "\nGraph JSON: ..." + b.substr(from, 400);
}

class GraphJsonRoundTripTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GraphJsonRoundTripTest, ReportOnConvertedModelEqualsReportOnTflite) {
  auto model = LoadCase(GetParam());
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto text = ModelToGraphJson(*model);
  ASSERT_TRUE(text.ok()) << text.status().message();
  auto converted = ParseGraphJson(*text, "converted.json");
  ASSERT_TRUE(converted.ok()) << converted.status().message();
  // Only the file name may differ.
  converted->path = model->path;
  for (const char* delegate : {"", "gpu", "xnnpack"}) {
    SCOPED_TRACE(std::string("delegate: ") + (*delegate ? delegate : "none"));
    const std::string expected = ReportJsonOf(*model, delegate);
    const std::string actual = ReportJsonOf(*converted, delegate);
    EXPECT_TRUE(expected == actual) << FirstDifference(expected, actual);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryModel, GraphJsonRoundTripTest, ::testing::ValuesIn(ModelPaths()),
                         [](const auto& info) {
                           const bool synthetic = info.param.find('/') == std::string::npos;
                           std::string name = (synthetic ? "synthetic_" : "") +
                                              std::filesystem::path(info.param).stem().string();
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace tfa
