// The heap XNNPACK's operators keep for the nodes of a delegated partition, by the rules of the
// XNNPACK upstream LiteRT pins (XNNPACK src/operators/*.c), which the delegate creates in
// Subgraph::Create and sizes at its first reshape:
//   - packed weights: every convolution, FULLY_CONNECTED and BATCH_MATMUL with a static right-hand
//     side packs its filter and bias into a buffer of its own, output channels rounded up to the
//     GEMM tile (nr), input channels to kr, a depthwise filter to the micro-kernel's tap count and
//     channel tile, aligned to XNN_ALLOCATION_ALIGNMENT; the buffer is memset before packing, so
//     all of it is resident. fp16 weights are packed as float32.
//   - indirection buffers: the delegate's default options leave
//     TFLITE_XNNPACK_DELEGATE_FLAG_TRANSIENT_INDIRECTION_BUFFER off, so each IGEMM convolution,
//     depthwise convolution, max / average pooling and bilinear resize keeps one on the heap, as
//     long as the operator lives, written whole at the first reshape (convolution-nhwc.c
//     reshape_igemm / reshape_dwconv, max-pooling-nhwc.c, resize-bilinear-nhwc.c). 1x1 convolutions
//     with unit stride and no explicit padding run as GEMM and need none.
// Tiles depend on the CPU XNNPACK picks its micro-kernels for; XnnpackTiles says which.
#ifndef LIBANALYSIS_REPORT_XNNPACK_OPERATOR_MEMORY_H_
#define LIBANALYSIS_REPORT_XNNPACK_OPERATOR_MEMORY_H_

#include <cstdint>
#include <string>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// XNNPACK's micro-kernel tiles on one CPU.
struct XnnpackTiles {
  const char* cpu = "";
  uint64_t allocation_alignment = 64;  // XNN_ALLOCATION_ALIGNMENT
  uint32_t gemm_mr = 7;                // output rows per IGEMM tile (indirection rounding)
  uint32_t gemm_nr = 16;               // output channels per GEMM tile
  uint32_t gemm_kr = 1;                // float input channels rounded up to this
  uint32_t qs8_gemm_kr = 8;            // 8-bit input channels rounded up to this
  uint32_t dwconv_channel_tile = 16;
  uint32_t pooling_tile = 9;  // first-pass taps of the max / average pooling micro-kernels
};

// x86-64 with AVX-512 (the f32 7x16 GEMM, 16-channel depthwise kernels): the machine upstream's
// RSS table (../shared/oracle/memory) was measured on.
inline constexpr XnnpackTiles kXnnpackX86Avx512Tiles{"x86-64 AVX-512", 64, 7, 16, 1, 8, 16, 9};

struct XnnpackOperatorMemory {
  uint64_t packed_weights = 0;
  uint64_t indirection_buffers = 0;
};

// The operators of the delegate kernels named `delegate` in `prepared` (the graph the arena was
// planned on: shapes resolved). Errors name the node whose sizes overflow.
[[nodiscard]] Result<XnnpackOperatorMemory> EstimateXnnpackOperatorMemory(
    const Subgraph& prepared, const std::string& delegate,
    const XnnpackTiles& tiles = kXnnpackX86Avx512Tiles);

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_XNNPACK_OPERATOR_MEMORY_H_
