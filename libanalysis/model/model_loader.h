// Loading models from disk: .tflite flatbuffers and Graph JSON, told apart by content.
#ifndef LIBANALYSIS_MODEL_MODEL_LOADER_H_
#define LIBANALYSIS_MODEL_MODEL_LOADER_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

struct LoadOptions {
  // Files above this size are refused before they are mapped (or read, when not a regular file).
  uint64_t max_file_bytes = uint64_t{8} << 30;
};

// The whole file, refused (one line naming it) when it is a directory, cannot be read or holds
// more than `max_bytes`.
Result<std::vector<uint8_t>> ReadFileBytes(const std::string& path, uint64_t max_bytes);

// Maps `path` (reads it when it cannot be mapped) and parses it as Graph JSON when its first
// non-blank byte is '{', else as .tflite; a .tflite's weights are never read.
// Errors are one line naming the file, the object and the reason.
Result<Model> LoadModelFile(const std::string& path, const LoadOptions& options = {});

// Parses an in-memory .tflite file. Runs the flatbuffers Verifier before reading anything, then
// checks every index, buffer range and size the analyses rely on.
Result<Model> ParseTflite(std::span<const uint8_t> file, const std::string& source_name);

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_MODEL_LOADER_H_
