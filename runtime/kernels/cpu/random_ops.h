// RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL and MULTINOMIAL (tflite/kernels/random_ops.cc): float32
// numbers in [0, 1) or standard normal of the shape input 0's values, and for MULTINOMIAL
// [batch, num_samples] class indices (int64 or int32) drawn from float32 logits [batch, classes],
// all from a Philox generator seeded with the op's (seed, seed2).
//
// Upstream seeds the generator in Prepare and lets it run on from one Invoke to the next; these
// kernels keep no state, so their numbers are those of the first Invoke after AllocateTensors,
// which is the Invoke whose outputs `run` reports. Seeds (0, 0) mean numbers drawn from
// /dev/urandom upstream, which no run can reproduce: refused.
#ifndef RUNTIME_KERNELS_CPU_RANDOM_OPS_H_
#define RUNTIME_KERNELS_CPU_RANDOM_OPS_H_

#include <cstdint>
#include <span>

#include "runtime/kernel.h"
#include "runtime/kernels/cpu/philox_random.h"

namespace tfa::runtime {

[[nodiscard]] Status PrepareRandom(KernelContext& context);
[[nodiscard]] Status EvalRandomUniform(KernelContext& context);
[[nodiscard]] Status EvalRandomStandardNormal(KernelContext& context);
[[nodiscard]] Status PrepareMultinomial(KernelContext& context);
[[nodiscard]] Status EvalMultinomial(KernelContext& context);

// The draws themselves on a generator the caller keeps, as upstream's OpData keeps it (tests run
// several Invokes on one).
void RandomUniform(PhiloxRandom& rng, std::span<float> out);
void RandomStandardNormal(PhiloxRandom& rng, std::span<float> out);
// `out` holds batch x num_samples indices; `logits` batch x classes.
void Multinomial(PhiloxRandom& rng, std::span<const float> logits, int32_t batch, int32_t classes,
                 int32_t num_samples, std::span<int64_t> out);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_RANDOM_OPS_H_
