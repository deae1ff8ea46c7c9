// The measured arena: the highest arena byte a run really wrote, found from the memory itself
// rather than from the plan. The interpreter fills each arena with a pattern when it allocates
// it; after an Invoke, the written extent is one past the highest byte that no longer holds the
// pattern. The pattern depends on the position, so data a kernel writes matches it only by
// chance (one byte value in 256, at the very last byte of the highest tensor), and every 4-byte
// word of it reads as a float32 quiet NaN, so a kernel reading bytes nobody wrote shows in the
// outputs.
//
// A byte a kernel writes with the pattern's value still reads as unwritten, so the memory alone
// would make the figure depend on the data (a run measured one byte short when its top tensor's
// last byte happened to equal the pattern). The interpreter therefore also counts, whatever their
// values, the arena tensors it knows the run wrote: each subgraph's inputs and every step's
// outputs. The memory decides only above them: kernel temporaries, which upstream's kernels
// write only when they need them, and writes outside any tensor.
#ifndef RUNTIME_ARENA_WATERMARK_H_
#define RUNTIME_ARENA_WATERMARK_H_

#include <cstdint>
#include <span>

namespace tfa::runtime {

// Writes the unwritten pattern over `bytes` (a buffer's bytes from its start).
void FillUnwritten(std::span<uint8_t> bytes);

// One past the highest byte of `bytes` that differs from the pattern; 0 when none does.
uint64_t WrittenExtent(std::span<const uint8_t> bytes);

// The same, where the bytes below `known_written_end` are known to be written: at least that
// (capped at the buffer's size), more where a byte above it differs from the pattern.
uint64_t WrittenExtent(std::span<const uint8_t> bytes, uint64_t known_written_end);

}  // namespace tfa::runtime

#endif  // RUNTIME_ARENA_WATERMARK_H_
