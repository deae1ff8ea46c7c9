#include "runtime/kernels/cpu/trigonometry.h"

#include <cmath>

#include "runtime/kernels/cpu/activations.h"

namespace tfa::runtime {

// std::sin on a float is sinf: the float overload upstream's function pointer resolves to.
Status EvalSin(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::sin(x); });
}

Status EvalCos(KernelContext& context) {
  return MapUnaryFloat(context, [](float x) { return std::cos(x); });
}

}  // namespace tfa::runtime
