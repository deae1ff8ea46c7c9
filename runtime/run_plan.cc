#include "runtime/run_plan.h"

#include <string>

namespace tfa::runtime {

Result<ModelPlan> PlanForRun(const Model& model, const PlanOptions& options,
                             const InterpreterOptions& run_options, const InputFiller& fill_inputs,
                             const DelegateBytes& delegate_bytes) {
  auto plan = PlanModel(model, options);
  if (!plan.ok() || !plan->invoke || !plan->invoke->undetermined) return plan;
  InterpreterOptions probe_options = run_options;
  probe_options.own_buffers = true;
  probe_options.guard_writes = false;
  uint64_t outside = 0;
  if (delegate_bytes) {
    auto bytes = delegate_bytes(*plan);
    if (!bytes.ok()) return bytes.status();
    outside = *bytes;
  }
  if (outside > 0 && outside >= run_options.memory_limit_bytes) {
    return Status::Error(model.path + ": the delegates need " + std::to_string(outside) +
                         " bytes outside the interpreter (predicted), above the memory limit of " +
                         std::to_string(run_options.memory_limit_bytes) + " bytes");
  }
  probe_options.memory_limit_bytes -= outside;
  // A refusal of the limit says it was less the delegates' share.
  const auto with_note = [&](const Status& status) {
    if (outside == 0 || status.message().find("above the memory limit") == std::string::npos)
      return status;
    return Status::Error(status.message() + " (the memory limit of " +
                         std::to_string(run_options.memory_limit_bytes) +
                         " bytes less the delegates' predicted " + std::to_string(outside) +
                         " bytes)");
  };
  auto probe = Interpreter::Create(*plan, probe_options);
  if (!probe.ok())
    return with_note(probe.status().WithContext("the run that finds the control flow"));
  TFA_RETURN_IF_ERROR(fill_inputs(**probe));
  TFA_RETURN_IF_ERROR(with_note(
      (*probe)->Invoke().WithContext(model.path + ": the run that finds the control flow")));
  PlanOptions with_facts = options;
  with_facts.invoke_facts = (*probe)->stats().facts;
  return PlanModel(model, with_facts);
}

}  // namespace tfa::runtime
