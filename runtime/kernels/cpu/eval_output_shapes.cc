#include "runtime/kernels/cpu/eval_output_shapes.h"

#include "runtime/kernels/cpu/unique.h"

namespace tfa::runtime {

EvalOutputShapes FindEvalOutputShapes(const std::string& op) {
  return op == "UNIQUE" ? UniqueOutputShapes : nullptr;
}

}  // namespace tfa::runtime
