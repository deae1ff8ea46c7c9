// The CI gate as plain data: a baseline of recorded figures (several models x several delegate
// configurations in one JSON file, docs/ci-gating.md), its parser, and the comparison of newly
// measured figures with it under thresholds. Nothing here prints; gate_command.cc and
// gate_output.cc turn a GateResult into text, JUnit XML or GitHub annotations.
//
// A model is found in the baseline by its file name; its sha256 is recorded too, so a model that
// was renamed (same bytes, a name the baseline does not know) is caught instead of silently
// becoming a new, unchecked entry.
#ifndef LIBANALYSIS_GATE_BASELINE_GATE_H_
#define LIBANALYSIS_GATE_BASELINE_GATE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/report/report_builder.h"
#include "libanalysis/report/report_figures.h"

namespace tfa {

inline constexpr const char* kBaselineFormat = "tflite-analyze-baseline/1";

// The figures a baseline records for one model x configuration.
struct GatedFigures {
  uint64_t arena_bytes = 0;
  uint64_t persistent_bytes = 0;
  uint64_t delegated_partitions = 0;
  uint64_t copy_bytes = 0;
  // The oldest TFLite runtime that can run the model (Report::runtime_version); empty when not
  // recorded (baselines written before it existed) or unknown. It may not rise.
  std::string min_runtime_version = {};
  // Nodes each delegate runs, by delegate name, and the nodes the final plan leaves on the CPU
  // although delegates were applied (a fallback), by op; over every subgraph. Both are empty
  // maps for the CPU-only plan and absent in baselines recorded before they were gated.
  std::optional<std::map<std::string, uint64_t>> delegated_nodes = {};
  std::optional<std::map<std::string, uint64_t>> cpu_fallback_nodes = {};

  bool operator==(const GatedFigures&) const = default;
};

// Node labels by op: "#12" for subgraph 0's node 12, "subgraph 1 #3" for another subgraph's.
using NodesByOp = std::map<std::string, std::vector<std::string>>;

// The gated figures of `report`, made from `model`'s plan (its node ops name the fallbacks).
GatedFigures GatedFiguresOf(const Report& report, const Model& model);
// The nodes GatedFigures::cpu_fallback_nodes counts, by op.
NodesByOp CpuFallbackNodesOf(const Report& report, const Model& model);

struct BaselineConfig {
  std::vector<DelegateRequest> delegates;  // empty: the CPU-only plan
  GatedFigures figures;
  // "tflm", "tflm-32" or "tflm-cmsis-nn [--cpu CORE]" (tflm/gated_build_name.h): TFLite Micro's
  // arena (arena_bytes: arena_used_bytes, persistent_bytes: the tail) instead of TFLite's; then
  // `delegates` is empty. Empty: TFLite.
  std::string target = {};
};

struct BaselineModel {
  std::string file;    // file name without directories
  std::string sha256;  // lower-case hex of the file's bytes
  std::vector<BaselineConfig> configs;
};

struct Baseline {
  std::vector<BaselineModel> models;
};

// Refuses anything but a well-formed baseline (format tag, types, non-negative integers, no
// duplicate model or configuration, nesting at most a few levels deep) with one line naming
// `source` and the offending field: "b.json: models[1].configs[0].arena_bytes: expected ...".
[[nodiscard]] Result<Baseline> ParseBaseline(std::string_view text, const std::string& source);

// Pretty-printed, models sorted by file name, configurations by ConfigName, so re-recording an
// unchanged baseline gives an identical file (clean diffs in version control).
std::string BaselineToJson(const Baseline& baseline);

// How a configuration reads on the command line: "--delegate gpu --max-partitions 2", or
// "cpu only" for no delegate.
std::string ConfigName(const std::vector<DelegateRequest>& delegates);
// "--target tflm" for a TFLite Micro configuration, else ConfigName(delegates).
std::string ConfigName(const std::vector<DelegateRequest>& delegates, const std::string& target);
bool SameConfig(const std::vector<DelegateRequest>& a, const std::vector<DelegateRequest>& b);

// What a figure may move by: a share of its baseline value ("2%") or a byte count ("4096").
struct Tolerance {
  double percent = 0;
  uint64_t absolute = 0;
  bool is_percent = true;

