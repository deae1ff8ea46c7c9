// The runtime on any .tflite the loader accepts (seeded with real models, which libFuzzer mutates):
// plan, Prepare and one Invoke on the deterministic inputs, under a small memory limit and loop
// and time limits: a run or a one-line error, never a crash, a hang or runaway memory.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "libanalysis/model/model_loader.h"
#include "runtime/input_generator.h"
#include "runtime/interpreter.h"
#include "runtime/run_plan.h"

namespace {

// The runtime reads constants from the model file itself (mapped), so each input is a file.
const std::string& ModelPath() {
  static const std::string path = "/tmp/fuzz_run_" + std::to_string(getpid()) + ".tflite";
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = ModelPath();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  auto model = tfa::LoadModelFile(path);
  if (!model.ok()) return 0;
  tfa::runtime::InterpreterOptions options;
  options.memory_limit_bytes = 64u << 20;
  options.max_loop_iterations = 1000;
  options.time_limit_seconds = 2;
  const tfa::runtime::InputFiller fill = [](tfa::runtime::Interpreter& interpreter) {
    tfa::runtime::FillDeterministicInputs(interpreter, 1);
    return tfa::Status::Ok();
  };
  auto plan = tfa::runtime::PlanForRun(*model, {}, options, fill);
  if (!plan.ok()) return 0;
  auto interpreter = tfa::runtime::Interpreter::Create(*plan, options);
  if (!interpreter.ok()) return 0;
  if (!fill(**interpreter).ok()) return 0;
  (void)(*interpreter)->Invoke();
  return 0;
}
