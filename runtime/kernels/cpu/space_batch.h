// SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND on 3-D (NHC, seen as NH1C) or 4-D NHWC tensors with
// constant or computed int32 block shape and paddings/crops (tflite/kernels/space_to_batch_nd.cc,
// batch_to_space_nd.cc, reference_ops::SpaceToBatchND / BatchToSpaceND). Output batch b holds
// block offset b / in_batch (row-major over the block) of input batch b % in_batch. Any element
// type of 1, 2, 4 or 8 bytes a slot, as upstream copies by size; int8/uint8/int16 need the
// output's scale and zero point on the input. SPACE_TO_BATCH_ND pads 1- and 2-byte types with the
// output's zero point (int16's must be 0) and wider ones with 0.
#ifndef RUNTIME_KERNELS_CPU_SPACE_BATCH_H_
#define RUNTIME_KERNELS_CPU_SPACE_BATCH_H_

#include "runtime/kernel.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareSpaceToBatchNd(KernelContext& context);
[[nodiscard]] Status EvalSpaceToBatchNd(KernelContext& context);
[[nodiscard]] Status PrepareBatchToSpaceNd(KernelContext& context);
[[nodiscard]] Status EvalBatchToSpaceNd(KernelContext& context);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_SPACE_BATCH_H_
