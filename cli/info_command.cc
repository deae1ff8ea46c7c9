#include "cli/info_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>

#include "cli/command.h"
#include "cli/report_text.h"
#include "libanalysis/core/byte_units.h"
#include "libanalysis/model/model_metadata.h"
#include "libanalysis/report/model_summary.h"

namespace tfa::cli {
namespace {

std::string ShapeText(const TensorSummary& t) {
  std::vector<std::string> dims;
  const auto& shape = t.shape_signature.empty() ? t.shape : t.shape_signature;
  for (int32_t d : shape) dims.push_back(d < 0 ? "?" : std::to_string(d));
  return fmt::format("[{}]", fmt::join(dims, ","));
}

// "-3..5", or "0" when every value is the same.
template <typename T>
std::string RangeText(const std::vector<T>& values) {
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  if (*lo == *hi) return fmt::format("{:g}", static_cast<double>(*lo));
  return fmt::format("{:g}..{:g}", static_cast<double>(*lo), static_cast<double>(*hi));
}

// "  q(scale 0.0039, zp -128)" for a per-tensor quantized tensor; per channel, the channel
// dimension, the count and the ranges: "  q(per-channel along dimension 0: 32 scales
// 0.0012..0.045, zp 0)".
std::string QuantizationText(const TensorSummary& t) {
  if (t.scale.empty()) return "";
  const std::string zero_points = t.zero_point.empty() ? "0" : RangeText(t.zero_point);
  if (t.scale.size() > 1) {
    return fmt::format("  q(per-channel along dimension {}: {} scales {}, zp {})",
                       t.quantized_dimension, t.scale.size(), RangeText(t.scale), zero_points);
  }
  return fmt::format("  q(scale {:g}, zp {})", t.scale[0], zero_points);
}

// "min_runtime_version  16 B  "1.5.0"", or "(binary)" for contents that are no short text.
std::string MetadataLine(const MetadataEntry& e) {
  return fmt::format("    {:<24} {:>10}  {}\n", e.name, HumanBytes(e.bytes),
                     e.text ? fmt::format("\"{}\"", *e.text) : std::string("(binary)"));
}

// "12:float32[1,64,64,24]", "-" for an absent optional input.
std::string TensorCell(const TensorSummary& t) {
  if (t.index < 0) return "-";
  return fmt::format("{}:{}[{}]", t.index, t.type, fmt::join(t.shape, ","));
}

std::string NodeTableText(const SubgraphSummary& s) {
  std::string out =
      fmt::format("  {:>5}  {:<24} {:>14}  inputs -> outputs\n", "node", "op", "MACs");
  uint64_t total = 0;
  for (const NodeSummary& n : s.node_table) {
    std::vector<std::string> inputs, outputs;
    for (const TensorSummary& t : n.inputs) inputs.push_back(TensorCell(t));
    for (const TensorSummary& t : n.outputs) outputs.push_back(TensorCell(t));
    out += fmt::format("  {:>5}  {:<24} {:>14}  {} -> {}\n", n.node, n.op,
                       n.macs ? std::to_string(*n.macs) : "", fmt::join(inputs, ", "),
                       fmt::join(outputs, ", "));
    total += n.macs.value_or(0);
  }
  out += fmt::format(
      "  MACs of CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, BATCH_MATMUL and "
      "TRANSPOSE_CONV: {} ({:.3g} G)\n",
      total, static_cast<double>(total) / 1e9);
  return out;
}

std::string SummaryText(const ModelSummary& m) {
  std::string out =
      fmt::format("{} ({}, schema {}): {} subgraph{}, {} bytes of constants{}\n", m.model, m.format,
                  m.schema_version, m.subgraphs.size(), m.subgraphs.size() == 1 ? "" : "s",
                  m.constant_bytes, m.has_sparse_tensors ? ", sparse tensors" : "");
  if (!m.description.empty()) out += fmt::format("  description: {}\n", m.description);
  if (!m.signature_keys.empty())
    out += fmt::format("  signatures: {}\n", fmt::join(m.signature_keys, ", "));
  if (!m.metadata.empty()) {
    out += "  metadata:\n";
    for (const MetadataEntry& e : m.metadata) out += MetadataLine(e);
  } else if (!m.metadata_names.empty()) {
    out += fmt::format("  metadata: {}\n", fmt::join(m.metadata_names, ", "));
  }
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
    if (!s.node_table.empty()) {
      out += "  nodes:\n";
      out += NodeTableText(s);
    }
  }
  return out;
}

}  // namespace

void AddInfoCommand(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("info", "Summarize a model: subgraphs, op histogram, inputs and outputs");
  cmd->footer(
      "Example:\n  tflite-analyze info "
      "corpus/models/face_detection__face_detection_short_range.tflite --json\n"
      "  tflite-analyze info model.tflite --ops   (every node, its tensors and MACs)");
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto ops = std::make_shared<bool>(false);
  cmd->add_option("model", *path, ".tflite or Graph JSON file")->required();
  cmd->add_flag("--json", *json, "Print JSON instead of text");
  cmd->add_flag("--ops", *ops,
                "Also list every node: op, input and output tensors, multiply-accumulates");
  cmd->callback([path, json, ops] {
    const Model model = LoadModelOrThrow(*path);
    ModelSummary summary = SummarizeModel(model, SummaryOptions{.node_table = *ops});
    auto metadata = ReadMetadataEntriesOfFile(*path);
    if (!metadata.ok()) throw CommandError{metadata.status().message()};
    summary.metadata = std::move(metadata).value();
    WriteOutput("-", *json ? ModelSummaryToJson(summary) : SummaryText(summary));
  });
}

}  // namespace tfa::cli
