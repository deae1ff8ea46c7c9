// The entries of a .tflite model's `metadata`: named buffers beside the graph (upstream's
// min_runtime_version, the TFLite Support metadata flatbuffer, conversion options). The loader
// keeps only their names (Model::metadata_names); `info` shows each one's size and, when it is
// short text, its value.
#ifndef LIBANALYSIS_MODEL_MODEL_METADATA_H_
#define LIBANALYSIS_MODEL_MODEL_METADATA_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"

namespace tfa {

struct MetadataEntry {
  std::string name;
  uint32_t buffer = 0;
  uint64_t bytes = 0;
  // The contents when they are printable ASCII text of at most kMaxMetadataText bytes, trailing
  // NULs dropped (the converter pads min_runtime_version to 16 bytes with them).
  std::optional<std::string> text = {};
};

inline constexpr uint64_t kMaxMetadataText = 256;

// The metadata entries of the .tflite in `file`, in the file's order; verified as the loader
// verifies the flatbuffer. Errors name `source`.
[[nodiscard]] Result<std::vector<MetadataEntry>> ReadMetadataEntries(std::span<const uint8_t> file,
                                                                     const std::string& source);

// The same for the file at `path` (mapped, so that the weights are never read); a Graph JSON file
// has no metadata buffers: none.
[[nodiscard]] Result<std::vector<MetadataEntry>> ReadMetadataEntriesOfFile(const std::string& path);

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_MODEL_METADATA_H_
