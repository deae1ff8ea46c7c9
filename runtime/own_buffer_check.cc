#include "runtime/own_buffer_check.h"

namespace tfa::runtime {

Result<std::vector<OutputDifference>> CompareWithOwnBuffers(
    const ModelPlan& plan, const InterpreterOptions& options, const InputFiller& fill_inputs,
    const std::vector<RuntimeTensor>& outputs) {
  InterpreterOptions own = options;
  own.own_buffers = true;
  own.guard_writes = false;
  auto reference = Interpreter::Create(plan, own);
  if (!reference.ok()) return reference.status().WithContext("the run on buffers of its own");
  Interpreter& run = **reference;
  TFA_RETURN_IF_ERROR(fill_inputs(run));
  TFA_RETURN_IF_ERROR(run.Invoke().WithContext("the run on buffers of its own"));
  if (run.outputs().size() != outputs.size())
    return Status::Error("the run on buffers of its own has another number of outputs");
  std::vector<OutputDifference> differences;
  for (size_t o = 0; o < outputs.size(); ++o) {
    const int32_t t = run.outputs()[o];
    const RuntimeTensor& want = run.tensor(t);
    const RuntimeTensor& got = outputs[o];
    OutputDifference d{t, 0, 0};
    if (got.bytes != want.bytes) {
      d.differing_bytes = std::max(got.bytes, want.bytes);
    } else {
      for (uint64_t i = 0; i < got.bytes; ++i) {
        if (got.data[i] == want.data[i]) continue;
        if (d.differing_bytes++ == 0) d.first_byte = i;
      }
    }
    if (d.differing_bytes > 0) differences.push_back(d);
  }
  return differences;
}

}  // namespace tfa::runtime
