#include "libanalysis/report/accelerator_segments.h"

#include "libanalysis/core/checked_math.h"

namespace tfa {
namespace {

struct AcceleratorCustomOp {
  std::string_view custom_code;
  std::string_view accelerator;
};

// edgetpu::kCustomOp (google-coral/libedgetpu tflite/public/edgetpu.h).
constexpr AcceleratorCustomOp kAcceleratorCustomOps[] = {{"edgetpu-custom-op", "edgetpu"}};

uint64_t SumBytes(const Subgraph& graph, const std::vector<int32_t>& tensors) {
  uint64_t total = 0;
  for (int32_t t : tensors) {
    total = CheckedAdd(total, graph.tensors[static_cast<size_t>(t)].bytes_or_zero())
                .value_or(UINT64_MAX);
  }
  return total;
}

AcceleratorSegment Segment(const Subgraph& graph, int32_t n, std::string_view accelerator) {
  const Node& node = graph.nodes[static_cast<size_t>(n)];
  AcceleratorSegment segment;
  segment.accelerator = accelerator;
  segment.node = n;
  segment.op = node.op;
  segment.program_bytes = node.options->custom_options_size;
  for (int32_t t : node.inputs) {
    if (t >= 0 && !graph.tensors[static_cast<size_t>(t)].is_constant()) {
      segment.inputs.push_back(t);
    }
  }
  for (int32_t t : node.outputs) {
    if (t >= 0) segment.outputs.push_back(t);
  }
  segment.bytes_in = SumBytes(graph, segment.inputs);
  segment.bytes_out = SumBytes(graph, segment.outputs);
  return segment;
}

}  // namespace

std::string_view AcceleratorOfCustomOp(std::string_view custom_code) {
  for (const AcceleratorCustomOp& op : kAcceleratorCustomOps) {
    if (op.custom_code == custom_code) return op.accelerator;
  }
  return {};
}

std::optional<AcceleratorReport> FindAcceleratorSegments(const Subgraph& graph) {
  AcceleratorReport report;
  for (int32_t n : graph.execution_plan) {
    const Node& node = graph.nodes[static_cast<size_t>(n)];
    const std::string_view accelerator =
        node.kind == NodeKind::kCustom ? AcceleratorOfCustomOp(node.op) : std::string_view();
    if (accelerator.empty()) {
      if (node.kind != NodeKind::kDelegateKernel) report.cpu_nodes.push_back(n);
      continue;
    }
    report.segments.push_back(Segment(graph, n, accelerator));
  }
  if (report.segments.empty()) return std::nullopt;
  report.unknowns = {
      "the chip's own parameter caching: the compiled program decides which weights stay in its "
      "on-chip memory and which stream in on every inference (the custom options are opaque here)",
      "the time the chip takes, and the transfer's own overhead (USB or PCIe)"};
  return report;
}

}  // namespace tfa
