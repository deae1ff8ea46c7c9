#include "cli/run_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "runtime/kernels/cpu/quantized_gemm.h"

namespace tfa::cli {
namespace {

struct OpTotal {
  std::string op;
  int32_t nodes = 0;
  double microseconds = 0;
};

double TotalMicroseconds(const std::vector<runtime::NodeTiming>& timings) {
  double total = 0;
  for (const runtime::NodeTiming& t : timings) total += t.microseconds;
  return total;
}

double Share(double part, double total) { return total > 0 ? part / total : 0; }

std::string KernelOf(const runtime::NodeTiming& t, const Subgraph& graph) {
  if (t.node < 0 || static_cast<size_t>(t.node) >= graph.nodes.size()) return "";
  return QuantizedKernelKind(graph, graph.nodes[static_cast<size_t>(t.node)]);
}

// The rows a quantized CONV_2D or FULLY_CONNECTED hands its GEMM: output pixels, or batch rows.
int64_t GemmRows(const Subgraph& graph, const Node& node) {
  if (node.outputs.empty() || node.outputs[0] < 0) return 0;
  const Tensor& out = graph.tensors[static_cast<size_t>(node.outputs[0])];
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < out.shape.size(); ++d) rows *= out.shape[d];
  return rows;
}

// Op types slowest first; ties by name, so the order does not depend on the map.
std::vector<OpTotal> OpTotals(const std::vector<runtime::NodeTiming>& timings) {
  std::map<std::string, OpTotal> by_op;
  for (const runtime::NodeTiming& t : timings) {
    OpTotal& total = by_op[t.op];
    total.op = t.op;
    ++total.nodes;
    total.microseconds += t.microseconds;
  }
  std::vector<OpTotal> totals;
  for (auto& [op, total] : by_op) totals.push_back(total);
  std::stable_sort(totals.begin(), totals.end(), [](const OpTotal& a, const OpTotal& b) {
    return a.microseconds > b.microseconds;
  });
  return totals;
}

}  // namespace

std::string QuantizedKernelKind(const Subgraph& graph, const Node& node) {
  if (node.kind != NodeKind::kBuiltin || node.inputs.empty() || node.inputs[0] < 0) return "";
  const TensorType type = graph.tensors[static_cast<size_t>(node.inputs[0])].type;
  if (type != TensorType::kInt8 && type != TensorType::kUInt8) return "";
  if (node.op == "CONV_2D" || node.op == "FULLY_CONNECTED") {
    return GemmRows(graph, node) >= runtime::kMinQuantizedGemmRows ? "gemmlowp" : "vectorised loop";
  }
  // The basic LSTM's uint8 product: gemmlowp from 4 batch rows, its reference loop below.
  if (node.op == "LSTM" && node.options->lstm_basic_kernel)
    return GemmRows(graph, node) >= runtime::kMinQuantizedGemmRows ? "gemmlowp" : "reference loop";
  if (node.op == "DEPTHWISE_CONV_2D") return "vectorised loop";
  if (node.op == "LOGISTIC" || node.op == "TANH" || node.op == "ELU" || node.op == "GELU")
    return "table";
  return "reference loop";
}

std::string ProfileText(const std::vector<runtime::NodeTiming>& timings, const Subgraph& graph) {
  const double total = TotalMicroseconds(timings);
  std::vector<runtime::NodeTiming> slowest = timings;
  std::stable_sort(slowest.begin(), slowest.end(),
                   [](const runtime::NodeTiming& a, const runtime::NodeTiming& b) {
                     return a.microseconds > b.microseconds;
                   });
  std::string text =
      fmt::format("\n  profile of one Invoke: {} nodes, {:.3f} ms\n", timings.size(), total / 1000);
  text += fmt::format("  {:>6}  {:<28} {:>10} {:>7}  {}\n", "node", "op", "ms", "share",
                      "kernel (quantized nodes)");
  for (const runtime::NodeTiming& t : slowest) {
    text +=
        fmt::format("  {:>6}  {:<28} {:>10.3f} {:>6.1f}%  {}\n", t.node, t.op,
                    t.microseconds / 1000, 100 * Share(t.microseconds, total), KernelOf(t, graph));
  }
  text += fmt::format("\n  {:<28} {:>6} {:>10} {:>7}\n", "op", "nodes", "ms", "share");
  for (const OpTotal& o : OpTotals(timings)) {
    text += fmt::format("  {:<28} {:>6} {:>10.3f} {:>6.1f}%\n", o.op, o.nodes,
                        o.microseconds / 1000, 100 * Share(o.microseconds, total));
  }
  return text;
}

nlohmann::ordered_json ProfileJson(const std::vector<runtime::NodeTiming>& timings,
                                   const Subgraph& graph) {
  const double total = TotalMicroseconds(timings);
  nlohmann::ordered_json j{{"total_ms", total / 1000},
                           {"nodes", nlohmann::ordered_json::array()},
                           {"ops", nlohmann::ordered_json::array()}};
  for (const runtime::NodeTiming& t : timings) {
    j["nodes"].push_back({{"node", t.node},
                          {"op", t.op},
                          {"ms", t.microseconds / 1000},
                          {"share", Share(t.microseconds, total)}});
    const std::string kernel = KernelOf(t, graph);
    if (!kernel.empty()) j["nodes"].back()["kernel"] = kernel;
  }
  for (const OpTotal& o : OpTotals(timings)) {
    j["ops"].push_back({{"op", o.op},
                        {"nodes", o.nodes},
                        {"ms", o.microseconds / 1000},
                        {"share", Share(o.microseconds, total)}});
  }
  return j;
}

}  // namespace tfa::cli
