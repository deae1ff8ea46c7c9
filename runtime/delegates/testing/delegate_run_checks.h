// What the delegate tests check on every run: the runtime's delegated plan and copy counts equal
// the analyser's prediction (BuildReport on the same file with the same delegate specs), and the
// outputs of a delegated run equal a reference run's.
#ifndef RUNTIME_DELEGATES_TESTING_DELEGATE_RUN_CHECKS_H_
#define RUNTIME_DELEGATES_TESTING_DELEGATE_RUN_CHECKS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libanalysis/report/report.h"
#include "runtime/interpreter.h"

namespace tfa::runtime::testing {

// What the runtime measured, in the report's terms.
struct MeasuredDelegation {
  int32_t delegated_partitions = 0;
  std::vector<std::vector<int32_t>> partition_nodes;  // per delegate kernel, in plan order
  CopyStats copies;
};

// The report for `model_path` with `specs` applied in order (subgraph 0); fails the test on error.
SubgraphReport PredictDelegation(const std::string& model_path,
                                 const std::vector<std::string>& specs);

// Creates the interpreter, fills the inputs deterministically (seed 1) and invokes it once.
std::unique_ptr<Interpreter> RunModel(const std::string& model_path,
                                      const std::vector<Delegate*>& delegates);

MeasuredDelegation Measure(const Interpreter& interpreter);

// EXPECTs that the prediction and the measurement agree: partition count, nodes per partition,
// bytes each way, upload bytes, transitions.
void ExpectPredictionMatches(const SubgraphReport& predicted, const MeasuredDelegation& measured);

// The largest error over all float32 outputs, an element's error being min(absolute, relative).
double MaxOutputError(const Interpreter& actual, const Interpreter& expected);

// Writes `bytes` to a fresh file under the test temp directory and returns its path.
std::string WriteTempFile(const std::string& name, const std::vector<uint8_t>& bytes);

}  // namespace tfa::runtime::testing

#endif  // RUNTIME_DELEGATES_TESTING_DELEGATE_RUN_CHECKS_H_
