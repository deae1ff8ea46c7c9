#include "runtime/kernels/cpu/topk.h"

#include <algorithm>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

Status CheckTensors(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 2));
  const RuntimeTensor& input = context.input(0);
  const RuntimeTensor& k = context.input(1);
  switch (input.type) {
    case TensorType::kFloat32:
    case TensorType::kUInt8:
    case TensorType::kInt8:
    case TensorType::kInt16:
    case TensorType::kInt32:
    case TensorType::kInt64:
      break;
    default:
      return Status::Error(std::string("input of type ") + TensorTypeName(input.type) +
                           " is not supported (float32, uint8, int8, int16, int32, int64)");
  }
  // Upstream sets the values output's type to the input's; the runtime runs on the model's.
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), input.type, "values output"));
  const TensorType index = context.output(1).type;
  if (index != TensorType::kInt32 && index != TensorType::kInt16) {
    return Status::Error(std::string("indices output has type ") + TensorTypeName(index) +
                         ", expected int32 or int16");
  }
  if (k.type != TensorType::kInt32 && k.type != TensorType::kInt16) {
    return Status::Error(std::string("k has type ") + TensorTypeName(k.type) +
                         ", expected int32 or int16");
  }
  if (k.NumElements() != 1)
    return Status::Error("k has shape " + ShapeString(k.shape) + ", expected one value");
  if (input.Rank() < 1) return Status::Error("input is a scalar; TOPK_V2 needs rank 1 or more");
  return Status::Ok();
}

Result<int32_t> ReadK(const RuntimeTensor& k, int32_t row_size) {
  if (!k.data) return Status::Error("k has no data");
  const int32_t value =
      k.type == TensorType::kInt16 ? k.Data<const int16_t>()[0] : k.Data<const int32_t>()[0];
  if (value > row_size) {
    return Status::Error("k " + std::to_string(value) + " is larger than the row length " +
                         std::to_string(row_size));
  }
  return value;
}

// Both outputs: the input's shape with the last dimension max(0, k).
std::vector<int32_t> OutputShape(const RuntimeTensor& input, int32_t k) {
  std::vector<int32_t> shape = input.shape;
  shape.back() = std::max(0, k);
  return shape;
}

// The k best indices of one row. Before(a, b) says a ranks above b: a larger value, or the same
// value at a lower index. Until k + 1 indices came, they are only stored; then they form a heap
// whose front is the lowest-ranked of the k kept, which a better index replaces.
template <typename T, typename Index>
class TopKCollector {
 public:
  TopKCollector(int32_t k, int32_t row_size) : k_(static_cast<size_t>(k)) {
    indices_.reserve(static_cast<size_t>(std::min(k, row_size)) + 1);
  }

  void Start(const T* values) {
    values_ = values;
    indices_.clear();
    is_heap_ = false;
  }

  void Push(Index a) {
    const auto before = [this](Index x, Index y) { return Before(x, y); };
    if (!is_heap_) {
      indices_.push_back(a);
      if (indices_.size() == k_ + 1) {
        std::make_heap(indices_.begin(), indices_.end(), before);
        std::pop_heap(indices_.begin(), indices_.end(), before);
        indices_.pop_back();
        is_heap_ = true;
      }
      return;
    }
    if (!Before(a, indices_.front())) return;
    std::pop_heap(indices_.begin(), indices_.end(), before);
    indices_.back() = a;
    std::push_heap(indices_.begin(), indices_.end(), before);
  }

  // Best first.
  const std::vector<Index>& Sorted() {
    const auto before = [this](Index x, Index y) { return Before(x, y); };
    if (is_heap_) {
      std::sort_heap(indices_.begin(), indices_.end(), before);
    } else {
      std::sort(indices_.begin(), indices_.end(), before);
    }
    return indices_;
  }

 private:
  bool Before(Index a, Index b) const {
    if (values_[b] < values_[a]) return true;
    if (values_[b] > values_[a]) return false;
    return a < b;
  }

