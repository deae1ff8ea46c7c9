// The oracle's deterministic inputs (`--input-seed N`): a 64-bit LCG (Knuth's MMIX constants)
// started at the seed and advanced before each value, u = state >> 32; float32 elements get
// u / 2^32 * 2 - 1, bool elements u >> 31, every other type is filled byte by byte with u >> 24.
// One stream runs across all inputs in the model's input order, so inputs must be filled in
// that order from one generator.
#ifndef RUNTIME_INPUT_GENERATOR_H_
#define RUNTIME_INPUT_GENERATOR_H_

#include <cstdint>

#include "runtime/kernel.h"

namespace tfa::runtime {

class InputGenerator {
 public:
  explicit InputGenerator(uint64_t seed) : state_(seed) {}

  // The next value of the stream (u above).
  uint32_t Next() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state_ >> 32);
  }

  // Fills all of `tensor`'s bytes (its shape decides the element count).
  void Fill(RuntimeTensor& tensor);

 private:
  uint64_t state_;
};

class Interpreter;

// Fills every graph input of `interpreter` from one generator started at `seed`.
void FillDeterministicInputs(Interpreter& interpreter, uint64_t seed);

}  // namespace tfa::runtime

#endif  // RUNTIME_INPUT_GENERATOR_H_
