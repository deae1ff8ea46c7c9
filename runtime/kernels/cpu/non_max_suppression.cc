#include "runtime/kernels/cpu/non_max_suppression.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <queue>
#include <string>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr size_t kBoxes = 0, kScores = 1, kMaxOutputSize = 2, kIouThreshold = 3,
                 kScoreThreshold = 4, kSigma = 5;

bool IsSoft(const KernelContext& context) { return context.inputs.size() == 6; }

Status CheckScalar(const RuntimeTensor& tensor, TensorType type, const char* role) {
  TFA_RETURN_IF_ERROR(CheckType(tensor, type, role));
  return CheckRank(tensor, 0, role);
}

// Upstream's Prepare checks; the outputs' types are the ones it sets.
Status CheckTensors(const KernelContext& context) {
  const bool soft = IsSoft(context);
  TFA_RETURN_IF_ERROR(CheckArity(context, soft ? 6 : 5, soft ? 6 : 5, soft ? 3 : 2));
  const RuntimeTensor& boxes = context.input(kBoxes);
  const RuntimeTensor& scores = context.input(kScores);
  TFA_RETURN_IF_ERROR(CheckType(boxes, TensorType::kFloat32, "boxes"));
  TFA_RETURN_IF_ERROR(CheckRank(boxes, 2, "boxes"));
  if (boxes.Dim(1) != 4)
    return Status::Error("boxes " + ShapeString(boxes.shape) + " are not [n,4]");
  TFA_RETURN_IF_ERROR(CheckType(scores, TensorType::kFloat32, "scores"));
  TFA_RETURN_IF_ERROR(CheckRank(scores, 1, "scores"));
  if (scores.Dim(0) != boxes.Dim(0)) {
    return Status::Error("scores " + ShapeString(scores.shape) + " are not one per box " +
                         ShapeString(boxes.shape));
  }
  TFA_RETURN_IF_ERROR(
      CheckScalar(context.input(kMaxOutputSize), TensorType::kInt32, "max_output_size"));
  TFA_RETURN_IF_ERROR(
      CheckScalar(context.input(kIouThreshold), TensorType::kFloat32, "iou_threshold"));
  TFA_RETURN_IF_ERROR(
      CheckScalar(context.input(kScoreThreshold), TensorType::kFloat32, "score_threshold"));
  if (soft) TFA_RETURN_IF_ERROR(CheckScalar(context.input(kSigma), TensorType::kFloat32, "sigma"));
  const size_t count = soft ? 2 : 1;
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kInt32, "selected indices"));
  if (soft) TFA_RETURN_IF_ERROR(CheckType(context.output(1), TensorType::kFloat32, "scores"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(count), TensorType::kInt32, "count"));
  return CheckOutputShape(context.output(count), {});
}

// The selected indices (and scores) have max_output_size entries.
Status CheckSelectedShapes(const KernelContext& context, int32_t max_output_size) {
  if (max_output_size < 0) {
    return Status::Error("max_output_size " + std::to_string(max_output_size) + " is negative");
  }
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), {max_output_size}));
  if (IsSoft(context)) TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(1), {max_output_size}));
  return Status::Ok();
}

// Intersection over union of boxes i and j (0 when either has no area).
float Iou(const float* boxes, int i, int j) {
  const float* a = boxes + 4 * static_cast<ptrdiff_t>(i);
  const float* b = boxes + 4 * static_cast<ptrdiff_t>(j);
  const float a_ymin = std::min(a[0], a[2]), a_ymax = std::max(a[0], a[2]);
  const float a_xmin = std::min(a[1], a[3]), a_xmax = std::max(a[1], a[3]);
  const float b_ymin = std::min(b[0], b[2]), b_ymax = std::max(b[0], b[2]);
  const float b_xmin = std::min(b[1], b[3]), b_xmax = std::max(b[1], b[3]);
  const float area_a = (a_ymax - a_ymin) * (a_xmax - a_xmin);
  const float area_b = (b_ymax - b_ymin) * (b_xmax - b_xmin);
  if (area_a <= 0.0f || area_b <= 0.0f) return 0.0f;
  const float intersection = std::max(std::min(a_ymax, b_ymax) - std::max(a_ymin, b_ymin), 0.0f) *
                             std::max(std::min(a_xmax, b_xmax) - std::max(a_xmin, b_xmin), 0.0f);
  const float union_area = area_a + area_b - intersection;
  return union_area == 0.0f ? 0.0f : intersection / union_area;
}

