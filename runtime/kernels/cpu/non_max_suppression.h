// NON_MAX_SUPPRESSION_V4 and V5 (tflite/kernels/non_max_suppression.cc, reference_ops
// NonMaxSuppression): the boxes [num_boxes, 4] (corners y1, x1, y2, x2, in any order) whose scores
// beat score_threshold, greedily by score, dropping a box whose IoU with one already selected
// reaches iou_threshold. Six inputs (V5) make it soft NMS: a sigma > 0 decays an overlapping box's
// score by exp(-0.5 IoU^2 / sigma) instead, and the selected scores are a second output. Outputs:
// selected indices [max_output_size] (and scores), zero past the count; the count, an int32
// scalar. All float32 but max_output_size (int32) and the outputs upstream types int32.
//
// A max_output_size that is not a constant makes the indices and scores dynamic: the interpreter
// sizes them from its value at Eval (upstream's Eval resizes them), the count stays in the arena.
// A later upstream revision then shrinks them to the count; the revision whose test
// (non_max_suppression_test.cc, TestDynamicOutput) this follows keeps max_output_size entries.
#ifndef RUNTIME_KERNELS_CPU_NON_MAX_SUPPRESSION_H_
#define RUNTIME_KERNELS_CPU_NON_MAX_SUPPRESSION_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareNonMaxSuppression(KernelContext& context);
[[nodiscard]] Status EvalNonMaxSuppression(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_NON_MAX_SUPPRESSION_H_
