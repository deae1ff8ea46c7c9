// End to end on the fully int8-quantized models of the oracle (tests/oracle/int8): the runtime's
// integer kernels must reproduce upstream's builtin kernels within one quantized unit on int8
// outputs (1e-4 absolute or relative on the float outputs of the _floatio variant), on
// upstream's arena.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>

#include "runtime/input_generator.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

using tfa::testing::OraclePath;
using tfa::testing::ReadJsonFile;

// The largest difference from upstream's first values: in stored units for int8 outputs, as
// min(absolute, relative) for float32 outputs.
double WorstError(Interpreter& run, const nlohmann::json& oracle, bool* all_int8) {
  double worst = 0;
  *all_int8 = true;
  for (const auto& expected : oracle["output_tensors"]) {
    const RuntimeTensor& tensor = run.tensor(expected["tensor"].get<int32_t>());
    const auto values = expected["values"].get<std::vector<double>>();
    const size_t n = std::min(values.size(), static_cast<size_t>(tensor.NumElements()));
    EXPECT_EQ(n, values.size());
    for (size_t i = 0; i < n; ++i) {
      if (tensor.type == TensorType::kInt8) {
        worst = std::max(worst, std::abs(tensor.Data<const int8_t>()[i] - values[i]));
        continue;
      }
      *all_int8 = false;
      const double a = tensor.Data<const float>()[i];
      const double abs_error = std::abs(a - values[i]);
      worst =
          std::max(worst, std::min(abs_error, abs_error / std::max(std::abs(values[i]), 1e-30)));
    }
  }
  return worst;
}

class Int8OracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(Int8OracleTest, OutputsMatchUpstreamBuiltinKernelsOnUpstreamsArena) {
  const std::string& name = GetParam();
  const auto oracle = ReadJsonFile(OraclePath("int8/" + name + ".none.json"));
  auto interpreter = Interpreter::Create(OraclePath("int8/" + name + ".tflite"));
  ASSERT_TRUE(interpreter.ok()) << interpreter.status().message();
  Interpreter& run = **interpreter;
  // Measured (committed bytes) == predicted (the plan) == upstream's arena.
  EXPECT_EQ(run.stats().arena_bytes, run.arena_plan().arena_size);
  EXPECT_EQ(run.stats().arena_bytes, oracle["arena_size"].get<uint64_t>());
  EXPECT_EQ(run.stats().persistent_arena_bytes, oracle["arena_persist_size"].get<uint64_t>());
  FillDeterministicInputs(run, 1);
  const Status invoked = run.Invoke();
  ASSERT_TRUE(invoked.ok()) << invoked.message();
  bool all_int8 = true;
  const double worst = WorstError(run, oracle, &all_int8);
  std::cout << name << ": max error " << worst << (all_int8 ? " quantized units" : "") << ", arena "
            << run.stats().arena_bytes << " bytes\n";
  EXPECT_LE(worst, all_int8 ? 1.0 : 1e-4) << name;
}

INSTANTIATE_TEST_SUITE_P(Int8, Int8OracleTest,
                         ::testing::Values("face_detection_short_range_int8",
                                           "face_detection_short_range_floatio",
                                           "face_landmark_int8"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace tfa::runtime
