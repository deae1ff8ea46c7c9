#include "libanalysis/tflm/offline_plan_proposal.h"

#include <algorithm>

#include "libanalysis/arena/alternative_planners.h"
#include "libanalysis/tflm/micro_allocator_replay.h"

namespace tfa::tflm {

Result<OfflinePlanProposal> ProposeOfflinePlan(const Model& model, const Build& build) {
  if (model.subgraphs.size() > 1) {
    return Status::Error(model.path + ": " + std::to_string(model.subgraphs.size()) +
                         " subgraphs; TFLite Micro reads every subgraph's offsets from the start "
                         "of the plan, so an offline plan cannot place more than one");
  }
  auto greedy = ReplayMicroAllocator(model, build, nullptr);
  if (!greedy.ok()) return greedy.status();
  OfflinePlanProposal proposal;
  proposal.greedy_head = greedy->head;

  // Allocation scopes start at -1 (never marked); steps start at 0.
  std::vector<ArenaBlock> blocks;
  int32_t num_steps = 1;
  for (const HeadBuffer& buffer : greedy->head_buffers) {
    ArenaBlock block;
    block.tensor = buffer.tensor;
    block.size = buffer.size;
    block.offset = buffer.offset;  // TFLM's placement: the optimal planner's "tflite" candidate
    block.first_step = buffer.first_used + 1;
    block.last_step = std::max(buffer.first_used, buffer.last_used) + 1;
    num_steps = std::max(num_steps, block.last_step + 1);
    blocks.push_back(block);
  }
  AlternativePlannerOptions options;
  options.alignment = kArenaAlignment;
  auto optimal = PlanWith(PlannerKind::kOptimal, blocks, num_steps, options);
  if (!optimal.ok()) return optimal.status().WithContext(model.path);
  proposal.optimal_size = optimal->arena_size;
  proposal.optimal_proven = optimal->optimal;

  const size_t tensors = model.subgraphs.empty() ? 0 : model.subgraphs[0].tensors.size();
  proposal.plan.offsets.assign(tensors, kOnlinePlannedOffset);
  for (size_t i = 0; i < greedy->head_buffers.size(); ++i) {
    const int32_t tensor = greedy->head_buffers[i].tensor;
    if (tensor < 0) continue;  // a scratch buffer: TFLM plans it online
    if (optimal->blocks[i].offset > static_cast<uint64_t>(INT32_MAX)) {
      return Status::Error(model.path + ": an offset past 2 GiB does not fit the plan's int32");
    }
    proposal.plan.offsets[static_cast<size_t>(tensor)] =
        static_cast<int32_t>(optimal->blocks[i].offset);
    ++proposal.fixed_tensors;
  }
  auto planned = ReplayMicroAllocator(model, build, &proposal.plan);
  if (!planned.ok()) return planned.status();
  proposal.planned_head = planned->head;
  return proposal;
}

}  // namespace tfa::tflm
