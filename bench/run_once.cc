// The runtime's whole process as upstream's minimal benchmark measures its interpreter: load the
// model, plan and prepare it, fill the deterministic inputs, Invoke once, exit. Timed from outside
// by bench/whole_process_bench.py.
//
//   build/run_once MODEL.tflite [THREADS]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runtime/input_generator.h"
#include "runtime/interpreter.h"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: run_once MODEL.tflite [THREADS]\n");
    return 2;
  }
  tfa::runtime::InterpreterOptions options;
  if (argc == 3) options.threads = std::atoi(argv[2]);
  if (options.threads < 1) {
    std::fprintf(stderr, "run_once: THREADS must be a positive number\n");
    return 2;
  }
  auto interpreter = tfa::runtime::Interpreter::Create(argv[1], options);
  if (!interpreter.ok()) {
    std::fprintf(stderr, "%s\n", interpreter.status().message().c_str());
    return 2;
  }
  tfa::runtime::FillDeterministicInputs(**interpreter, 1);
  if (const tfa::Status status = (*interpreter)->Invoke(); !status.ok()) {
    std::fprintf(stderr, "%s\n", status.message().c_str());
    return 2;
  }
  return 0;
}