  uint64_t AllowedChange(uint64_t baseline) const;
  std::string ToString() const;  // "2%", "4096"
};

// "2%", "0.5%", "4096"; an error names the flag.
[[nodiscard]] Result<Tolerance> ParseTolerance(const std::string& text, const std::string& flag);

struct GateOptions {
  Tolerance arena_growth;
  Tolerance persistent_growth;
  Tolerance copy_bytes_growth;
  // When set, the delegated partition count may be anything up to this, instead of not growing.
  std::optional<uint64_t> max_delegated_partitions;
  // Nodes each op may add to the CPU fallbacks, and nodes each delegate may lose.
  uint64_t allowed_new_fallbacks = 0;
  uint64_t allowed_delegated_nodes_drop = 0;
  // Also fail when a figure improved by more than its tolerance: the baseline is stale and should
  // be re-recorded so the improvement is locked in (TFLite Micro's arena threshold tests do this).
  bool fail_on_shrink = false;
};

// One model measured under one configuration.
struct Measurement {
  std::string path;  // as given on the command line
  std::string file;  // file name
  std::string sha256;
  std::vector<DelegateRequest> delegates;
  GatedFigures figures;
  std::string target = {};                // as BaselineConfig::target
  NodesByOp cpu_fallback_node_list = {};  // the nodes behind figures.cpu_fallback_nodes
};

struct FigureCheck {
  // kGrew: worse than the baseline beyond the limit (for delegated_nodes[...] that is fewer
  // nodes); kShrank: better beyond the limit, with GateOptions::fail_on_shrink.
  enum class Verdict { kPass, kGrew, kShrank };
  std::string figure;  // "arena_bytes", "delegated_nodes[gpu]", "cpu_fallback_nodes[CEIL]", ...
  uint64_t before = 0;
  uint64_t after = 0;
  std::string limit;  // what was allowed, in words: "+2%", "<= 3"
  Verdict verdict = Verdict::kPass;
  // A figure that is no number (min_runtime_version): its values as text; `before` and `after`
  // are then 0.
  std::string before_text = {}, after_text = {};
  // cpu_fallback_nodes[OP]: the nodes of that op now on the CPU.
  std::vector<std::string> nodes = {};

  int64_t delta() const { return static_cast<int64_t>(after) - static_cast<int64_t>(before); }
};

struct ConfigCheck {
  std::string path;
  std::string file;
  std::string config;  // ConfigName
  // Set when the model cannot be compared: not in the baseline, renamed, configuration missing.
  std::string problem;
  std::vector<FigureCheck> figures;
  // Figures the baseline entry lacks (recorded before they were gated): not checked until the
  // baseline is re-recorded.
  std::vector<std::string> not_checked = {};

  bool passed() const;
};

struct GateResult {
  std::vector<ConfigCheck> checks;
  bool passed() const;
  size_t failures() const;  // failed figures and problems
  size_t total() const;     // figures and problems
};

GateResult CompareWithBaseline(const Baseline& baseline,
                               const std::vector<Measurement>& measurements,
                               const GateOptions& options);

// The TFLite configurations recorded for `file` (empty when the model is not in the baseline).
std::vector<std::vector<DelegateRequest>> RecordedConfigs(const Baseline& baseline,
                                                          const std::string& file);
// The TFLite Micro targets recorded for `file`.
std::vector<std::string> RecordedTargets(const Baseline& baseline, const std::string& file);

// The baseline with every measurement recorded: a model is matched by file name (or, when renamed,
// by sha256, taking the new name), its sha256 updated, a configuration replaced or added.
Baseline MergeIntoBaseline(Baseline baseline, const std::vector<Measurement>& measurements);

}  // namespace tfa

#endif  // LIBANALYSIS_GATE_BASELINE_GATE_H_
