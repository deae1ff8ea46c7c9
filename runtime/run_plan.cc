#include "runtime/run_plan.h"

namespace tfa::runtime {

Result<ModelPlan> PlanForRun(const Model& model, const PlanOptions& options,
                             const InterpreterOptions& run_options,
                             const InputFiller& fill_inputs) {
  auto plan = PlanModel(model, options);
  if (!plan.ok() || !plan->invoke || !plan->invoke->undetermined) return plan;
  InterpreterOptions probe_options = run_options;
  probe_options.own_buffers = true;
  probe_options.guard_writes = false;
  auto probe = Interpreter::Create(*plan, probe_options);
  if (!probe.ok()) return probe.status().WithContext("the run that finds the control flow");
  TFA_RETURN_IF_ERROR(fill_inputs(**probe));
  TFA_RETURN_IF_ERROR(
      (*probe)->Invoke().WithContext(model.path + ": the run that finds the control flow"));
  PlanOptions with_facts = options;
  with_facts.invoke_facts = (*probe)->stats().facts;
  return PlanModel(model, with_facts);
}

}  // namespace tfa::runtime
