// TFLite Micro's arena as `report --target tflm` and `arena --target tflm` print it: head, tail
// item by item, arena_used_bytes, the recommended kTensorArenaSize, every planned tensor and
// scratch buffer, and the MicroMutableOpResolver the model needs. The library returns the
// numbers (libanalysis/tflm/); the words and the JSON layout are here.
#ifndef CLI_TFLM_REPORT_H_
#define CLI_TFLM_REPORT_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/common_flags.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/tflm/micro_allocator_replay.h"

namespace tfa::cli {

// The full report of one model.
std::string TflmReportText(const std::string& model_path, const Model& model,
                           const tflm::TflmArena& arena, const std::string& budget_text = "");
// The short summary `arena --target tflm` prints.
std::string TflmArenaText(const std::string& model_path, const tflm::TflmArena& arena);
// The "tflm" object of the JSON report (docs/report-json.md).
nlohmann::ordered_json TflmJson(const tflm::TflmArena& arena);
// The resolver declaration, ready to paste.
std::string OpResolverCode(const tflm::TflmArena& arena);

// report --target: every model, as text, Markdown or JSON. With `arena_budget`, also whether
// each model's recommended kTensorArenaSize fits it and by how much; exits 1 (CommandError with
// no message, after the output) when one does not.
void RunTflmReport(const std::vector<std::string>& models, const tflm::Build& build,
                   std::optional<uint64_t> arena_budget, OutputFormat format);
// arena --target: one model, with the same budget verdict.
void RunTflmArena(const std::string& model, const tflm::Build& build,
                  std::optional<uint64_t> arena_budget, OutputFormat format);

// diff --target: the head, tail, allocator objects, arena_used_bytes and recommended
// kTensorArenaSize of two models under one build, and the resolver ops added or removed.
void RunTflmDiff(const std::string& old_model, const std::string& new_model,
                 const tflm::Build& build, OutputFormat format);

}  // namespace tfa::cli

#endif  // CLI_TFLM_REPORT_H_
