#include "runtime/kernels/cpu/detection_postprocess.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "runtime/kernels/cpu/flexbuffer_map.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"

namespace tfa::runtime {
namespace {

struct DetectionOptions {
  int32_t max_detections = 0;
  int32_t max_classes_per_detection = 1;
  int32_t detections_per_class = 100;
  bool use_regular_nms = false;
  float score_threshold = 0, iou_threshold = 0;
  int32_t num_classes = 0;
  float y_scale = 0, x_scale = 0, h_scale = 0, w_scale = 0;
};

Result<DetectionOptions> ReadOptions(const KernelContext& context) {
  if (!context.node_data) return Status::Error("the node has no custom options");
  auto map = FlexbufferMap::Read(context.node_data->custom_options);
  if (!map.ok()) return map.status();
  DetectionOptions o;
  auto read_int = [&](const char* key, int32_t* out) -> Status {
    auto v = map->Int(key);
    if (!v.ok()) return v.status();
    *out = *v;
    return Status::Ok();
  };
  auto read_float = [&](const char* key, float* out) -> Status {
    auto v = map->Float(key);
    if (!v.ok()) return v.status();
    *out = *v;
    return Status::Ok();
  };
  TFA_RETURN_IF_ERROR(read_int("max_detections", &o.max_detections));
  TFA_RETURN_IF_ERROR(read_int("max_classes_per_detection", &o.max_classes_per_detection));
  if (map->Has("detections_per_class"))
    TFA_RETURN_IF_ERROR(read_int("detections_per_class", &o.detections_per_class));
  if (map->Has("use_regular_nms")) {
    auto v = map->Bool("use_regular_nms");
    if (!v.ok()) return v.status();
    o.use_regular_nms = *v;
  }
  TFA_RETURN_IF_ERROR(read_float("nms_score_threshold", &o.score_threshold));
  TFA_RETURN_IF_ERROR(read_float("nms_iou_threshold", &o.iou_threshold));
  TFA_RETURN_IF_ERROR(read_int("num_classes", &o.num_classes));
  TFA_RETURN_IF_ERROR(read_float("y_scale", &o.y_scale));
  TFA_RETURN_IF_ERROR(read_float("x_scale", &o.x_scale));
  TFA_RETURN_IF_ERROR(read_float("h_scale", &o.h_scale));
  TFA_RETURN_IF_ERROR(read_float("w_scale", &o.w_scale));
  if (o.max_detections < 0 || o.max_classes_per_detection <= 0 || o.num_classes <= 0)
    return Status::Error("max_detections, max_classes_per_detection and num_classes are invalid");
  if (!(o.iou_threshold > 0.0f && o.iou_threshold <= 1.0f))
    return Status::Error("nms_iou_threshold must lie in (0, 1]");
  return o;
}

struct DetectionShape {
  DetectionOptions options;
  int32_t boxes = 0, encoding = 0, classes_with_background = 0, label_offset = 0;
};

Result<DetectionShape> Shape(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 3, 4));
  auto options = ReadOptions(context);
  if (!options.ok()) return options.status();
  const RuntimeTensor& encodings = context.input(0);
  const RuntimeTensor& predictions = context.input(1);
  const RuntimeTensor& anchors = context.input(2);
  constexpr TensorType kTypes[] = {TensorType::kFloat32, TensorType::kUInt8};
  TFA_RETURN_IF_ERROR(CheckTypeIn(encodings, kTypes, "box encodings"));
  TFA_RETURN_IF_ERROR(CheckTypeIn(predictions, kTypes, "class predictions"));
  // Upstream reads the anchors in the box encodings' type (DecodeCenterSizeBoxes).
  TFA_RETURN_IF_ERROR(CheckType(anchors, encodings.type, "anchors"));
  TFA_RETURN_IF_ERROR(CheckRank(encodings, 3, "box encodings"));
  TFA_RETURN_IF_ERROR(CheckRank(predictions, 3, "class predictions"));
  TFA_RETURN_IF_ERROR(CheckRank(anchors, 2, "anchors"));
  DetectionShape s{*options, encodings.Dim(1), encodings.Dim(2), predictions.Dim(2), 0};
  if (encodings.Dim(0) != 1 || predictions.Dim(0) != 1)
    return Status::Error("only batch 1 is supported, as upstream");
  if (s.encoding < 4 || anchors.Dim(0) != s.boxes || anchors.Dim(1) != 4 ||
      predictions.Dim(1) != s.boxes)
    return Status::Error("box encodings, class predictions and anchors disagree in shape");
  s.label_offset = s.classes_with_background - s.options.num_classes;
  if (s.label_offset < 0 || s.label_offset > 1)
    return Status::Error("class predictions have neither num_classes nor one more");
  const int32_t n = s.options.max_detections * s.options.max_classes_per_detection;
  for (size_t i = 0; i < 4; ++i)
    TFA_RETURN_IF_ERROR(CheckType(context.output(i), TensorType::kFloat32, "output"));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), {1, n, 4}));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(1), {1, n}));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(2), {1, n}));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(3), {1}));
  return s;
}

