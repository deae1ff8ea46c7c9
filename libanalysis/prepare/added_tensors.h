// Building blocks for the kernel Prepare rules (builtin_kernel_prepare.cc and its neighbours):
// the operands a rule reads and the tensors it adds, sized with checked arithmetic. Internal to
// libanalysis/prepare.
#ifndef LIBANALYSIS_PREPARE_ADDED_TENSORS_H_
#define LIBANALYSIS_PREPARE_ADDED_TENSORS_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"

namespace tfa::prepare_internal {

Status NodeError(const Node& node, const std::string& reason);

// The tensor at input (or output) `position`, or nullptr when the node has no such operand or it
// is an absent optional input.
const Tensor* Operand(const Subgraph& subgraph, std::span<const int32_t> list, size_t position);

// Upstream's IsConstantOrPersistentTensor: read-only data known at Prepare (the model's
// constants and what an earlier kernel folded in its Prepare).
bool IsConstantOrPersistent(const Tensor& tensor);

std::optional<uint64_t> Elements(std::span<const int32_t> shape);

bool IsQuantizedWeightType(TensorType type);

// A tensor of `type` and `shape` planned in `allocation`; an error when its size overflows.
Result<AddedTensor> ArenaTensor(const Node& node, TensorType type, Dims shape,
                                AllocationType allocation = AllocationType::kArenaRw,
                                std::string name = "");

// Sized at Eval (SetTensorToDynamic, or kTfLiteDynamic with a shape): no arena bytes.
AddedTensor DynamicTensor(TensorType type, Dims shape = {});

// Added by AddTensors and never touched again: upstream leaves it kTfLiteMemNone.
AddedTensor SpareTensor();

// Appends `tensor` to `effect.added`, listing it as the node's next temporary when `temporary`.
Status Append(KernelPrepareEffect& effect, Result<AddedTensor> tensor, bool temporary = true);

// Whether upstream's kernels see `tensor` as sparse: InterpreterBuilder keeps sparsity
// parameters only for constants.
bool HasSparsity(const Tensor& tensor);

// Appends the persistent uint8 ledger a sparse hybrid kernel builds from `weights`' sparsity
// metadata (fully_connected.cc, lstm.cc) as the node's next temporary. When the model does not
// say its size (a sparsity dimension 1 that is not CSR; a hand-built graph without the count),
// the ledger stays unsized and `effect.modelled` becomes false.
Status AppendSparseLedger(KernelPrepareEffect& effect, const Node& node, const Tensor& weights,
                          std::string name);

// The product as an int32 dimension; an error naming the node when it overflows.
Result<int32_t> CheckedInt32Product(const Node& node, std::initializer_list<int64_t> factors);

// The product of `shape[begin, end)` as an int32 dimension.
Result<int32_t> DimensionProduct(const Node& node, std::span<const int32_t> shape, size_t begin,
                                 size_t end);

}  // namespace tfa::prepare_internal

#endif  // LIBANALYSIS_PREPARE_ADDED_TENSORS_H_
