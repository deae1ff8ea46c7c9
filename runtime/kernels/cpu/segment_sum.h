// SEGMENT_SUM (tflite/kernels/segment_sum.cc, reference_ops SegmentSum): row r of the output is
// the sum of the input rows (dimension 0) whose segment id is r. Data float32 or int32 (int32 sums
// wrap); segment ids int32, one per input row, starting at 0 and rising by 0 or 1 from row to
// row (upstream's ValidateSegmentIds: any other sequence is an error). The output has last id + 1
// rows.
//
// Constant ids are checked at Prepare. Upstream makes the output dynamic when the data or the ids
// are not constant and sizes it at Eval; this runtime cannot resize an output, so Eval requires
// the planned shape to be the one the ids give.
#ifndef RUNTIME_KERNELS_CPU_SEGMENT_SUM_H_
#define RUNTIME_KERNELS_CPU_SEGMENT_SUM_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareSegmentSum(KernelContext& context);
[[nodiscard]] Status EvalSegmentSum(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_SEGMENT_SUM_H_
