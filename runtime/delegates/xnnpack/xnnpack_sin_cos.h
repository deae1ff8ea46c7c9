// SIN and COS as upstream's XNNPACK computes them, for the XNNPACK partitions whose SIN and COS
// nodes this runtime runs on the CPU (Debian's libXNNPACK 2022-02-16 has no sine or cosine).
//
// Upstream's XNNPACK (the pin 8388bd78 of tflite/tools/cmake/modules/xnnpack.cmake) does not call
// sinf: src/f32-vsin/rational-5-4.c.in reduces x by a rounded multiple of 2*pi split in two
// constants, folds the rest into [-pi, pi] with three min/max steps, and divides a degree-5 odd
// polynomial by a degree-4 even one. For |x| up to about 1e7 that is within a few ulp of sinf.
// Beyond, x / (2*pi) rounds to a multiple of more than one, the rest is left far outside
// [-pi, pi], and the rational function grows with it: upstream's XNNPACK then answers values
// far outside [-1, 1], and so does this kernel, since the run must be upstream's.
#ifndef RUNTIME_DELEGATES_XNNPACK_XNNPACK_SIN_COS_H_
#define RUNTIME_DELEGATES_XNNPACK_XNNPACK_SIN_COS_H_

#include <string>

#include "runtime/kernel.h"

namespace tfa::runtime {

// sin(x) and cos(x) by XNNPACK's rational 5/4 approximation, in float32 with fused multiply-adds,
// as its FMA3 and AVX-512 microkernels compute them.
float XnnpackSin(float x);
float XnnpackCos(float x);

// The CPU kernel of a node an XNNPACK partition runs on this runtime's CPU: XNNPACK's own
// arithmetic where it differs from the builtin kernel's (SIN, COS), else the builtin kernel.
const KernelRegistration* FindXnnpackCpuStepKernel(const std::string& op);

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_XNNPACK_XNNPACK_SIN_COS_H_
