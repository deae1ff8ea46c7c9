// UNSORTED_SEGMENT_SUM, _PROD, _MAX and _MIN (tflite/kernels/unsorted_segment.cc, reference_ops
// UnsortedSegmentRef): data float32 or int32; int32 segment ids whose shape is a prefix of the
// data's; an int32 num_segments of shape [] or [1]. The output is [num_segments] followed by the
// data's dimensions after the ids' rank: output slice s reduces every data slice whose id is s.
// A negative id drops its slice; an id >= num_segments is an error. Slices no id names keep the
// reduction's start: 0 (sum), 1 (prod), the type's lowest (max) or highest (min) value. Integer
// sums and products wrap.
//
// Upstream sizes the output at Prepare when the ids and num_segments are constant, else at Eval;
// this runtime cannot resize an output, so Eval requires the planned shape to be the computed one.
#ifndef RUNTIME_KERNELS_CPU_UNSORTED_SEGMENT_H_
#define RUNTIME_KERNELS_CPU_UNSORTED_SEGMENT_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareUnsortedSegment(KernelContext& context);
[[nodiscard]] Status EvalUnsortedSegmentSum(KernelContext& context);
[[nodiscard]] Status EvalUnsortedSegmentProd(KernelContext& context);
[[nodiscard]] Status EvalUnsortedSegmentMax(KernelContext& context);
[[nodiscard]] Status EvalUnsortedSegmentMin(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_UNSORTED_SEGMENT_H_
