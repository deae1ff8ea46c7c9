// What the delegate tests check on every run: the runtime's delegated plan and copy counts equal
// the analyser's prediction (BuildReport on the same file with the same delegate specs), and the
// outputs of a delegated run equal a reference run's.
#ifndef RUNTIME_DELEGATES_TESTING_DELEGATE_RUN_CHECKS_H_
#define RUNTIME_DELEGATES_TESTING_DELEGATE_RUN_CHECKS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "libanalysis/report/report.h"
#include "runtime/interpreter.h"

namespace tfa::runtime::testing {

// What the runtime measured, in the report's terms.
struct MeasuredDelegation {
  int32_t delegated_partitions = 0;
  std::vector<std::vector<int32_t>> partition_nodes;    // per delegate kernel, in plan order
  std::vector<std::vector<int32_t>> partition_inputs;   // its boundary tensors
  std::vector<std::vector<int32_t>> partition_outputs;
  CopyStats copies;  // of the last Invoke (only init_upload_bytes before the first)
  uint64_t arena_bytes = 0;
  uint64_t persistent_arena_bytes = 0;
};

// A delegate spec with the partition settings `report --delegate SPEC --max-partitions N` takes.
struct DelegationSpec {
  DelegationSpec(const char* name) : spec(name) {}  // NOLINT: "gpu" reads as a spec
  DelegationSpec(std::string name, std::optional<int32_t> max)
      : spec(std::move(name)), max_partitions(max) {}

  std::string spec;
  std::optional<int32_t> max_partitions;
};

// The report for `model_path` with `specs` applied in order (subgraph 0), the arena planned when
// `plan_arena`; fails the test on error.
SubgraphReport PredictDelegation(const std::string& model_path,
                                 const std::vector<DelegationSpec>& specs,
                                 bool plan_arena = false);

// Creates the interpreter, fills the inputs deterministically (seed 1) and invokes it once.
std::unique_ptr<Interpreter> RunModel(const std::string& model_path,
                                      const std::vector<Delegate*>& delegates);

MeasuredDelegation Measure(const Interpreter& interpreter);

// EXPECTs that the prediction and the measurement agree: partition count, nodes and boundary
// tensors per partition, upload bytes, the arenas when the prediction planned them, and when
// `invoked`, bytes each way and transitions.
void ExpectPredictionMatches(const SubgraphReport& predicted, const MeasuredDelegation& measured,
                             bool invoked = true);

// The largest error over all float32 outputs, an element's error being min(absolute, relative).
double MaxOutputError(const Interpreter& actual, const Interpreter& expected);

// Writes `bytes` to a file named after the test process (ProcessTempPath) and returns its path.
std::string WriteTempFile(const std::string& name, const std::vector<uint8_t>& bytes);

}  // namespace tfa::runtime::testing

#endif  // RUNTIME_DELEGATES_TESTING_DELEGATE_RUN_CHECKS_H_