struct Box {
  float ymin, xmin, ymax, xmax;
};

// A float32 input as it is, a uint8 one dequantized as upstream's Dequantizer does:
// (float(q) - zero_point) * scale.
Result<std::vector<float>> AsFloat(const RuntimeTensor& t, const char* role) {
  const auto n = static_cast<size_t>(t.NumElements());
  if (t.type == TensorType::kFloat32) {
    const float* data = t.Data<const float>();
    return std::vector<float>(data, data + n);
  }
  auto q = PerTensorParams(t, role);
  if (!q.ok()) return q.status();
  const uint8_t* data = t.Data<const uint8_t>();
  std::vector<float> values(n);
  const auto zero_point = static_cast<float>(q->zero_point);
  for (size_t i = 0; i < n; ++i) values[i] = (static_cast<float>(data[i]) - zero_point) * q->scale;
  return values;
}

std::vector<Box> DecodeBoxes(const float* encodings, const float* anchors,
                             const DetectionShape& s) {
  const DetectionOptions& o = s.options;
  std::vector<Box> boxes(static_cast<size_t>(s.boxes));
  for (int32_t i = 0; i < s.boxes; ++i) {
    const float* e = encodings + int64_t{i} * s.encoding;  // y, x, h, w
    const float* a = anchors + int64_t{i} * 4;             // y, x, h, w
    const auto y = static_cast<float>(double{e[0]} / o.y_scale * a[2] + a[0]);
    const auto x = static_cast<float>(double{e[1]} / o.x_scale * a[3] + a[1]);
    const auto half_h = static_cast<float>(0.5 * std::exp(double{e[2]} / o.h_scale) * a[2]);
    const auto half_w = static_cast<float>(0.5 * std::exp(double{e[3]} / o.w_scale) * a[3]);
    boxes[static_cast<size_t>(i)] = {y - half_h, x - half_w, y + half_h, x + half_w};
  }
  return boxes;
}

float IntersectionOverUnion(const Box& a, const Box& b) {
  const float area_a = (a.ymax - a.ymin) * (a.xmax - a.xmin);
  const float area_b = (b.ymax - b.ymin) * (b.xmax - b.xmin);
  if (area_a <= 0 || area_b <= 0) return 0.0f;
  const float h = std::max(std::min(a.ymax, b.ymax) - std::max(a.ymin, b.ymin), 0.0f);
  const float w = std::max(std::min(a.xmax, b.xmax) - std::max(a.xmin, b.xmin), 0.0f);
  const float intersection = h * w;
  return intersection / (area_a + area_b - intersection);
}

// Greedy NMS over one score per box: boxes at or above the score threshold by decreasing score
// (stable), each kept box suppressing later ones that overlap it by more than the threshold.
Result<std::vector<int32_t>> SingleClassNms(const std::vector<Box>& boxes,
                                            const std::vector<float>& scores,
                                            const DetectionOptions& o, int32_t max_detections) {
  for (const Box& b : boxes) {
    if (b.ymin > b.ymax || b.xmin > b.xmax) return Status::Error("a decoded box is inverted");
  }
  std::vector<int32_t> kept;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (scores[i] >= o.score_threshold) kept.push_back(static_cast<int32_t>(i));
  }
  std::stable_sort(kept.begin(), kept.end(), [&](int32_t a, int32_t b) {
    return scores[static_cast<size_t>(a)] > scores[static_cast<size_t>(b)];
  });
  const size_t output_size = std::min(kept.size(), static_cast<size_t>(max_detections));
  std::vector<int32_t> selected;
  std::vector<bool> active(kept.size(), true);
  size_t active_count = kept.size();
  for (size_t i = 0; i < kept.size(); ++i) {
    if (active_count == 0 || selected.size() >= output_size) break;
    if (!active[i]) continue;
    selected.push_back(kept[i]);
    active[i] = false;
    --active_count;
    for (size_t j = i + 1; j < kept.size(); ++j) {
      if (active[j] &&
          IntersectionOverUnion(boxes[static_cast<size_t>(kept[i])],
                                boxes[static_cast<size_t>(kept[j])]) > o.iou_threshold) {
        active[j] = false;
        --active_count;
      }
    }
  }
  return selected;
}

void WriteDetection(KernelContext& context, int32_t slot, const Box& box, float label,
                    float score) {
  float* out_box = context.output(0).Data<float>() + int64_t{slot} * 4;
  out_box[0] = box.ymin;
  out_box[1] = box.xmin;
  out_box[2] = box.ymax;
  out_box[3] = box.xmax;
  context.output(1).Data<float>()[slot] = label;
  context.output(2).Data<float>()[slot] = score;
}

