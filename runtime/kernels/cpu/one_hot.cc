#include "runtime/kernels/cpu/one_hot.h"

#include <array>
#include <cstring>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kValueTypes = {TensorType::kFloat32, TensorType::kInt32, TensorType::kInt64,
                                    TensorType::kInt16,   TensorType::kInt8,  TensorType::kUInt8,
                                    TensorType::kBool};
constexpr std::array kIndexTypes = {TensorType::kInt32, TensorType::kInt64};

struct OneHotGeometry {
  int64_t prefix = 1, suffix = 1;
  int32_t depth = 0;
};

Result<OneHotGeometry> Geometry(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 4, 4, 1));
  const RuntimeTensor& indices = context.input(0);
  const RuntimeTensor& depth = context.input(1);
  const RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(indices, kIndexTypes, "indices"));
  TFA_RETURN_IF_ERROR(CheckType(depth, TensorType::kInt32, "depth"));
  TFA_RETURN_IF_ERROR(CheckTypeIn(out, kValueTypes, "output"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(2), out.type, "on value"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(3), out.type, "off value"));
  for (size_t i = 1; i < 4; ++i) {
    if (context.input(i).NumElements() != 1 || !context.input(i).data) {
      return Status::Error("ONE_HOT input " + std::to_string(i) + " must be a scalar with data");
    }
  }
  OneHotGeometry g;
  g.depth = *depth.Data<const int32_t>();
  if (g.depth < 0)
    return Status::Error("ONE_HOT depth " + std::to_string(g.depth) + " is negative");
  const int rank = indices.Rank();
  const int32_t axis = context.options().axis == -1 ? rank : context.options().axis;
  if (axis < 0 || axis > rank) {
    return Status::Error("ONE_HOT axis " + std::to_string(context.options().axis) +
                         " is outside [-1, " + std::to_string(rank) + "]");
  }
  std::vector<int32_t> shape(indices.shape.begin(), indices.shape.begin() + axis);
  shape.push_back(g.depth);
  shape.insert(shape.end(), indices.shape.begin() + axis, indices.shape.end());
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, shape));
  for (int d = 0; d < axis; ++d) g.prefix *= indices.Dim(d);
  for (int d = axis; d < rank; ++d) g.suffix *= indices.Dim(d);
  return g;
}

template <typename Index>
void Fill(const KernelContext& context, const OneHotGeometry& g, uint64_t element_bytes) {
  const Index* indices = context.input(0).Data<const Index>();
  const uint8_t* on = context.input(2).data;
  const uint8_t* off = context.input(3).data;
  uint8_t* out = context.output(0).data;
  for (int64_t i = 0; i < g.prefix; ++i) {
    for (int32_t d = 0; d < g.depth; ++d) {
      for (int64_t k = 0; k < g.suffix; ++k, out += element_bytes) {
        // one_hot.cc compares static_cast<int>(index) with the depth position.
        const bool hot = static_cast<int>(indices[i * g.suffix + k]) == d;
        std::memcpy(out, hot ? on : off, element_bytes);
      }
    }
  }
}

}  // namespace

Status PrepareOneHot(KernelContext& context) { return Geometry(context).status(); }

Status EvalOneHot(KernelContext& context) {
  auto g = Geometry(context);
  if (!g.ok()) return g.status();
  const uint64_t element_bytes = ElementSize(context.output(0).type).value_or(1);
  if (context.input(0).type == TensorType::kInt64) {
    Fill<int64_t>(context, *g, element_bytes);
  } else {
    Fill<int32_t>(context, *g, element_bytes);
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
