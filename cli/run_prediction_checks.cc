#include "cli/run_prediction_checks.h"

#include <algorithm>

#include "cli/command.h"
#include "libanalysis/core/checked_math.h"
#include "libanalysis/profiles/xnnpack_rules.h"
#include "libanalysis/report/delegate_memory.h"
#include "libanalysis/report/gpu_device_memory.h"
#include "libanalysis/report/gpu_fused_memory.h"
#include "libanalysis/report/report_builder.h"
#include "libanalysis/report/xnnpack_workspace.h"
#include "runtime/after_invoke_check.h"
#include "runtime/delegates/opencl/opencl_delegate.h"
#include "runtime/delegates/xnnpack/xnnpack_delegate.h"

namespace tfa::cli {
namespace {

// The end of the highest allocation of the arena (or the persistent arena) that is no kernel
// temporary: every byte up to it is written by some node. Above it lie only temporaries, which
// upstream's kernels write only when they need them (BATCH_MATMUL's LHS copy only with adj_x, the
// hybrid kernels' persistent row sums only with asymmetric_quantize_inputs), so a run that
// measures less than the arena but at least this wrote what upstream's would.
uint64_t HighestNonTemporaryEnd(const ArenaReport& arena, bool persistent) {
  uint64_t end = 0;
  for (const ArenaAllocation& a : arena.allocs) {
    if (a.persistent != persistent || a.temporary_of) continue;
    end = std::max(end, a.offset + a.size);
  }
  return end;
}

// The `delegate` kernel node of `delegated` that replaces `nodes`, or -1.
int32_t KernelReplacing(const Subgraph& delegated, const std::string& delegate,
                        const std::vector<int32_t>& nodes) {
  for (int32_t planned : delegated.execution_plan) {
    const Node& kernel = delegated.nodes[static_cast<size_t>(planned)];
    if (kernel.kind == NodeKind::kDelegateKernel && kernel.op == delegate &&
        std::vector<int32_t>(kernel.replaces.begin(), kernel.replaces.end()) == nodes) {
      return planned;
    }
  }
  return -1;
}

}  // namespace

size_t DelegateKernelCount(const runtime::Delegate& delegate) {
  if (const auto* x = dynamic_cast<const runtime::XnnpackDelegate*>(&delegate))
    return x->partitions().size();
  if (const auto* cl = dynamic_cast<const runtime::OpenClDelegate*>(&delegate))
    return cl->transfers().size();
  return 0;
}

uint64_t PredictedDelegateBytes(const ModelPlan& plan) {
  uint64_t total = 0;
  for (const SubgraphPlan& sp : plan.subgraphs) {
    if (!sp.delegated) continue;
    for (const DelegateProfile& profile : plan.delegates) {
      uint64_t bytes = 0;
      if (profile.kernel.delegate_kernel == "gpu") {
        // What this runtime allocates: its OpenCL delegate runs the nodes unfused, so it needs
        // more than the report's figure over upstream's fused tasks.
        auto parts =
            SumGpuPartitionMemory(*sp.delegated, profile.name, GpuMemoryOptionsFor(profile), false);
        if (!parts.ok()) throw CommandError{parts.status().message()};
        bytes = CheckedAdd(
                    CheckedAdd(parts->shared_tensors, parts->staging_buffers).value_or(UINT64_MAX),
                    parts->constants)
                    .value_or(UINT64_MAX);
      } else {
        auto memory = EstimateDelegateMemory(*sp.delegated, profile, GpuMemoryOptionsFor(profile));
        if (!memory.ok()) throw CommandError{memory.status().message()};
        bytes = memory->total_bytes;
      }
      total = CheckedAdd(total, bytes).value_or(UINT64_MAX);
    }
  }
  return total;
}

std::vector<Check> PredictionChecks(const ModelPlan& plan, int32_t entry,
                                    const runtime::RunStats& stats, uint64_t delegate_kernels,
                                    const std::vector<RuntimeDelegate>& delegates,
                                    const std::vector<KernelRange>& run_kernels) {
  auto report = BuildReport(plan, TFA_VERSION);
  if (!report.ok()) throw CommandError{report.status().message()};
  const SubgraphReport& predicted = report->subgraphs.at(static_cast<size_t>(entry));
  // The entry's arena as the first Invoke leaves it where the plan replayed that Invoke (the
  // nodes after a dynamic one are placed only then), else as AllocateTensors leaves it.
  const ArenaReport& predicted_arena =
      predicted.after_invoke ? predicted.after_invoke->arena : *predicted.arena;
  std::vector<Check> checks = {
      {"delegated partitions", static_cast<uint64_t>(predicted.delegated_partition_count),
       delegate_kernels},
      {"bytes to delegates", predicted.copy.bytes_to_delegate, stats.copies.bytes_to_delegate},
      {"bytes from delegates", predicted.copy.bytes_from_delegate,
       stats.copies.bytes_from_delegate},
      {"uploaded once", predicted.copy.init_upload_bytes, stats.copies.init_upload_bytes},
      {"transitions", predicted.copy.transitions, static_cast<uint64_t>(stats.copies.transitions)},
      // The highest bytes the run really wrote, found from the memory (not the plan's end).
      {"arena", predicted_arena.size, stats.arena_bytes_written,
       HighestNonTemporaryEnd(predicted_arena, false)},
      {"persistent arena", predicted_arena.persistent_size, stats.persistent_bytes_written,
       HighestNonTemporaryEnd(predicted_arena, true)},
  };
  // Subgraphs the entry's control flow ran: whether each ran and its arena, against the
  // analyser's replay of the first Invoke.
  for (const runtime::SubgraphMemoryCheck& c : runtime::CheckAfterInvoke(plan, entry, stats)) {
    const std::string name = "subgraph " + std::to_string(c.subgraph);
    checks.push_back({name + " ran", c.predicted_invoked, c.measured_invoked});
    if (!c.predicted_invoked || !c.measured_invoked) continue;
    checks.push_back({name + " arena", c.predicted_arena, c.measured_arena});
    checks.push_back({name + " persistent", c.predicted_persistent, c.measured_persistent});
  }
  // The OpenCL delegate's device memory, against the prediction with this device's base
  // address alignment; float32, which this runtime stores at every precision. Upstream's GPU
  // delegate builds its inference context once, in the kernel's init, in every subgraph it is
  // applied to (tflite/delegates/gpu/delegate.cc), whether control flow runs that subgraph or
  // not; this runtime's kernels build theirs once too, when their subgraph is prepared at
  // creation (every subgraph the entry reaches; another signature's are not set up).
  for (size_t i = 0; i < delegates.size(); ++i) {
    const auto* opencl = dynamic_cast<const runtime::OpenClDelegate*>(delegates[i].delegate.get());
    if (!opencl) continue;
    const GpuMemoryOptions device{.float_bytes = 4,
                                  .base_alignment = opencl->device_info().base_alignment_bytes};
    // This runtime runs the GPU nodes unfused, so its plan is the unfused one (the report's is
    // upstream's fused one).
    uint64_t predicted[3] = {0, 0, 0};
    for (size_t index = 0; index < plan.subgraphs.size(); ++index) {
      const SubgraphPlan& sp = plan.subgraphs[index];
      if (!sp.delegated || !stats.subgraphs.at(index).runnable) continue;
      auto parts = SumGpuPartitionMemory(*sp.delegated, opencl->Profile().name, device, false);
      if (!parts.ok()) throw CommandError{parts.status().message()};
      predicted[0] += parts->shared_tensors;
      predicted[1] += parts->staging_buffers;
      predicted[2] += parts->constants;
    }
    uint64_t measured[3] = {0, 0, 0};
    for (size_t k = run_kernels[i].begin; k < run_kernels[i].end; ++k) {
      const runtime::DeviceTransfers* t = opencl->transfers()[k].get();
      measured[0] += t->shared_tensor_bytes;
      measured[1] += t->staging_bytes;
      measured[2] += t->constant_bytes;
    }
    checks.push_back({"gpu shared tensors", predicted[0], measured[0]});
    checks.push_back({"gpu staging buffers", predicted[1], measured[1]});
    checks.push_back({"gpu constants", predicted[2], measured[2]});
  }
  // libXNNPACK's workspace for the partitions it runs whole in one runtime, against the
  // analyser's plan of their internal values with that library's rules. Partitions with a
  // DEQUANTIZE or DENSIFY upstream runs as a node are left out: this runtime's kernel unpacks
  // every dequantization of weights once, so their outputs are static there.
  for (size_t i = 0; i < delegates.size(); ++i) {
    const auto* x = dynamic_cast<const runtime::XnnpackDelegate*>(delegates[i].delegate.get());
    if (!x) continue;
    uint64_t predicted = 0, measured = 0;
    bool compared = false;
    for (size_t k = run_kernels[i].begin; k < run_kernels[i].end; ++k) {
      const runtime::XnnpackPartitionStats& stats = *x->partitions()[k];
      if (stats.xnnpack_runtimes != 1 || !stats.cpu_nodes.empty()) continue;
      const SubgraphPlan& sp = plan.subgraphs.at(static_cast<size_t>(stats.subgraph));
      const bool runs_an_unpack =
          sp.delegated && std::any_of(stats.nodes.begin(), stats.nodes.end(), [&](int32_t index) {
            const Node& node = sp.delegated->nodes[static_cast<size_t>(index)];
            return (node.op == "DEQUANTIZE" || node.op == "DENSIFY") &&
                   !IsXnnpackStaticUnpackNode(*sp.delegated, node);
          });
      if (runs_an_unpack) continue;
      const int32_t kernel =
          sp.delegated ? KernelReplacing(*sp.delegated, x->Name(), stats.nodes) : -1;
      if (kernel < 0) continue;
      auto workspace = PlanXnnpackRuntimeWorkspace(*sp.delegated, kernel, kXnnpackDebian2022Rules);
      if (!workspace.ok()) throw CommandError{workspace.status().message()};
      predicted += workspace->workspace_bytes;
      measured += stats.workspace_bytes;
      compared = true;
    }
    if (compared) checks.push_back({"xnnpack workspace", predicted, measured});
  }
  return checks;
}

}  // namespace tfa::cli
