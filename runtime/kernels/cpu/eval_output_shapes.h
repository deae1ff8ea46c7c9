// Kernels that size their dynamic outputs from values no shape rule reads: UNIQUE counts the
// distinct values of any input type, as unique.cc resizes its output in Eval. The interpreter
// asks them for their outputs' shapes at Eval, once the inputs are computed; every other kernel's
// dynamic outputs take the shapes the shape rules give from the integer values then.
#ifndef RUNTIME_KERNELS_CPU_EVAL_OUTPUT_SHAPES_H_
#define RUNTIME_KERNELS_CPU_EVAL_OUTPUT_SHAPES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/kernel.h"

namespace tfa::runtime {

using EvalOutputShapes = Result<std::vector<std::vector<int32_t>>> (*)(const KernelContext&);

// That function for `op`, or nullptr when the shape rules size its outputs.
EvalOutputShapes FindEvalOutputShapes(const std::string& op);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_EVAL_OUTPUT_SHAPES_H_
