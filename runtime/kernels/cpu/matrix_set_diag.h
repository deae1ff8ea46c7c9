// MATRIX_SET_DIAG (tflite/kernels/matrix_set_diag.cc): the input [..., rows, cols] with each
// matrix's main diagonal replaced by the next min(rows, cols) values of the diagonal input.
// float32, int64, int32, int16, int8, uint8; upstream reads any other type as float32, and never
// checks the diagonal's type or size, so those are refused here.
#ifndef RUNTIME_KERNELS_CPU_MATRIX_SET_DIAG_H_
#define RUNTIME_KERNELS_CPU_MATRIX_SET_DIAG_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareMatrixSetDiag(KernelContext& context);
[[nodiscard]] Status EvalMatrixSetDiag(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_MATRIX_SET_DIAG_H_
