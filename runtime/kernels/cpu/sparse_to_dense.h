// SPARSE_TO_DENSE (tflite/kernels/sparse_to_dense.cc, reference_ops::SparseToDense): an output of
// the shape the output_shape input states (at most 4-D), filled with the default value, then the
// values written at the indices: 1-D indices address a 1-D output, [n, rank] indices one element
// each. A scalar value goes to every index. Values float32, int32, int64, int8, uint8; indices and
// output_shape int32 or int64. An index outside the output is an error at Eval, as upstream's
// test expects (OutOfBoundsIndexTest). An output_shape that is not a constant makes the output
// dynamic: the interpreter sizes it from the values at Eval.
#ifndef RUNTIME_KERNELS_CPU_SPARSE_TO_DENSE_H_
#define RUNTIME_KERNELS_CPU_SPARSE_TO_DENSE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareSparseToDense(KernelContext& context);
[[nodiscard]] Status EvalSparseToDense(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_SPARSE_TO_DENSE_H_
