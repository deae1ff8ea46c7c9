#include "cli/diff_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/common_flags.h"
#include "cli/delegate_args.h"
#include "cli/model_diff.h"
#include "cli/parallel_map.h"
#include "cli/report_text.h"
#include "cli/terminal.h"

namespace tfa::cli {
namespace {

struct DiffArgs {
  std::string old_model;
  std::string new_model;
  DelegateArgs delegates;
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
      {"arena", d.before.arena_bytes, d.after.arena_bytes, true},
      {"persistent arena", d.before.persistent_bytes, d.after.persistent_bytes, true}};
}

std::string Signed(uint64_t before, uint64_t after) {
  return fmt::format("{:+}", static_cast<int64_t>(after) - static_cast<int64_t>(before));
}

std::string PartitionList(const std::vector<PartitionLine>& lines) {
  std::string out;
  for (const PartitionLine& p : lines) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}..{} ({} node{})", p.kind, p.first_node, p.last_node, p.nodes,
                       p.nodes == 1 ? "" : "s");
  }
  return out.empty() ? "none" : out;
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

std::string DiffText(const ModelDiff& d, const std::string& title, const Style& style) {
  std::string out = style.Bold(title) + "\n\nops:\n";
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
  out +=
      fmt::format("\npartitions: {} -> {} ({} -> {} delegated)\n", d.before.partitions,
                  d.after.partitions, d.before.delegated_partitions, d.after.delegated_partitions);
  out += "  before: " + PartitionList(d.partitions_before) + "\n";
  out += "  after:  " + PartitionList(d.partitions_after) + "\n";
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
  for (const ArenaTensorChange& t : d.arena_tensors) {
    out += fmt::format("  {:>10} -> {:<10} {:>+10}  {}\n", t.before, t.after,
                       static_cast<int64_t>(t.after) - static_cast<int64_t>(t.before), t.name);
  }
  return out;
}

std::string DiffMarkdown(const ModelDiff& d, const std::string& title) {
  std::string out = "## " + title + "\n\n| op | before | after |\n|---|---:|---:|\n";
  for (const OpCountChange& op : d.ops)
    out += fmt::format("| {} | {} | {} |\n", op.op, op.before, op.after);
  out += "\n| figure | before | after | delta |\n|---|---:|---:|---:|\n";
  for (const FigureRow& r : FigureRows(d)) {
    out += fmt::format("| {} | {} | {} | {} |\n", r.name, r.before, r.after,
                       Signed(r.before, r.after));
  }
  out += "\nPartitions before: " + PartitionList(d.partitions_before) +
         "  \nPartitions after: " + PartitionList(d.partitions_after) + "\n";
  if (d.before.arena_bytes == d.after.arena_bytes) return out;
  out += "\n" + ExplanationHeading(d) + ":\n\n| tensor | before | after |\n|---|---:|---:|\n";
  for (const ArenaTensorChange& t : d.arena_tensors) {
    out += fmt::format("| `{}` | {} | {} |\n", t.name, t.before, t.after);
  }
  return out;
}

std::string DiffJson(const ModelDiff& d, const std::string& old_path, const std::string& new_path) {
  using json = nlohmann::ordered_json;
  json j{{"old", old_path}, {"new", new_path}, {"subgraph", d.subgraph}, {"ops", json::array()}};
  for (const OpCountChange& op : d.ops)
    j["ops"].push_back({{"op", op.op}, {"before", op.before}, {"after", op.after}});
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
  j["arena_change"] = {
      {"grew", d.arena_grew}, {"peak_step", d.peak_step}, {"tensors", json::array()}};
  for (const ArenaTensorChange& t : d.arena_tensors) {
    j["arena_change"]["tensors"].push_back(
        {{"name", t.name}, {"tensor", t.tensor}, {"before", t.before}, {"after", t.after}});
  }
  return j.dump(2);
}

void RunDiff(const DiffArgs& args) {
  const OutputFormat format = args.common.Format();
  const std::vector<DelegateRequest> requests = args.delegates.Requests();
  const std::vector<std::string> paths = {args.old_model, args.new_model};
  const auto analysed =
      ParallelMap(2, [&](size_t i) { return AnalyseOrThrow(paths[i], requests); });
  const int32_t subgraph = args.common.SingleSubgraph(analysed[0].model);
  (void)args.common.SingleSubgraph(analysed[1].model);
  const ModelDiff d = DiffModels(analysed[0], analysed[1], subgraph);
  std::string title = fmt::format("{} -> {}", args.old_model, args.new_model);
  if (!analysed[1].report.delegates.empty()) {
    title += fmt::format("  (delegates: {})", fmt::join(analysed[1].report.delegates, " "));
  }
  title += fmt::format("  subgraph {}", subgraph);
  switch (format) {
    case OutputFormat::kJson:
      return WriteOutput("-", DiffJson(d, args.old_model, args.new_model));
    case OutputFormat::kMarkdown:
      return WriteOutput("-", DiffMarkdown(d, title));
    default:
      return WriteOutput("-", DiffText(d, title, Style::ForStdout()));
  }
}

}  // namespace

void AddDiffCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "diff", "Compare two versions of a model: ops, partitions, arena, copy bytes");
  cmd->footer(
      "Example:\n"
      "  tflite-analyze diff old/palm_detection.tflite new/palm_detection.tflite --delegate gpu");
  auto args = std::make_shared<DiffArgs>();
  cmd->add_option("old", args->old_model, "The old .tflite or Graph JSON file")->required();
  cmd->add_option("new", args->new_model, "The new .tflite or Graph JSON file")->required();
  args->delegates.AddTo(cmd);
  args->common.AddTo(cmd, {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kMarkdown});
  cmd->callback([args] { RunDiff(*args); });
}

}  // namespace tfa::cli
