#include "cli/diff_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/common_flags.h"
#include "cli/delegate_args.h"
#include "cli/kernel_build_args.h"
#include "cli/model_diff.h"
#include "cli/terminal.h"
#include "cli/tflm_report.h"
#include "cli/tflm_target_args.h"
#include "libanalysis/core/byte_units.h"
#include "libanalysis/core/parallel_map.h"
#include "libanalysis/report/cpu_nodes.h"

namespace tfa::cli {
namespace {

struct DiffArgs {
  std::string old_model;
  std::string new_model;  // empty: the old model again, under --new-delegate
  DelegateArgs delegates;
  DelegateArgs new_delegates;    // the new side's setup, when it differs
  KernelBuildArgs kernel_build;  // both sides
  TflmTargetArgs tflm_target;    // both sides
  CommonFlags common;
};

struct FigureRow {
  const char* name;
  uint64_t before;
  uint64_t after;
  bool bytes;
};

std::vector<FigureRow> FigureRows(const ModelDiff& d) {
  return {
      {"nodes", d.before.nodes, d.after.nodes, false},
      {"partitions", d.before.partitions, d.after.partitions, false},
      {"delegated partitions", d.before.delegated_partitions, d.after.delegated_partitions, false},
      {"bytes/inference", d.before.copy_bytes, d.after.copy_bytes, true},
      {"uploaded once", d.before.uploaded_once_bytes, d.after.uploaded_once_bytes, true},
      {"arena", d.before.arena_bytes, d.after.arena_bytes, true},
      {"persistent arena", d.before.persistent_bytes, d.after.persistent_bytes, true}};
}

std::string Signed(uint64_t before, uint64_t after) {
  return fmt::format("{:+}", static_cast<int64_t>(after) - static_cast<int64_t>(before));
}

std::string PartitionText(const PartitionLine& p) {
  return fmt::format("{} {}..{} ({} node{})", p.kind, p.first_node, p.last_node, p.nodes,
                     p.nodes == 1 ? "" : "s");
}

// One partition per line: a model split in 60 partitions stays readable.
std::string PartitionLines(const std::vector<PartitionLine>& lines, const std::string& indent) {
  if (lines.empty()) return indent + "none\n";
  std::string out;
  for (const PartitionLine& p : lines) out += indent + PartitionText(p) + "\n";
  return out;
}

std::string TypeAndShape(const std::string& type, const std::vector<int32_t>& shape) {
  return fmt::format("{} [{}]", type, fmt::join(shape, ","));
}

// `input 0 "x": float32 [1,32,32,1] -> int8 [1,64,64,1]`, or `output 1 "y": removed (float32 [2])`.
std::string IoLine(const IoChange& c) {
  const std::string& name = c.in_after ? c.name_after : c.name_before;
  std::string out = fmt::format("{} {} \"{}\": ", c.input ? "input" : "output", c.position, name);
  if (!c.in_after) return out + "removed (" + TypeAndShape(c.type_before, c.shape_before) + ")";
  if (!c.in_before) return out + "added (" + TypeAndShape(c.type_after, c.shape_after) + ")";
  out += TypeAndShape(c.type_before, c.shape_before) + " -> " +
         TypeAndShape(c.type_after, c.shape_after);
  if (c.name_before != c.name_after) out += fmt::format(" (was \"{}\")", c.name_before);
  return out;
}

// `MIRROR_PAD 0 -> 2: #14..15 (reason)`: an op whose nodes on the CPU changed in number.
std::string FallbackLine(const FallbackChange& f) {
  std::string out = fmt::format("{:<24} {:>4} -> {:<4}", f.op, f.before, f.after);
  if (f.nodes_after.empty()) return out + " no longer on the CPU";
  return out + fmt::format(" {}: {}", AbbreviatedNodeList(f.nodes_after, 5),
                           fmt::join(f.reasons_after, "; "));
}

bool AnyDelegate(const AnalysedModel& before, const AnalysedModel& after) {
  return !before.report.delegates.empty() || !after.report.delegates.empty();
}

std::string ExplanationHeading(const ModelDiff& d) {
  const int64_t change =
      static_cast<int64_t>(d.after.arena_bytes) - static_cast<int64_t>(d.before.arena_bytes);
  if (d.arena_grew) {
    return fmt::format(
        "arena grew by {} B: tensors live at the new peak (step {}) that are new or larger", change,
        d.peak_step);
  }
  return fmt::format(
      "arena shrank by {} B: tensors live at the old peak (step {}) that are gone or smaller",
      -change, d.peak_step);
}

// "moved to edgetpu: 8 nodes (CONV_2D x2, ...) replaced by node 1 edgetpu-custom-op (...)".
std::string AcceleratorMoveText(const AcceleratorMove& move) {
  std::string ops;
  for (const OpCountChange& op : move.ops_moved) {
    const int64_t moved = op.before - op.after;
    ops += fmt::format("{}{}{}", ops.empty() ? "" : ", ", op.op,
                       moved > 1 ? fmt::format(" x{}", moved) : "");
  }
  std::string out;
  for (const AcceleratorSegment& segment : move.segments) {
    out += fmt::format(
        "moved to {}: {} node{} ({}) replaced by node {} {} (program {}; {} in, {} out per "
        "inference); {} CPU node{} remain\n",
        segment.accelerator, move.nodes_moved, move.nodes_moved == 1 ? "" : "s", ops, segment.node,
        segment.op, HumanBytes(segment.program_bytes), HumanBytes(segment.bytes_in),
        HumanBytes(segment.bytes_out), move.cpu_nodes_after, move.cpu_nodes_after == 1 ? "" : "s");
  }
  return out;
}

std::string DiffText(const ModelDiff& d, const std::string& title, bool delegated,
                     const Style& style) {
  std::string out = style.Bold(title) + "\n\ninputs and outputs:\n";
  if (d.io.empty()) out += "  (same types and shapes)\n";
  for (const IoChange& c : d.io) out += "  " + style.Red(IoLine(c)) + "\n";
  out += "\nops:\n";
  if (d.ops.empty()) out += "  (same op histogram)\n";
  for (const OpCountChange& op : d.ops) {
    const std::string what = op.before == 0  ? "added"
                             : op.after == 0 ? "removed"
                                             : fmt::format("{:+}", op.after - op.before);
    const std::string line =
        fmt::format("  {} {:<32} {:>4} -> {:<4} {}", op.after > op.before ? '+' : '-', op.op,
                    op.before, op.after, what);
    out += (op.after > op.before ? style.Green(line) : style.Red(line)) + "\n";
  }
  if (delegated) {
    out += "\nCPU fallbacks:\n";
    if (d.fallbacks.empty()) out += "  (the same ops, as many nodes each)\n";
    for (const FallbackChange& f : d.fallbacks) {
      const std::string line =
          fmt::format("  {} {}", f.after > f.before ? '+' : '-', FallbackLine(f));
      out += (f.after > f.before ? style.Red(line) : style.Green(line)) + "\n";
    }
  }
  out +=
      fmt::format("\npartitions: {} -> {} ({} -> {} delegated)\n", d.before.partitions,
                  d.after.partitions, d.before.delegated_partitions, d.after.delegated_partitions);
  out += "  before:\n" + PartitionLines(d.partitions_before, "    ");
  out += "  after:\n" + PartitionLines(d.partitions_after, "    ");
  if (d.accelerator_move) out += "\n" + AcceleratorMoveText(*d.accelerator_move);
  out += fmt::format("\n  {:<22} {:>14} {:>14} {:>12}\n", "figure", "before", "after", "delta");
  for (const FigureRow& r : FigureRows(d)) {
    out += fmt::format("  {:<22} {:>14} {:>14} {:>12}{}\n", r.name, r.before, r.after,
                       Signed(r.before, r.after),
                       r.bytes && r.before != r.after
                           ? "  (" + HumanBytes(r.before) + " -> " + HumanBytes(r.after) + ")"
                           : "");
  }
  if (d.before.arena_bytes == d.after.arena_bytes) return out;
  out += "\n" + ExplanationHeading(d) + ":\n";
  if (d.arena_tensors.empty()) out += "  (none: the same tensors, living at different times)\n";
  // The largest changes explain the most; --json lists every one.
  constexpr size_t kShownTensors = 10;
  for (size_t i = 0; i < d.arena_tensors.size() && i < kShownTensors; ++i) {
    const ArenaTensorChange& t = d.arena_tensors[i];
    out += fmt::format("  {:>10} -> {:<10} {:>+10}  {}\n", t.before, t.after,
                       static_cast<int64_t>(t.after) - static_cast<int64_t>(t.before), t.name);
  }
  if (d.arena_tensors.size() > kShownTensors) {
    out += fmt::format("  ... and {} more (--json lists them all)\n",
                       d.arena_tensors.size() - kShownTensors);
  }
  return out;
}

std::string DiffMarkdown(const ModelDiff& d, const std::string& title, bool delegated) {
  std::string out = "## " + title + "\n\n";
  if (!d.io.empty()) {
    out += "Inputs and outputs:\n\n";
    for (const IoChange& c : d.io) out += "- `" + IoLine(c) + "`\n";
    out += "\n";
  }
  if (delegated && !d.fallbacks.empty()) {
    out += "| op on the CPU | before | after | nodes now | reason |\n|---|---:|---:|---|---|\n";
    for (const FallbackChange& f : d.fallbacks) {
      out += fmt::format("| {} | {} | {} | {} | {} |\n", f.op, f.before, f.after,
                         AbbreviatedNodeList(f.nodes_after, 5), fmt::join(f.reasons_after, "; "));
    }
    out += "\n";
  }
  out += "| op | before | after |\n|---|---:|---:|\n";
  for (const OpCountChange& op : d.ops)
    out += fmt::format("| {} | {} | {} |\n", op.op, op.before, op.after);
  out += "\n| figure | before | after | delta |\n|---|---:|---:|---:|\n";
  for (const FigureRow& r : FigureRows(d)) {
    out += fmt::format("| {} | {} | {} | {} |\n", r.name, r.before, r.after,
                       Signed(r.before, r.after));
  }
  out += "\nPartitions before:\n\n" + PartitionLines(d.partitions_before, "- ") +
         "\nPartitions after:\n\n" + PartitionLines(d.partitions_after, "- ");
  if (d.accelerator_move) out += "\n" + AcceleratorMoveText(*d.accelerator_move);
  if (d.before.arena_bytes == d.after.arena_bytes) return out;
  out += "\n" + ExplanationHeading(d) + ":\n\n| tensor | before | after |\n|---|---:|---:|\n";
  for (const ArenaTensorChange& t : d.arena_tensors) {
    out += fmt::format("| `{}` | {} | {} |\n", t.name, t.before, t.after);
  }
  return out;
}

std::string DiffJson(const ModelDiff& d, const std::string& old_path, const std::string& new_path,
                     const std::vector<std::string>& old_delegates,
                     const std::vector<std::string>& new_delegates) {
  using json = nlohmann::ordered_json;
  json j{{"old", old_path},
         {"new", new_path},
         {"old_delegates", old_delegates},
         {"new_delegates", new_delegates},
         {"subgraph", d.subgraph},
         {"ops", json::array()}};
  for (const OpCountChange& op : d.ops)
    j["ops"].push_back({{"op", op.op}, {"before", op.before}, {"after", op.after}});
  j["io_changes"] = json::array();
  for (const IoChange& c : d.io) {
    json jc{{"kind", c.input ? "input" : "output"}, {"position", c.position}};
    if (c.in_before) {
      jc["before"] = {{"name", c.name_before}, {"type", c.type_before}, {"shape", c.shape_before}};
    }
    if (c.in_after) {
      jc["after"] = {{"name", c.name_after}, {"type", c.type_after}, {"shape", c.shape_after}};
    }
    j["io_changes"].push_back(std::move(jc));
  }
  j["fallback_changes"] = json::array();
  for (const FallbackChange& f : d.fallbacks) {
    j["fallback_changes"].push_back({{"op", f.op},
                                     {"before", f.before},
                                     {"after", f.after},
                                     {"nodes_after", f.nodes_after},
                                     {"reasons_after", f.reasons_after}});
  }
  json figures = json::object();
  for (const FigureRow& r : FigureRows(d))
    figures[r.name] = {{"before", r.before}, {"after", r.after}};
  j["figures"] = std::move(figures);
  auto partitions = [](const std::vector<PartitionLine>& lines) {
    json a = json::array();
    for (const PartitionLine& p : lines) {
      a.push_back({{"kind", p.kind},
                   {"nodes", p.nodes},
                   {"first_node", p.first_node},
                   {"last_node", p.last_node}});
    }
    return a;
  };
  j["partitions_before"] = partitions(d.partitions_before);
  j["partitions_after"] = partitions(d.partitions_after);
  if (d.accelerator_move) {
    json moved = json::array();
    for (const OpCountChange& op : d.accelerator_move->ops_moved) {
      moved.push_back({{"op", op.op}, {"nodes", op.before - op.after}});
    }
    json segments = json::array();
    for (const AcceleratorSegment& segment : d.accelerator_move->segments) {
      segments.push_back({{"accelerator", segment.accelerator},
                          {"node", segment.node},
                          {"op", segment.op},
                          {"program_bytes", segment.program_bytes},
                          {"bytes_in", segment.bytes_in},
                          {"bytes_out", segment.bytes_out}});
    }
    j["moved_to_accelerator"] = {{"segments", std::move(segments)},
                                 {"ops", std::move(moved)},
                                 {"nodes", d.accelerator_move->nodes_moved},
                                 {"cpu_nodes_after", d.accelerator_move->cpu_nodes_after}};
  }
  j["arena_change"] = {
      {"grew", d.arena_grew}, {"peak_step", d.peak_step}, {"tensors", json::array()}};
  for (const ArenaTensorChange& t : d.arena_tensors) {
    j["arena_change"]["tensors"].push_back(
        {{"name", t.name}, {"tensor", t.tensor}, {"before", t.before}, {"after", t.after}});
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string DelegatesText(const std::vector<std::string>& delegates) {
  return delegates.empty() ? "none" : fmt::format("{}", fmt::join(delegates, " "));
}

void RunDiff(const DiffArgs& args) {
  const OutputFormat format = args.common.Format();
  if (auto tflm_build = args.tflm_target.BuildOrThrow()) {
    if (args.new_model.empty()) throw CommandError{"diff --target tflm: give a NEW model"};
    if (!args.delegates.Requests().empty() || !args.new_delegates.Requests().empty()) {
      throw CommandError{"--target tflm takes no --delegate"};
    }
    if (args.tflm_target.ArenaBudgetOrThrow()) {
      throw CommandError{"diff --target: --arena-budget is for report and arena"};
    }
    return RunTflmDiff(args.old_model, args.new_model, *tflm_build, format);
  }
  const std::vector<DelegateRequest> old_requests = args.delegates.Requests();
  std::vector<DelegateRequest> new_requests = args.new_delegates.Requests();
  const bool two_setups = !new_requests.empty();
  if (args.new_model.empty() && !two_setups) {
    throw CommandError{"diff: give a NEW model, or --new-delegate to compare two setups"};
  }
  if (!two_setups) new_requests = old_requests;
  const std::string new_model = args.new_model.empty() ? args.old_model : args.new_model;
  const std::vector<std::string> paths = {args.old_model, new_model};
  const KernelBuild build = args.kernel_build.BuildOrThrow();
  const auto analysed = ParallelMap(2, [&](size_t i) {
    return AnalyseOrThrow(paths[i], i == 0 ? old_requests : new_requests, {}, false, {}, "", build);
  });
  const int32_t subgraph = args.common.SingleSubgraph(*analysed[0].model);
  (void)args.common.SingleSubgraph(*analysed[1].model);
  const ModelDiff d = DiffModels(analysed[0], analysed[1], subgraph);
  const bool delegated = AnyDelegate(analysed[0], analysed[1]);
  const std::vector<std::string>& old_delegates = analysed[0].report.delegates;
  const std::vector<std::string>& new_delegates = analysed[1].report.delegates;
  std::string title = new_model == args.old_model
                          ? args.old_model
                          : fmt::format("{} -> {}", args.old_model, new_model);
  if (two_setups) {
    title += fmt::format("  (delegates: {} -> {})", DelegatesText(old_delegates),
                         DelegatesText(new_delegates));
  } else if (!new_delegates.empty()) {
    title += "  (delegates: " + DelegatesText(new_delegates) + ")";
  }
  title += fmt::format("  subgraph {}", subgraph);
  switch (format) {
    case OutputFormat::kJson:
      return WriteOutput("-", DiffJson(d, args.old_model, new_model, old_delegates, new_delegates));
    case OutputFormat::kMarkdown:
      return WriteOutput("-", DiffMarkdown(d, title, delegated));
    default:
      return WriteOutput("-", DiffText(d, title, delegated, Style::ForStdout()));
  }
}

}  // namespace

void AddDiffCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "diff",
      "Compare two versions of a model, or two delegate setups: ops, partitions, arena, copies");
  cmd->footer(
      "Examples:\n"
      "  tflite-analyze diff old/palm_detection.tflite new/palm_detection.tflite --delegate gpu\n"
      "  tflite-analyze diff palm_detection.tflite --delegate gpu --new-delegate xnnpack\n"
      "  tflite-analyze diff old.tflite new.tflite --target tflm-32   (TFLite Micro's arena)");
  auto args = std::make_shared<DiffArgs>();
  cmd->add_option("old", args->old_model, "The old .tflite or Graph JSON file")->required();
  cmd->add_option("new", args->new_model,
                  "The new .tflite or Graph JSON file (default: OLD, with --new-delegate)");
  args->delegates.AddTo(cmd);
  args->kernel_build.AddTo(cmd);
  args->new_delegates.AddTo(cmd, "new-");
  args->tflm_target.AddTo(cmd);
  args->common.AddTo(cmd, {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kMarkdown});
  cmd->callback([args] { RunDiff(*args); });
}

}  // namespace tfa::cli
