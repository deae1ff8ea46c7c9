// Graph JSON ("tflite-analyze-graph/1", see docs/graph-json.md): the second input format, what
// tests and fuzzers generate and what `tflite-analyze convert` writes.
#ifndef LIBANALYSIS_MODEL_GRAPH_JSON_H_
#define LIBANALYSIS_MODEL_GRAPH_JSON_H_

#include <optional>
#include <string>
#include <string_view>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

inline constexpr std::string_view kGraphJsonFormat = "tflite-analyze-graph/1";

// Where Graph JSON text lives. A private read-only file mapping has its pages given back as the
// parser passes them (core/mapped_pages.h), so the file is never resident whole.
enum class TextMemory { kOwned, kFileMapping };

// How ParseGraphJson reads. The reference reads the text front to back on one thread. Text
// whose tensor and node lists hold `split_bytes` or more is read in parts on all cores instead:
// the lists cut into `threads` times a few runs (each run a multiple of `part_step` elements), the
// rest of the text around them. Each part is checked as the reference checks it; text with any
// error is read again by the reference, so that the error is the one it names.
struct GraphJsonReading {
  TextMemory memory = TextMemory::kOwned;
  size_t threads = 0;  // 0: one per core; 1: the reference
  size_t split_bytes = size_t{4} << 20;
  size_t part_step = 256;
};

// Parses and validates Graph JSON text. `source_name` prefixes every error message.
// Every index is range-checked; the graph is rejected, never trusted.
Result<Model> ParseGraphJson(std::string_view text, const std::string& source_name,
                             const GraphJsonReading& reading);
inline Result<Model> ParseGraphJson(std::string_view text, const std::string& source_name,
                                    TextMemory memory = TextMemory::kOwned) {
  GraphJsonReading reading;
  reading.memory = memory;
  return ParseGraphJson(text, source_name, reading);
}

// The reading in parts alone, as ParseGraphJson tries it first: nullopt where it declines (text
// with an error, which the reference then names, or too little to split). For the tests that
// hold it equal to the reference.
std::optional<Model> ReadGraphJsonInParts(std::string_view text, const std::string& source_name,
                                          const GraphJsonReading& reading);

// Serializes one subgraph (tensors, nodes, inputs, outputs, variables) as a planner-level Graph
// JSON file.
std::string SubgraphToGraphJson(const Subgraph& subgraph, int indent = -1);

// Serializes a whole model: subgraph 0 at the top level, the others under "subgraphs", every
// field of the Graph IR (options, quantization, constant values, signatures, metadata names), and
// "kernel_prepare" for a model that is planned as a .tflite is. Refused, naming what, when the
// text would not read back as this model (a NaN scale, a name that is not UTF-8).
Result<std::string> ModelToGraphJson(const Model& model, int indent = -1);

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_GRAPH_JSON_H_
