#include "libanalysis/prepare/added_tensors.h"

#include <span>
#include <utility>

#include "libanalysis/core/checked_math.h"

namespace tfa::prepare_internal {

Status NodeError(const Node& node, const std::string& reason) {
  return Status::Error(node.op + ": " + reason);
}

const Tensor* Operand(const Subgraph& subgraph, std::span<const int32_t> list, size_t position) {
  if (position >= list.size()) return nullptr;
  const int32_t index = list[position];
  if (index < 0 || static_cast<size_t>(index) >= subgraph.tensors.size()) return nullptr;
  return &subgraph.tensors[static_cast<size_t>(index)];
}

bool IsConstantOrPersistent(const Tensor& tensor) {
  return tensor.allocation == AllocationType::kMmapRo ||
         tensor.allocation == AllocationType::kPersistentRo;
}

std::optional<uint64_t> Elements(std::span<const int32_t> shape) {
  uint64_t elements = 1;
  for (int32_t d : shape) {
    if (d < 0) return std::nullopt;
    auto product = CheckedMul(elements, static_cast<uint64_t>(d));
    if (!product) return std::nullopt;
    elements = *product;
  }
  return elements;
}

bool IsQuantizedWeightType(TensorType type) {
  return type == TensorType::kUInt8 || type == TensorType::kInt8 || type == TensorType::kInt4;
}

Result<AddedTensor> ArenaTensor(const Node& node, TensorType type, Dims shape,
                                AllocationType allocation, std::string name) {
  auto bytes = ShapeBytes(type, shape);
  if (!bytes) return NodeError(node, "temporary tensor size overflows");
  return AddedTensor{std::move(name), type, std::move(shape), allocation, *bytes};
}

AddedTensor DynamicTensor(TensorType type, Dims shape) {
  return AddedTensor{"", type, std::move(shape), AllocationType::kDynamic, 0};
}

AddedTensor SpareTensor() { return AddedTensor{}; }

Status Append(KernelPrepareEffect& effect, Result<AddedTensor> tensor, bool temporary) {
  if (!tensor.ok()) return tensor.status();
  if (temporary) effect.temporaries.push_back(static_cast<int32_t>(effect.added.size()));
  effect.added.push_back(std::move(tensor).value());
  return Status::Ok();
}

bool HasSparsity(const Tensor& tensor) { return tensor.is_sparse && tensor.is_constant(); }

Status AppendSparseLedger(KernelPrepareEffect& effect, const Node& node, const Tensor& weights,
                          std::string name) {
  if (!weights.sparse_ledger_bytes) {
    effect.modelled = false;
    return Append(
        effect,
        AddedTensor{
            std::move(name), TensorType::kUInt8, {}, AllocationType::kArenaRwPersistent, 0});
  }
  if (*weights.sparse_ledger_bytes > INT32_MAX) {
    return NodeError(node, "sparse weights' ledger size overflows int32");
  }
  const auto bytes = static_cast<int32_t>(*weights.sparse_ledger_bytes);
  return Append(effect, ArenaTensor(node, TensorType::kUInt8, {bytes},
                                    AllocationType::kArenaRwPersistent, std::move(name)));
}

Result<int32_t> CheckedInt32Product(const Node& node, std::initializer_list<int64_t> factors) {
  int64_t product = 1;
  for (int64_t f : factors) {
    if (f < 0 || __builtin_mul_overflow(product, f, &product) || product > INT32_MAX) {
      return NodeError(node, "temporary dimension overflows int32");
    }
  }
  return static_cast<int32_t>(product);
}

Result<int32_t> DimensionProduct(const Node& node, std::span<const int32_t> shape, size_t begin,
                                 size_t end) {
  int64_t product = 1;
  for (size_t i = begin; i < end && i < shape.size(); ++i) {
    if (shape[i] < 0 || __builtin_mul_overflow(product, static_cast<int64_t>(shape[i]), &product) ||
        product > INT32_MAX) {
      return NodeError(node, "temporary dimension overflows int32");
    }
  }
  return static_cast<int32_t>(product);
}

}  // namespace tfa::prepare_internal
