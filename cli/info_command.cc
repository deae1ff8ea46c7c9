#include "cli/info_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "cli/command.h"
#include "cli/report_text.h"
#include "libanalysis/report/model_summary.h"

namespace tfa::cli {
namespace {

std::string ShapeText(const TensorSummary& t) {
  std::vector<std::string> dims;
  const auto& shape = t.shape_signature.empty() ? t.shape : t.shape_signature;
  for (int32_t d : shape) dims.push_back(d < 0 ? "?" : std::to_string(d));
  return fmt::format("[{}]", fmt::join(dims, ","));
}

// " q(scale 0.0039, zp -128)" for a per-tensor quantized tensor, " q(per-channel, 32 scales)".
std::string QuantizationText(const TensorSummary& t) {
  if (t.scale.empty()) return "";
  if (t.scale.size() > 1) return fmt::format("  q(per-channel, {} scales)", t.scale.size());
  return fmt::format("  q(scale {:g}, zp {})", t.scale[0],
                     t.zero_point.empty() ? 0 : t.zero_point[0]);
}

std::string SummaryText(const ModelSummary& m) {
  std::string out =
      fmt::format("{} ({}, schema {}): {} subgraph{}, {} bytes of constants{}\n", m.model, m.format,
                  m.schema_version, m.subgraphs.size(), m.subgraphs.size() == 1 ? "" : "s",
                  m.constant_bytes, m.has_sparse_tensors ? ", sparse tensors" : "");
  if (!m.description.empty()) out += fmt::format("  description: {}\n", m.description);
  if (!m.signature_keys.empty())
    out += fmt::format("  signatures: {}\n", fmt::join(m.signature_keys, ", "));
  if (!m.metadata_names.empty())
    out += fmt::format("  metadata: {}\n", fmt::join(m.metadata_names, ", "));
  out += RuntimeVersionText(m.runtime_version, "  ");
  for (const SubgraphSummary& s : m.subgraphs) {
    out += fmt::format("\nsubgraph {}{}: {} nodes, {} tensors, {} constant bytes\n", s.index,
                       s.name.empty() ? "" : " \"" + s.name + "\"", s.nodes, s.tensors,
                       s.constant_bytes);
    for (const auto& t : s.inputs) {
      out += fmt::format("  input  {:>4} {:<10} {:<20} {}{}\n", t.index, t.type, ShapeText(t),
                         t.name, QuantizationText(t));
    }
    for (const auto& t : s.outputs) {
      out += fmt::format("  output {:>4} {:<10} {:<20} {}{}\n", t.index, t.type, ShapeText(t),
                         t.name, QuantizationText(t));
    }
    for (const auto& b : s.blockwise_tensors) {
      out += fmt::format(
          "  blockwise {:>4} {:<7} [{}] blocks of {} along dimension {}, scales in tensor {}, zero "
          "points {}  {}\n",
          b.index, b.type, fmt::join(b.shape, ","), b.block_size, b.quantized_dimension, b.scales,
          b.zero_points < 0 ? "0" : "in tensor " + std::to_string(b.zero_points), b.name);
    }
    std::vector<std::pair<std::string, size_t>> ops(s.op_histogram.begin(), s.op_histogram.end());
    std::stable_sort(ops.begin(), ops.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    out += "  ops:\n";
    for (const auto& [op, count] : ops) out += fmt::format("    {:>5}  {}\n", count, op);
  }
  return out;
}

}  // namespace

void AddInfoCommand(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("info", "Summarize a model: subgraphs, op histogram, inputs and outputs");
  cmd->footer(
      "Example:\n  tflite-analyze info "
      "corpus/models/face_detection__face_detection_short_range.tflite --json");
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  cmd->add_option("model", *path, ".tflite or Graph JSON file")->required();
  cmd->add_flag("--json", *json, "Print JSON instead of text");
  cmd->callback([path, json] {
    const Model model = LoadModelOrThrow(*path);
    const ModelSummary summary = SummarizeModel(model);
    WriteOutput("-", *json ? ModelSummaryToJson(summary) : SummaryText(summary));
  });
}

}  // namespace tfa::cli
