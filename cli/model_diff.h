// What changed between two versions of a model, as plain data for `tflite-analyze diff`: the op
// histogram, the partitioning, the figures (arena, persistent, copy bytes), and the tensors that
// explain an arena change.
//
// The explanation looks at the peak step of the larger arena: when the arena grew, the tensors
// live at the new peak that are new or larger than in the old model; when it shrank, the tensors
// live at the old peak that are gone or smaller. Tensors are matched by name (by index when
// unnamed); kernel temporaries, which have no names, by their position after the model's tensors.
// That is an explanation, not a proof: a tensor of the same size can also move the peak by living
// longer, which this does not report.
//
// Inputs and outputs are matched by position in the subgraph's lists; CPU fallbacks (nodes the
// final plan leaves on the CPU although delegates were applied, cpu_nodes.h) are compared per op,
// since node indices of two model versions need not correspond.
#ifndef CLI_MODEL_DIFF_H_
#define CLI_MODEL_DIFF_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "libanalysis/report/accelerator_segments.h"
#include "libanalysis/report/report_figures.h"

namespace tfa::cli {

struct OpCountChange {
  std::string op;
  int64_t before = 0;
  int64_t after = 0;
};

struct ArenaTensorChange {
  std::string name;
  int32_t tensor = 0;   // index in the model whose peak it is live at
  uint64_t before = 0;  // arena bytes in the old model's arena (0: not there)
  uint64_t after = 0;
};

struct PartitionLine {
  std::string kind;  // delegate name or "cpu"
  size_t nodes = 0;
  int32_t first_node = 0;
  int32_t last_node = 0;
};

// An input or output whose type or shape differs, or that one side lacks.
struct IoChange {
  bool input = true;
  size_t position = 0;
  std::string name_before = {}, name_after = {};  // empty on the side that lacks it
  std::string type_before = {}, type_after = {};
  std::vector<int32_t> shape_before = {}, shape_after = {};
  bool in_before = true, in_after = true;
};

// An op whose nodes on the CPU changed in number: the nodes and reasons on the new side.
struct FallbackChange {
  std::string op;
  size_t before = 0;
  size_t after = 0;
  std::vector<int32_t> nodes_after = {};        // ascending
  std::vector<std::string> reasons_after = {};  // distinct, in node order
};

// What moved onto an accelerator: the new model runs accelerator custom ops the old one does
// not have (edgetpu_compiler's output beside its input), and the ops gone from the new model are
// the ones they took over.
struct AcceleratorMove {
  std::vector<AcceleratorSegment> segments;  // the new model's accelerator ops
  std::vector<OpCountChange> ops_moved;      // ops with fewer nodes in the new model, by name
  int64_t nodes_moved = 0;                   // their node count
  size_t cpu_nodes_after = 0;                // the new model's CPU remainder
};

struct ModelDiff {
  int32_t subgraph = 0;
  std::vector<OpCountChange> ops;         // ops whose count changed, by name
  std::vector<IoChange> io;               // inputs first, then outputs, by position
  std::vector<FallbackChange> fallbacks;  // ops whose CPU fallbacks changed, by name
  ReportFigures before;
  ReportFigures after;
  std::vector<PartitionLine> partitions_before;
  std::vector<PartitionLine> partitions_after;
  bool arena_grew = false;
  int32_t peak_step = 0;                         // of the model the explanation is taken from
  std::vector<ArenaTensorChange> arena_tensors;  // largest change first
  std::optional<AcceleratorMove> accelerator_move;
};

// Both reports must come from the same delegate configuration; `subgraph` must exist in both.
ModelDiff DiffModels(const AnalysedModel& before, const AnalysedModel& after, int32_t subgraph);

}  // namespace tfa::cli

#endif  // CLI_MODEL_DIFF_H_
