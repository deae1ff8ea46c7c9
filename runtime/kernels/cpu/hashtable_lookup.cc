#include "runtime/kernels/cpu/hashtable_lookup.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr size_t kLookup = 0, kKeys = 1, kValues = 2;
constexpr size_t kOutput = 0, kHits = 1;

// The sign of upstream's comparator, `a - b` on ints, which wraps where the difference does not
// fit (so upstream's search is not an integer comparison for keys far apart).
int32_t Compare(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}

// glibc's bsearch: the index of a key comparing equal, or -1.
int64_t Search(int32_t wanted, const int32_t* keys, int64_t count) {
  int64_t low = 0, high = count;
  while (low < high) {
    const int64_t middle = (low + high) / 2;
    const int32_t order = Compare(wanted, keys[middle]);
    if (order < 0) {
      high = middle;
    } else if (order > 0) {
      low = middle + 1;
    } else {
      return middle;
    }
  }
  return -1;
}

}  // namespace

Status PrepareHashtableLookup(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 3, 3, 2));
  const RuntimeTensor& lookup = context.input(kLookup);
  const RuntimeTensor& keys = context.input(kKeys);
  const RuntimeTensor& values = context.input(kValues);
  TFA_RETURN_IF_ERROR(CheckType(lookup, TensorType::kInt32, "lookup"));
  TFA_RETURN_IF_ERROR(CheckType(keys, TensorType::kInt32, "keys"));
  TFA_RETURN_IF_ERROR(CheckRank(lookup, 1, "lookup"));
  TFA_RETURN_IF_ERROR(CheckRank(keys, 1, "keys"));
  if (values.type == TensorType::kString) {
    return Status::Error("the runtime has no kernel for string values");
  }
  if (values.Rank() < 1 || values.Dim(0) != keys.Dim(0)) {
    return Status::Error("values " + ShapeString(values.shape) + " do not have one row per key");
  }
  if (values.Dim(0) == 0) return Status::Error("the table has no rows");
  TFA_RETURN_IF_ERROR(CheckType(context.output(kOutput), values.type, "output"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(kHits), TensorType::kUInt8, "hits"));
  std::vector<int32_t> out_shape = values.shape;
  out_shape[0] = lookup.Dim(0);
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(kOutput), out_shape));
  return CheckOutputShape(context.output(kHits), {lookup.Dim(0)});
}

Status EvalHashtableLookup(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareHashtableLookup(context));
  const RuntimeTensor& lookup = context.input(kLookup);
  const RuntimeTensor& keys = context.input(kKeys);
  const RuntimeTensor& values = context.input(kValues);
  const uint64_t row_bytes = values.bytes / static_cast<uint64_t>(values.Dim(0));
  const int32_t* wanted = lookup.Data<const int32_t>();
  uint8_t* out = context.output(kOutput).data;
  uint8_t* hits = context.output(kHits).Data<uint8_t>();
  for (int64_t i = 0; i < lookup.Dim(0); ++i) {
    const int64_t row = Search(wanted[i], keys.Data<const int32_t>(), keys.Dim(0));
    uint8_t* destination = out + static_cast<uint64_t>(i) * row_bytes;
    if (row < 0) {
      if (row_bytes > 0) std::memset(destination, 0, row_bytes);
    } else if (row_bytes > 0) {
      std::memcpy(destination, values.data + static_cast<uint64_t>(row) * row_bytes, row_bytes);
    }
    hits[i] = row < 0 ? 0 : 1;
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
