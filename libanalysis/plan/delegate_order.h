// The order in which the interpreter applies the delegates it is given, and which of them it
// applies at all.
//
// Upstream applies delegates at three moments (tflite/core/interpreter_builder.cc,
// tflite/core/interpreter.cc):
//   1. InterpreterBuilder::ApplyDelegates applies the Flex delegate first, and only when the model
//      has a Flex op (has_flex_op_, set while resolving the op codes; AcquireFlexDelegate finds
//      the delegate when TensorFlow's kernels are linked in);
//   2. then every delegate added with InterpreterBuilder::AddDelegate, in the order added (and
//      ModifyGraphWithDelegate calls after building, in call order);
//   3. the default delegates (XNNPACK) last, lazily, at the first AllocateTensors.
// A `--delegate` list therefore runs with the profiles applied at build (`applied_at_build`:
// flex) moved to the front, the others in the order given; `--delegate xnnpack` stands for the
// user's XNNPACK or the default one, and Flex precedes both.
// A compiler plugin (`compiler_plugin`, `--accelerator npu:VENDOR`) comes before all of them:
// CompiledModel outlines its partitions into dispatch ops when it loads the model
// (litert/compiler/plugin/compiler_plugin.cc ApplyPlugins), before the interpreter exists; its
// note says the selection is transcribed and the vendor SDK may still reject ops.
#ifndef LIBANALYSIS_PLAN_DELEGATE_ORDER_H_
#define LIBANALYSIS_PLAN_DELEGATE_ORDER_H_

#include <string>
#include <vector>

#include "libanalysis/model/graph.h"
#include "libanalysis/profiles/delegate_profile.h"

namespace tfa {

struct DelegateOrder {
  std::vector<DelegateProfile> applied;  // in the order the interpreter applies them
  // Why a profile moved or was left out, one sentence each ("flex: applied before gpu: ...").
  std::vector<std::string> notes;
};

// `requested` (the command line's order) as the interpreter applies it to `model`: profiles
// applied at build first, and only when some node of the model has an op they name.
DelegateOrder OrderDelegatesAsInterpreter(const Model& model,
                                          std::vector<DelegateProfile> requested);

}  // namespace tfa

#endif  // LIBANALYSIS_PLAN_DELEGATE_ORDER_H_
