// The OpenCL C source of every op kernel of the OpenCL delegate, built as ONE program: OpenCL
// compilers (PoCL especially, about half a second per program) are slow, so a delegate builds
// it once and every partition's kernels come from it.
//
// Layout: float32, NHWC, dense. Each kernel computes one output element per work-item (global
// size = element count); the host passes shapes as ints. Fused activations are a [lo, hi] clamp.
// Ops that only move elements (slices, transposes, depth/space shuffles, mirror pads, splits,
// gathers) share one kernel that copies the input element a host-computed index map names, so
// they work on any 4-byte element type.
#ifndef RUNTIME_DELEGATES_OPENCL_OP_KERNELS_SOURCE_H_
#define RUNTIME_DELEGATES_OPENCL_OP_KERNELS_SOURCE_H_

namespace tfa::runtime {

// Binary ops of the `binary` kernel (the `op` argument).
enum class ClBinaryOp : int {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMaximum,
  kMinimum,
  kSquaredDifference,
  kPow,
  kPrelu,
  kFloorDiv,
  kFloorMod,
};

// Unary ops of the `unary` kernel (the `op` argument); `alpha` is LEAKY_RELU's.
enum class ClUnaryOp : int {
  kRelu,
  kRelu6,
  kReluN1To1,
  kRelu0To1,
  kLogistic,
  kTanh,
  kHardSwish,
  kElu,
  kLeakyRelu,
  kAbs,
  kExp,
  kLog,
  kSqrt,
  kRsqrt,
  kSquare,
  kNeg,
  kSin,
  kCos,
  kFloor,
  kSign,
  kGelu,
};

// Reductions of the `reduce` kernel (the `op` argument).
enum class ClReduceOp : int {
  kMean,
  kSum,
  kMax,
  kMin,
  kProd,
};

extern const char kOpKernelsSource[];

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_OPENCL_OP_KERNELS_SOURCE_H_
