// Every GPU mutant but the one with an unknown custom op runs on the CPU runtime: the nodes the
// GPU delegate rejects (SIGN_BIT activations, int16 QUANTIZE/DEQUANTIZE, CEIL, ROUND, the CAST /
// int32 ADD chain, ...) have CPU kernels, so `run --delegate gpu` can create every one of them.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>

#include "runtime/input_generator.h"
#include "runtime/interpreter.h"
#include "tests/support/gpu_mutants.h"

namespace tfa::runtime {
namespace {

class GpuMutantsOnCpuTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    mutants_ = std::make_unique<tfa::testing::RebuiltGpuMutants>("gpu_mutants_cpu");
  }
  static void TearDownTestSuite() { mutants_.reset(); }
  static const std::map<std::string, std::string>& paths() { return mutants_->paths(); }

  static std::unique_ptr<tfa::testing::RebuiltGpuMutants> mutants_;
};

std::unique_ptr<tfa::testing::RebuiltGpuMutants> GpuMutantsOnCpuTest::mutants_;

TEST_F(GpuMutantsOnCpuTest, EveryMutantWithKnownOpsIsCreated) {
  EXPECT_EQ(paths().size(), 17u);
  for (const auto& [name, path] : paths()) {
    if (name == "hlf_custom_early") continue;
    auto interpreter = Interpreter::Create(path);
    EXPECT_TRUE(interpreter.ok()) << name << ": " << interpreter.status().message();
  }
}

// The two selfie mutants are the cheapest to invoke (CEIL on the landscape one, SIGN_BIT MUL).
TEST_F(GpuMutantsOnCpuTest, SmallMutantsInvokeToFiniteOutputs) {
  for (const char* name : {"ssl_swap_logistic_x2", "ss_signbit_mul_x3"}) {
    SCOPED_TRACE(name);
    auto interpreter = Interpreter::Create(paths().at(name));
    ASSERT_TRUE(interpreter.ok()) << interpreter.status().message();
    FillDeterministicInputs(**interpreter, 1);
    ASSERT_TRUE((*interpreter)->Invoke().ok());
    for (int32_t output : (*interpreter)->outputs()) {
      const RuntimeTensor& tensor = (*interpreter)->tensor(output);
      const float* values = tensor.Data<const float>();
      for (int64_t i = 0; i < tensor.NumElements(); ++i) ASSERT_TRUE(std::isfinite(values[i]));
    }
  }
}

}  // namespace
}  // namespace tfa::runtime
