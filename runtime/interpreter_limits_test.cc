// The interpreter's protections: the memory limit checked before anything is allocated, and the
// guard-writes debug mode that catches a kernel writing outside its outputs.
#include <gtest/gtest.h>

#include <memory>

#include "libanalysis/model/model_loader.h"
#include "runtime/cpu_subset_delegate.h"
#include "runtime/input_generator.h"
#include "runtime/interpreter.h"
#include "runtime/run_plan.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

using tfa::testing::CorpusModelNames;
using tfa::testing::CorpusModelPath;
using tfa::testing::OraclePath;

const std::string kShortRange = "face_detection__face_detection_short_range";

TEST(InterpreterLimitsTest, MemoryLimitRefusesTheModelBeforeAllocating) {
  InterpreterOptions options;
  options.memory_limit_bytes = 1 << 20;
  auto refused = Interpreter::Create(CorpusModelPath(kShortRange), options);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("the run needs "), std::string::npos)
      << refused.status().message();
  EXPECT_NE(refused.status().message().find("above the memory limit of 1048576 bytes"),
            std::string::npos)
      << refused.status().message();
  EXPECT_EQ(refused.status().message().find('\n'), std::string::npos);
  options.memory_limit_bytes = InterpreterOptions::kDefaultMemoryLimitBytes;
  EXPECT_TRUE(Interpreter::Create(CorpusModelPath(kShortRange), options).ok());
}

// Runs its subsets with the CPU kernels, then flips a byte of its first input: a kernel bug
// that corrupts a tensor it was only meant to read.
class ScribblingDelegate : public CpuSubsetDelegate {
 public:
  ScribblingDelegate() : CpuSubsetDelegate("scribbler", {"ADD"}) {}

  Result<std::unique_ptr<DelegateKernel>> CreateKernel(
      const DelegatePartition& partition) override {
    auto inner = CpuSubsetDelegate::CreateKernel(partition);
    if (!inner.ok()) return inner.status();
    return std::unique_ptr<DelegateKernel>(new Kernel(std::move(*inner)));
  }

 private:
  class Kernel : public DelegateKernel {
   public:
    explicit Kernel(std::unique_ptr<DelegateKernel> inner) : inner_(std::move(inner)) {}
    Status Prepare(KernelContext& context) override { return inner_->Prepare(context); }
    Status Eval(KernelContext& context) override {
      TFA_RETURN_IF_ERROR(inner_->Eval(context));
      for (RuntimeTensor* input : context.inputs) {
        if (input && !input->is_constant && input->bytes > 0) {
          input->data[0] ^= 1;
          break;
        }
      }
      return Status::Ok();
    }

   private:
    std::unique_ptr<DelegateKernel> inner_;
  };
};

TEST(InterpreterLimitsTest, GuardWritesCatchesAKernelWritingItsInput) {
  ScribblingDelegate scribbler;
  InterpreterOptions options;
  options.delegates = {&scribbler};
  auto unguarded = Interpreter::Create(CorpusModelPath(kShortRange), options);
  ASSERT_TRUE(unguarded.ok()) << unguarded.status().message();
  FillDeterministicInputs(**unguarded, 1);
  EXPECT_TRUE((*unguarded)->Invoke().ok());  // without the guard the corruption goes unseen

  options.guard_writes = true;
  auto guarded = Interpreter::Create(CorpusModelPath(kShortRange), options);
  ASSERT_TRUE(guarded.ok()) << guarded.status().message();
  FillDeterministicInputs(**guarded, 1);
  const Status status = (*guarded)->Invoke();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("(scribbler): guard check: wrote arena bytes ["),
            std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find(") outside its outputs and temporaries, into tensor "),
            std::string::npos)
      << status.message();
}

// The guard watches every subgraph that runs: call_once_var's init subgraph (1), which CALL_ONCE
// runs first, has an ADD reading FILL's output from that subgraph's arena; the scribbler flips it.
TEST(InterpreterLimitsTest, GuardWritesWatchesCalledSubgraphs) {
  auto model = LoadModelFile(OraclePath("control_flow/call_once_var.tflite"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  ScribblingDelegate scribbler;
  InterpreterOptions options;
  options.delegates = {&scribbler};
  options.guard_writes = true;
  PlanOptions plan_options;
  plan_options.delegates = {scribbler.Profile()};
  auto plan = PlanForRun(*model, plan_options, options, [](Interpreter& interpreter) {
    FillDeterministicInputs(interpreter, 1);
    return Status::Ok();
  });
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  auto guarded = Interpreter::Create(*plan, options);
  ASSERT_TRUE(guarded.ok()) << guarded.status().message();
  FillDeterministicInputs(**guarded, 1);
  const Status status = (*guarded)->Invoke();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("(CALL_ONCE): subgraph 1: node "), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("(scribbler): guard check: wrote arena bytes ["),
            std::string::npos)
      << status.message();
}

// Every corpus model, with the guard on: no kernel writes a byte of the arenas outside its own
// outputs and temporaries (CI also runs this under ASan, which sees bytes outside the arenas).
class GuardedCorpusRunTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GuardedCorpusRunTest, NoKernelWritesOutsideItsOutputs) {
  InterpreterOptions options;
  options.guard_writes = true;
  auto interpreter = Interpreter::Create(CorpusModelPath(GetParam()), options);
  ASSERT_TRUE(interpreter.ok()) << interpreter.status().message();
  FillDeterministicInputs(**interpreter, 1);
  const Status status = (*interpreter)->Invoke();
  EXPECT_TRUE(status.ok()) << status.message();
}

INSTANTIATE_TEST_SUITE_P(Corpus, GuardedCorpusRunTest, ::testing::ValuesIn(CorpusModelNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace tfa::runtime
