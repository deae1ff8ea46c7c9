// EMBEDDING_LOOKUP_SPARSE (tflite/kernels/embedding_lookup_sparse.cc): the rows of params a
// sparse tensor (ids, indices, dense_shape) names, weighted and combined per position of
// dense_shape[:k-1] by the combiner: SUM, MEAN (divided by the total weight) or SQRTN (by the root
// of the summed squared weights). Positions with no id stay 0. An id or index out of range is an
// error, as upstream's Eval fails on it. The output is dynamic (sized from dense_shape at Eval).
#ifndef RUNTIME_KERNELS_CPU_EMBEDDING_LOOKUP_SPARSE_H_
#define RUNTIME_KERNELS_CPU_EMBEDDING_LOOKUP_SPARSE_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareEmbeddingLookupSparse(KernelContext& context);
[[nodiscard]] Status EvalEmbeddingLookupSparse(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_EMBEDDING_LOOKUP_SPARSE_H_