struct Candidate {
  int index;
  float score;
  int suppress_begin;  // the selections before this one were compared with it already
  bool operator<(const Candidate& other) const { return score < other.score; }
};

// Upstream's greedy loop, with a priority queue on a deque as upstream's, so that equal scores
// come out in upstream's order. Returns the number selected.
int SelectBoxes(const float* boxes, int num_boxes, const float* scores, int max_output_size,
                float iou_threshold, float score_threshold, float sigma, int32_t* selected,
                float* selected_scores) {
  std::priority_queue<Candidate, std::deque<Candidate>> queue;
  for (int i = 0; i < num_boxes; ++i) {
    if (scores[i] > score_threshold) queue.push(Candidate{i, scores[i], 0});
  }
  const int wanted = std::min(static_cast<int>(queue.size()), max_output_size);
  const float scale = sigma > 0.0f ? -0.5f / sigma : 0.0f;
  int count = 0;
  while (count < wanted && !queue.empty()) {
    Candidate next = queue.top();
    const float original_score = next.score;
    queue.pop();
    bool suppressed = false;
    for (int j = count - 1; j >= next.suppress_begin; --j) {
      const float iou = Iou(boxes, next.index, selected[j]);
      if (iou >= iou_threshold) {
        suppressed = true;
        break;
      }
      if (sigma > 0.0f) next.score *= std::exp(scale * iou * iou);
      if (next.score <= score_threshold) break;
    }
    next.suppress_begin = count;
    if (suppressed) continue;
    if (next.score == original_score) {
      selected[count] = next.index;
      if (selected_scores) selected_scores[count] = next.score;
      ++count;
    }
    // A decayed score still above the threshold competes again.
    if (next.score > score_threshold) queue.push(next);
  }
  return count;
}

}  // namespace

Status PrepareNonMaxSuppression(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  const RuntimeTensor& max_output_size = context.input(kMaxOutputSize);
  // Otherwise the interpreter sizes the selections at Eval, from the value then.
  if (!max_output_size.is_constant) return Status::Ok();
  return CheckSelectedShapes(context, *max_output_size.Data<const int32_t>());
}

Status EvalNonMaxSuppression(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  const bool soft = IsSoft(context);
  const int32_t max_output_size = *context.input(kMaxOutputSize).Data<const int32_t>();
  TFA_RETURN_IF_ERROR(CheckSelectedShapes(context, max_output_size));
  const float sigma = soft ? *context.input(kSigma).Data<const float>() : 0.0f;
  if (sigma < 0.0f)
    return Status::Error("soft NMS sigma " + std::to_string(sigma) + " is negative");
  int32_t* selected = context.output(0).Data<int32_t>();
  float* selected_scores = soft ? context.output(1).Data<float>() : nullptr;
  const int count = SelectBoxes(
      context.input(kBoxes).Data<const float>(), context.input(kBoxes).Dim(0),
      context.input(kScores).Data<const float>(), max_output_size,
      *context.input(kIouThreshold).Data<const float>(),
      *context.input(kScoreThreshold).Data<const float>(), sigma, selected, selected_scores);
  // Upstream zeroes the entries past the count (garbage indices would crash a GATHER after it).
  if (count < max_output_size) {
    std::fill(selected + count, selected + max_output_size, 0);
    if (selected_scores)
      std::fill(selected_scores + count, selected_scores + max_output_size, 0.0f);
  }
  *context.output(soft ? 2 : 1).Data<int32_t>() = count;
  return Status::Ok();
}

}  // namespace tfa::runtime
