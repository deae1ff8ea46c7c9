// MATRIX_DIAG (tflite/kernels/matrix_diag.cc): each vector along the last dimension becomes the
// diagonal of a square matrix, [..., n] -> [..., n, n]. Float32, int64, int32, int16, int8 or
// uint8; off the diagonal the raw value 0, not the zero point of a quantized type (as upstream).
#ifndef RUNTIME_KERNELS_CPU_MATRIX_DIAG_H_
#define RUNTIME_KERNELS_CPU_MATRIX_DIAG_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareMatrixDiag(KernelContext& context);
[[nodiscard]] Status EvalMatrixDiag(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_MATRIX_DIAG_H_
