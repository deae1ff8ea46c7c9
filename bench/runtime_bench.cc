// Invoke latency of the CPU runtime (no delegate) on every corpus model and on the oracle's int8
// models (/work/shared/oracle/int8, not in the repository: skipped when absent). Inputs are the
// deterministic ones `run` uses; Create (load, plan, Prepare) happens once, outside the timing.
//
//   build-rt/runtime_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/input_generator.h"
#include "runtime/interpreter.h"

namespace tfa::runtime {
namespace {

constexpr const char* kInt8ModelDir = "/work/shared/oracle/int8";

std::vector<std::filesystem::path> ModelsIn(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> models;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".tflite") models.push_back(entry.path());
  }
  std::sort(models.begin(), models.end());
  return models;
}

void BM_Invoke(benchmark::State& state, const std::string& path) {
  auto interpreter = Interpreter::Create(path);
  if (!interpreter.ok()) {
    state.SkipWithError(interpreter.status().message().c_str());
    return;
  }
  FillDeterministicInputs(**interpreter, 1);
  for (auto _ : state) {
    const Status status = (*interpreter)->Invoke();
    if (!status.ok()) {
      state.SkipWithError(status.message().c_str());
      return;
    }
  }
}

void RegisterModels() {
  std::vector<std::filesystem::path> models = ModelsIn(TFA_CORPUS_DIR);
  for (const auto& path : ModelsIn(kInt8ModelDir)) models.push_back(path);
  for (const auto& path : models) {
    benchmark::RegisterBenchmark(("Invoke/" + path.stem().string()).c_str(), BM_Invoke,
                                 path.string())
        ->Unit(benchmark::kMillisecond)
        ->MeasureProcessCPUTime()
        ->UseRealTime();
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
