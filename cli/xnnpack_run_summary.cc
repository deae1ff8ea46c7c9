#include "cli/xnnpack_run_summary.h"

#include <fmt/format.h>

#include <map>
#include <utility>

#include "libanalysis/core/byte_units.h"
#include "runtime/delegates/xnnpack/xnnpack_library.h"

namespace tfa::cli {
namespace {

// "CONCATENATION x3, TANH" for the ops of the CPU nodes that share one reason.
std::string OpCounts(const std::map<std::string, int>& ops) {
  std::string text;
  for (const auto& [op, count] : ops) {
    if (!text.empty()) text += ", ";
    text += count == 1 ? op : fmt::format("{} x{}", op, count);
  }
  return text;
}

}  // namespace

XnnpackRunSummary SummarizeXnnpackRun(
    const std::string& name,
    const std::vector<std::shared_ptr<runtime::XnnpackPartitionStats>>& partitions) {
  runtime::XnnpackPartitionStats total;
  std::map<std::string, std::map<std::string, int>> ops_by_reason;
  nlohmann::ordered_json per_partition = nlohmann::ordered_json::array();
  for (const auto& p : partitions) {
    total.nodes.insert(total.nodes.end(), p->nodes.begin(), p->nodes.end());
    total.xnnpack_nodes += p->xnnpack_nodes;
    total.unpacked_nodes += p->unpacked_nodes;
    total.xnnpack_runtimes += p->xnnpack_runtimes;
    total.packed_weights_and_operators_bytes += p->packed_weights_and_operators_bytes;
    total.workspace_bytes += p->workspace_bytes;
    total.setup_bytes += p->setup_bytes;
    total.kernel_owned_bytes += p->kernel_owned_bytes;
    nlohmann::ordered_json cpu = nlohmann::ordered_json::array();
    for (const auto& c : p->cpu_nodes) {
      ++ops_by_reason[c.reason][c.op];
      cpu.push_back({{"node", c.node}, {"op", c.op}, {"reason", c.reason}});
    }
    per_partition.push_back(
        {{"subgraph", p->subgraph},
         {"nodes", p->nodes.size()},
         {"xnnpack_nodes", p->xnnpack_nodes},
         {"unpacked_nodes", p->unpacked_nodes},
         {"cpu_nodes", cpu},
         {"xnnpack_runtimes", p->xnnpack_runtimes},
         {"packed_weights_and_operators_bytes", p->packed_weights_and_operators_bytes},
         {"workspace_bytes", p->workspace_bytes},
         {"setup_bytes", p->setup_bytes},
         {"kernel_owned_bytes", p->kernel_owned_bytes}});
  }
  const size_t cpu_nodes =
      total.nodes.size() - static_cast<size_t>(total.xnnpack_nodes + total.unpacked_nodes);
  XnnpackRunSummary summary;
  std::string text =
      fmt::format("  {} runs on libXNNPACK (Debian {}): {} of {} nodes on XNNPACK in {} runtime{}",
                  name, runtime::kXnnpackLibraryVersion, total.xnnpack_nodes, total.nodes.size(),
                  total.xnnpack_runtimes, total.xnnpack_runtimes == 1 ? "" : "s");
  if (total.unpacked_nodes > 0)
    text += fmt::format(", {} DEQUANTIZE/DENSIFY of constants unpacked into weights at creation",
                        total.unpacked_nodes);
  text += fmt::format(", {} on this runtime's CPU kernels", cpu_nodes);
  for (const auto& [reason, ops] : ops_by_reason)
    text += fmt::format("\n    {}: {}", reason, OpCounts(ops));
  text += "\n";
  const uint64_t held =
      total.packed_weights_and_operators_bytes + total.workspace_bytes + total.setup_bytes;
  const uint64_t peak = [] {
    auto library = runtime::XnnpackLibrary::Get();
    return library.ok() ? (*library)->counts().peak_bytes : 0;
  }();
  text += fmt::format(
      "  libXNNPACK holds {} for it (measured with its allocator): {} packed weights and "
      "operators, {} workspace, {} added by setup; peak in this process {}; the kernels own {} "
      "(fp16 and unpacked weights as float32, tensors crossing to the CPU kernels)\n",
      HumanBytes(held), HumanBytes(total.packed_weights_and_operators_bytes),
      HumanBytes(total.workspace_bytes), HumanBytes(total.setup_bytes), HumanBytes(peak),
      HumanBytes(total.kernel_owned_bytes));
  summary.text = std::move(text);
  summary.json = {{"delegate", name},
                  {"library", std::string("libXNNPACK ") + runtime::kXnnpackLibraryVersion},
                  {"nodes", total.nodes.size()},
                  {"xnnpack_nodes", total.xnnpack_nodes},
                  {"unpacked_nodes", total.unpacked_nodes},
                  {"cpu_node_count", cpu_nodes},
                  {"xnnpack_runtimes", total.xnnpack_runtimes},
                  {"packed_weights_and_operators_bytes", total.packed_weights_and_operators_bytes},
                  {"workspace_bytes", total.workspace_bytes},
                  {"setup_bytes", total.setup_bytes},
                  {"library_bytes", held},
                  {"library_peak_bytes", peak},
                  {"kernel_owned_bytes", total.kernel_owned_bytes},
                  {"partitions", per_partition}};
  return summary;
}

}  // namespace tfa::cli