  const size_t k_;
  std::vector<Index> indices_;
  bool is_heap_ = false;
  const T* values_ = nullptr;
};

template <typename T, typename Index>
void Run(const RuntimeTensor& input, int32_t k, RuntimeTensor& values, RuntimeTensor& indices) {
  if (k <= 0) return;
  const int32_t row_size = input.shape.back();
  const int64_t rows = input.NumElements() / std::max<int64_t>(row_size, 1);
  const T* in = input.Data<const T>();
  T* out_values = values.Data<T>();
  Index* out_indices = indices.Data<Index>();
  TopKCollector<T, Index> collector(k, row_size);
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = in + r * row_size;
    collector.Start(row);
    for (int32_t c = 0; c < row_size; ++c) collector.Push(static_cast<Index>(c));
    const std::vector<Index>& top = collector.Sorted();
    for (size_t i = 0; i < top.size(); ++i) {
      out_indices[r * k + static_cast<int64_t>(i)] = top[i];
      out_values[r * k + static_cast<int64_t>(i)] = row[top[i]];
    }
  }
}

template <typename Index>
Status RunIndexed(const RuntimeTensor& input, int32_t k, RuntimeTensor& values,
                  RuntimeTensor& indices) {
  switch (input.type) {
    case TensorType::kFloat32:
      Run<float, Index>(input, k, values, indices);
      return Status::Ok();
    case TensorType::kUInt8:
      Run<uint8_t, Index>(input, k, values, indices);
      return Status::Ok();
    case TensorType::kInt8:
      Run<int8_t, Index>(input, k, values, indices);
      return Status::Ok();
    case TensorType::kInt16:
      Run<int16_t, Index>(input, k, values, indices);
      return Status::Ok();
    case TensorType::kInt32:
      Run<int32_t, Index>(input, k, values, indices);
      return Status::Ok();
    case TensorType::kInt64:
      Run<int64_t, Index>(input, k, values, indices);
      return Status::Ok();
    default:
      return Status::Error(std::string("input of type ") + TensorTypeName(input.type) +
                           " is not supported");
  }
}

}  // namespace

Status PrepareTopKV2(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  const RuntimeTensor& input = context.input(0);
  if (context.input(1).is_constant) {
    auto k = ReadK(context.input(1), input.shape.back());
    if (!k.ok()) return k.status();
    TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), OutputShape(input, *k)));
    return CheckOutputShape(context.output(1), OutputShape(input, *k));
  }
  // k is known at Eval: the planned outputs must agree with the input but in the last dimension.
  for (size_t o = 0; o < 2; ++o) {
    const RuntimeTensor& output = context.output(o);
    if (output.Rank() != input.Rank() ||
        !std::equal(input.shape.begin(), input.shape.end() - 1, output.shape.begin()) ||
        output.shape.back() > input.shape.back()) {
      return Status::Error("output " + std::to_string(o) + " has shape " +
                           ShapeString(output.shape) + ", which no k gives for input " +
                           ShapeString(input.shape));
    }
  }
  return Status::Ok();
}

Status EvalTopKV2(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckTensors(context));
  const RuntimeTensor& input = context.input(0);
  auto k = ReadK(context.input(1), input.shape.back());
  if (!k.ok()) return k.status();
  const std::vector<int32_t> shape = OutputShape(input, *k);
  constexpr const char* kDynamic =
      "the k read at Eval gives another output shape than the plan's (upstream would resize the "
      "output)";
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), shape).WithContext(kDynamic));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(1), shape).WithContext(kDynamic));
  RuntimeTensor& values = context.output(0);
  RuntimeTensor& indices = context.output(1);
  if (indices.type == TensorType::kInt16) return RunIndexed<int16_t>(input, *k, values, indices);
  return RunIndexed<int32_t>(input, *k, values, indices);
}

}  // namespace tfa::runtime
