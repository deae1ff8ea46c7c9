#include "runtime/kernels/cpu/landmarks_to_transform_matrix.h"

#include <algorithm>
#include <cmath>

#include "runtime/kernels/cpu/flexbuffer_map.h"
#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

struct CropOptions {
  // Landmark indices whose bounding box is the crop. Upstream reads them as pairs and repeats an
  // odd last index into its own pair, which changes no bounding box.
  std::vector<int32_t> subset;
  int32_t left_rotation_idx = 0;
  int32_t right_rotation_idx = 0;
  float target_rotation_radians = 0;
  int32_t output_height = 0;
  int32_t output_width = 0;
  float scale_x = 0;
  float scale_y = 0;
};

Result<CropOptions> ReadOptions(const KernelContext& context) {
  auto map = FlexbufferMap::Read(context.node_data ? context.node_data->custom_options
                                                   : std::span<const uint8_t>());
  if (!map.ok()) return map.status();
  CropOptions o;
  auto subset = map->IntVector("subset_idxs");
  auto left = map->Int("left_rotation_idx");
  auto right = map->Int("right_rotation_idx");
  auto target = map->Float("target_rotation_radians");
  auto height = map->Int("output_height");
  auto width = map->Int("output_width");
  auto scale_x = map->Float("scale_x");
  auto scale_y = map->Float("scale_y");
  for (const Status* s : {&subset.status(), &left.status(), &right.status(), &target.status(),
                          &height.status(), &width.status(), &scale_x.status(),
                          &scale_y.status()}) {
    if (!s->ok()) return *s;
  }
  o.subset = *subset;
  o.left_rotation_idx = *left;
  o.right_rotation_idx = *right;
  o.target_rotation_radians = *target;
  o.output_height = *height;
  o.output_width = *width;
  o.scale_x = *scale_x;
  o.scale_y = *scale_y;
  if (o.output_height <= 0 || o.output_width <= 0)
    return Status::Error("output_height and output_width must be positive");
  if (!(o.scale_x > 0) || !(o.scale_y > 0))
    return Status::Error("scale_x and scale_y must be positive");
  if (o.subset.empty()) return Status::Error("subset_idxs is empty");
  return o;
}

// Upstream indexes landmarks as x, y, z triples of the flat input without checking the bounds;
// every index must name a whole triple here.
Status CheckLandmarkIndex(int32_t index, int64_t landmarks, const char* what) {
  if (index >= 0 && index < landmarks) return Status::Ok();
  return Status::Error(std::string(what) + " " + std::to_string(index) +
                       " is not a landmark (input holds " + std::to_string(landmarks) + ")");
}

Result<CropOptions> CheckNode(const KernelContext& context) {
  if (context.node->version != 2) {
    return Status::Error("version " + std::to_string(context.node->version) +
                         " is not supported (mediapipe registers version 2)");
  }
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckRank(in, 3, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), {1, 4, 4}));
  auto options = ReadOptions(context);
  if (!options.ok()) return options.status();
  const int64_t landmarks = in.NumElements() / 3;
  TFA_RETURN_IF_ERROR(CheckLandmarkIndex(options->left_rotation_idx, landmarks, "left_rotation_idx"));
  TFA_RETURN_IF_ERROR(
      CheckLandmarkIndex(options->right_rotation_idx, landmarks, "right_rotation_idx"));
  for (int32_t index : options->subset)
    TFA_RETURN_IF_ERROR(CheckLandmarkIndex(index, landmarks, "subset_idxs entry"));
  return options;
}

}  // namespace

Status PrepareLandmarksToTransformMatrix(KernelContext& context) {
  return CheckNode(context).status();
}

Status EvalLandmarksToTransformMatrix(KernelContext& context) {
  auto checked = CheckNode(context);
  if (!checked.ok()) return checked.status();
  const CropOptions& o = *checked;
  const float* xyz = context.input(0).Data<const float>();
  auto x = [xyz](int32_t i) { return xyz[3 * int64_t{i}]; };
  auto y = [xyz](int32_t i) { return xyz[3 * int64_t{i} + 1]; };

  // The angle that turns the left-to-right landmark line to the target rotation.
  const float rotation =
      o.target_rotation_radians - std::atan2(y(o.right_rotation_idx) - y(o.left_rotation_idx),
                                             x(o.right_rotation_idx) - x(o.left_rotation_idx));
  const float c = std::cos(rotation), s = std::sin(rotation);
  // Bounding box of the subset in the rotated frame.
  float min_x = 0, max_x = 0, min_y = 0, max_y = 0;
  for (size_t k = 0; k < o.subset.size(); ++k) {
    const int32_t i = o.subset[k];
    const float rx = c * x(i) - s * y(i), ry = s * x(i) + c * y(i);
    min_x = k == 0 ? rx : std::min(min_x, rx);
    max_x = k == 0 ? rx : std::max(max_x, rx);
    min_y = k == 0 ? ry : std::min(min_y, ry);
    max_y = k == 0 ? ry : std::max(max_y, ry);
  }
  const float crop_width = max_x - min_x, crop_height = max_y - min_y;
  const float mid_x = (min_x + max_x) / 2, mid_y = (min_y + max_y) / 2;
  // The box centre turned back into input coordinates.
  const float center_x = c * mid_x + s * mid_y, center_y = -s * mid_x + c * mid_y;

  // shift(center) * rotate(-rotation) * scale(sx, sy) * shift(-output size / 2), multiplied out
  // in upstream's summation order: output pixel (x, y, 0, 1) -> input (x', y', 0, 1).
  const float sx = o.scale_x * crop_width / static_cast<float>(o.output_width);
  const float sy = o.scale_y * crop_height / static_cast<float>(o.output_height);
  const float shift_x = -static_cast<float>(o.output_width / 2.0);
  const float shift_y = -static_cast<float>(o.output_height / 2.0);
  const float m00 = c * sx, m01 = s * sy, m10 = -s * sx, m11 = c * sy;
  const float matrix[16] = {m00, m01, 0, m00 * shift_x + m01 * shift_y + center_x,
                            m10, m11, 0, m10 * shift_x + m11 * shift_y + center_y,
                            0,   0,   1, 0,
                            0,   0,   0, 1};
  std::copy(std::begin(matrix), std::end(matrix), context.output(0).Data<float>());
  return Status::Ok();
}

}  // namespace tfa::runtime