Status FastNms(KernelContext& context, const DetectionShape& s, const std::vector<Box>& boxes,
               const float* predictions) {
  const DetectionOptions& o = s.options;
  const int32_t per_anchor = std::min(o.max_classes_per_detection, o.num_classes);
  std::vector<int32_t> class_order(static_cast<size_t>(s.boxes) * o.num_classes);
  std::vector<float> max_scores(static_cast<size_t>(s.boxes));
  for (int32_t row = 0; row < s.boxes; ++row) {
    const float* scores = predictions + int64_t{row} * s.classes_with_background + s.label_offset;
    int32_t* order = class_order.data() + int64_t{row} * o.num_classes;
    if (per_anchor == 1) {
      order[0] = static_cast<int32_t>(std::max_element(scores, scores + o.num_classes) - scores);
    } else {
      std::iota(order, order + o.num_classes, 0);
      std::partial_sort(order, order + per_anchor, order + o.num_classes,
                        [&](int32_t a, int32_t b) { return scores[a] > scores[b]; });
    }
    max_scores[static_cast<size_t>(row)] = scores[order[0]];
  }
  auto selected = SingleClassNms(boxes, max_scores, o, o.max_detections);
  if (!selected.ok()) return selected.status();
  int32_t count = 0;
  for (int32_t anchor : *selected) {
    const float* scores =
        predictions + int64_t{anchor} * s.classes_with_background + s.label_offset;
    const int32_t* order = class_order.data() + int64_t{anchor} * o.num_classes;
    for (int32_t col = 0; col < per_anchor; ++col) {
      WriteDetection(context, o.max_classes_per_detection * count + col,
                     boxes[static_cast<size_t>(anchor)], static_cast<float>(order[col]),
                     scores[order[col]]);
    }
    ++count;
  }
  context.output(3).Data<float>()[0] = static_cast<float>(count);
  return Status::Ok();
}

Status RegularNms(KernelContext& context, const DetectionShape& s, const std::vector<Box>& boxes,
                  const float* predictions) {
  const DetectionOptions& o = s.options;
  const int32_t per_class = std::min(o.detections_per_class, o.max_detections);
  if (per_class <= 0) return Status::Error("detections_per_class must be positive");
  struct Candidate {
    int64_t index;  // anchor * classes_with_background + class column
    float score;
  };
  std::vector<Candidate> merged;
  std::vector<float> class_scores(static_cast<size_t>(s.boxes));
  for (int32_t col = 0; col < o.num_classes; ++col) {
    for (int32_t row = 0; row < s.boxes; ++row) {
      class_scores[static_cast<size_t>(row)] =
          predictions[int64_t{row} * s.classes_with_background + col + s.label_offset];
    }
    auto selected = SingleClassNms(boxes, class_scores, o, per_class);
    if (!selected.ok()) return selected.status();
    const auto middle = static_cast<std::ptrdiff_t>(merged.size());
    for (int32_t anchor : *selected) {
      merged.push_back({int64_t{anchor} * s.classes_with_background + col + s.label_offset,
                        class_scores[static_cast<size_t>(anchor)]});
    }
    std::inplace_merge(merged.begin(), merged.begin() + middle, merged.end(),
                       [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    merged.resize(std::min(merged.size(), static_cast<size_t>(o.max_detections)));
  }
  for (int32_t slot = 0; slot < o.max_detections; ++slot) {
    if (slot < static_cast<int32_t>(merged.size())) {
      const Candidate& c = merged[static_cast<size_t>(slot)];
      const int64_t anchor = c.index / s.classes_with_background;
      const int64_t label = c.index - anchor * s.classes_with_background - s.label_offset;
      WriteDetection(context, slot, boxes[static_cast<size_t>(anchor)], static_cast<float>(label),
                     c.score);
    } else {
      WriteDetection(context, slot, Box{0, 0, 0, 0}, 0.0f, 0.0f);
    }
  }
  context.output(3).Data<float>()[0] = static_cast<float>(merged.size());
  return Status::Ok();
}

}  // namespace

Status PrepareDetectionPostProcess(KernelContext& context) { return Shape(context).status(); }

Status EvalDetectionPostProcess(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  auto encodings = AsFloat(context.input(0), "box encodings");
  if (!encodings.ok()) return encodings.status();
  auto predictions = AsFloat(context.input(1), "class predictions");
  if (!predictions.ok()) return predictions.status();
  auto anchors = AsFloat(context.input(2), "anchors");
  if (!anchors.ok()) return anchors.status();
  const std::vector<Box> boxes = DecodeBoxes(encodings->data(), anchors->data(), *s);
  return s->options.use_regular_nms ? RegularNms(context, *s, boxes, predictions->data())
                                    : FastNms(context, *s, boxes, predictions->data());
}

}  // namespace tfa::runtime
