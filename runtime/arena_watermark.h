// The measured arena: the highest arena byte a run really wrote, found from the memory itself
// rather than from the plan. The interpreter fills each arena with a pattern when it allocates
// it; after an Invoke, the written extent is one past the highest byte that no longer holds the
// pattern. The pattern depends on the position, so data a kernel writes matches it only by
// chance (one byte value in 256, at the very last byte of the highest tensor), and every 4-byte
// word of it reads as a float32 quiet NaN, so a kernel reading bytes nobody wrote shows in the
// outputs.
#ifndef RUNTIME_ARENA_WATERMARK_H_
#define RUNTIME_ARENA_WATERMARK_H_

#include <cstdint>
#include <span>

namespace tfa::runtime {

// Writes the unwritten pattern over `bytes` (a buffer's bytes from its start).
void FillUnwritten(std::span<uint8_t> bytes);

// One past the highest byte of `bytes` that differs from the pattern; 0 when none does.
uint64_t WrittenExtent(std::span<const uint8_t> bytes);

}  // namespace tfa::runtime

#endif  // RUNTIME_ARENA_WATERMARK_H_
