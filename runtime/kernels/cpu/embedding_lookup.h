// EMBEDDING_LOOKUP (tflite/kernels/embedding_lookup.cc): output row i is row ids[i] of the table
// (dimension 0 of a table of rank 2 or more); ids are int32, of rank 1, each in [0, rows).
//   - Table and output of one element size: the row's bytes are copied as they are, whatever the
//     two types (upstream's EvalSimple: a uint8 table into an int8 output copies bytes).
//   - An int8 or uint8 table into a float32 output (upstream's EvalHybrid): each value times the
//     table's scale, or row ids[i]'s scale when quantized per row (dimension 0). The zero point
//     must be 0, and, as upstream, a uint8 table's bytes are read as int8.
// Upstream's int4/int2 and blockwise tables and float16 outputs are not here.
#ifndef RUNTIME_KERNELS_CPU_EMBEDDING_LOOKUP_H_
#define RUNTIME_KERNELS_CPU_EMBEDDING_LOOKUP_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareEmbeddingLookup(KernelContext& context);
[[nodiscard]] Status EvalEmbeddingLookup(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_EMBEDDING_LOOKUP_H_
