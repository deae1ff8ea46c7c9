#include "runtime/kernels/cpu/unique.h"

#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr std::array kInputTypes = {TensorType::kInt8,  TensorType::kInt16, TensorType::kUInt16,
                                    TensorType::kInt32, TensorType::kInt64, TensorType::kFloat32,
                                    TensorType::kUInt8};
constexpr std::array kIndexTypes = {TensorType::kInt32, TensorType::kInt64};

// Upstream's Prepare checks. Its index type comes from the options (index_out_type), which must
// equal the index output's type; the runtime reads the output's.
Status CheckTensors(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 2));
  const RuntimeTensor& input = context.input(0);
  TFA_RETURN_IF_ERROR(CheckTypeIn(input, kInputTypes, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), input.type, "unique values"));
  TFA_RETURN_IF_ERROR(CheckTypeIn(context.output(1), kIndexTypes, "index"));
  TFA_RETURN_IF_ERROR(CheckRank(input, 1, "input"));
  return CheckOutputShape(context.output(1), input.shape);
}

// Calls `visit(element, position of its value among the distinct ones, first appearance)` for
// each element in order; returns the number of distinct values.
template <typename T, typename Visit>
Result<int64_t> ForEachPosition(const RuntimeTensor& input, Visit visit) {
  const T* data = input.Data<const T>();
  std::map<T, int64_t> positions;
  for (int64_t i = 0; i < input.NumElements(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(data[i]))
        return Status::Error("input holds NaN, which upstream's map cannot order");
    }
    const auto [it, added] = positions.emplace(data[i], static_cast<int64_t>(positions.size()));
    visit(i, it->second, added);
  }
  return static_cast<int64_t>(positions.size());
}

template <typename Visit>
Result<int64_t> ForEachPositionOfType(const RuntimeTensor& input, Visit visit) {
  switch (input.type) {
    case TensorType::kInt8:
      return ForEachPosition<int8_t>(input, visit);
    case TensorType::kInt16:
      return ForEachPosition<int16_t>(input, visit);
    case TensorType::kUInt16:
      return ForEachPosition<uint16_t>(input, visit);
    case TensorType::kInt32:
      return ForEachPosition<int32_t>(input, visit);
    case TensorType::kInt64:
      return ForEachPosition<int64_t>(input, visit);
    case TensorType::kFloat32:
      return ForEachPosition<float>(input, visit);
    case TensorType::kUInt8:
      return ForEachPosition<uint8_t>(input, visit);
    default:
      return Status::Error(std::string("input has unsupported type ") + TensorTypeName(input.type));
  }
}

template <typename Index>
Status Evaluate(KernelContext& context) {
  const RuntimeTensor& input = context.input(0);
  RuntimeTensor& unique = context.output(0);
  Index* indices = context.output(1).Data<Index>();
  const auto element_bytes = static_cast<size_t>(*ElementSize(input.type));
  int64_t written = 0;
  auto count = ForEachPositionOfType(input, [&](int64_t i, int64_t position, bool first) {
    indices[i] = static_cast<Index>(position);
    if (!first || written >= unique.NumElements()) return;
    std::memcpy(unique.data + written * static_cast<int64_t>(element_bytes),
                input.data + i * static_cast<int64_t>(element_bytes), element_bytes);
    ++written;
  });
  if (!count.ok()) return count.status();
  return CheckOutputShape(unique, {static_cast<int32_t>(*count)})
      .WithContext("the input's distinct values differ from the sized output");
}

}  // namespace

Status PrepareUnique(KernelContext& context) { return CheckTensors(context); }

Status EvalUnique(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  if (context.output(1).type == TensorType::kInt64) return Evaluate<int64_t>(context);
  return Evaluate<int32_t>(context);
}

Result<std::vector<std::vector<int32_t>>> UniqueOutputShapes(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  const RuntimeTensor& input = context.input(0);
  auto count = ForEachPositionOfType(input, [](int64_t, int64_t, bool) {});
  if (!count.ok()) return count.status();
  return std::vector<std::vector<int32_t>>{{static_cast<int32_t>(*count)}, input.shape};
}

}  // namespace tfa::runtime
