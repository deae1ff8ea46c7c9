// Invoke latency of the OpenCL delegate (`run --delegate gpu`) on every corpus model, next to
// runtime_bench's CPU figures. Per model the delegate, its op program and the interpreter are
// created once (load, partition, Prepare, program build: the `prepare_ms` counter) and invoked
// once more outside the timing, since drivers compile kernels on first launch; the figure is the
// median Invoke over the repetitions. On PoCL this times the CPU OpenCL device; export
// OCL_ICD_VENDORS to time a GPU (docs/gpu.md).
//
//   build/gpu_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/delegates/opencl/opencl_delegate.h"
#include "runtime/input_generator.h"
#include "runtime/interpreter.h"

namespace tfa::runtime {
namespace {

// A model ready to invoke on the OpenCL delegate, made once for all repetitions.
struct PreparedModel {
  std::unique_ptr<Delegate> delegate;
  std::unique_ptr<Interpreter> interpreter;
  double prepare_ms = 0;
  std::string error;
};

PreparedModel& Prepared(const std::string& path) {
  static std::map<std::string, PreparedModel> models;
  auto [it, inserted] = models.try_emplace(path);
  if (!inserted) return it->second;
  PreparedModel& model = it->second;
  const auto start = std::chrono::steady_clock::now();
  auto delegate = CreateOpenClDelegate();
  if (!delegate.ok()) {
    model.error = delegate.status().message();
    return model;
  }
  model.delegate = std::move(*delegate);
  InterpreterOptions options;
  options.delegates = {model.delegate.get()};
  auto interpreter = Interpreter::Create(path, options);
  if (!interpreter.ok()) {
    model.error = interpreter.status().message();
    return model;
  }
  model.interpreter = std::move(*interpreter);
  model.prepare_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  FillDeterministicInputs(*model.interpreter, 1);
  if (Status status = model.interpreter->Invoke(); !status.ok()) model.error = status.message();
  return model;
}

void BM_GpuInvoke(benchmark::State& state, const std::string& path) {
  PreparedModel& model = Prepared(path);
  if (!model.error.empty()) {
    state.SkipWithError(model.error.c_str());
    return;
  }
  for (auto _ : state) {
    const Status status = model.interpreter->Invoke();
    if (!status.ok()) {
      state.SkipWithError(status.message().c_str());
      return;
    }
  }
  state.counters["prepare_ms"] = model.prepare_ms;
}

void RegisterModels() {
  std::vector<std::filesystem::path> models;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(TFA_CORPUS_DIR, error)) {
    if (entry.path().extension() == ".tflite") models.push_back(entry.path());
  }
  std::sort(models.begin(), models.end());
  for (const auto& path : models) {
    benchmark::RegisterBenchmark(("GpuInvoke/" + path.stem().string()).c_str(), BM_GpuInvoke,
                                 path.string())
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Repetitions(5)
        ->ReportAggregatesOnly(true);
  }
}

}  // namespace
}  // namespace tfa::runtime

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  tfa::runtime::RegisterModels();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
