#include "runtime/kernels/cpu/densify.h"

#include <cstring>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

// Walks the storage levels in traversal order. `position` is the index into the current level's
// storage (for a dense level: parent position * size + i; for CSR: the index into `indices`),
// so at the last level it is the index of the value in the stored array.
class SparseWalker {
 public:
  SparseWalker(const RuntimeTensor& in, RuntimeTensor& out, uint64_t element)
      : in_(in),
        out_(out),
        s_(*in.sparsity),
        element_(element),
        coords_(s_.traversal_order.size(), 0) {}

  Status Check() const {
    const size_t rank = static_cast<size_t>(in_.Rank());
    const size_t levels = s_.traversal_order.size();
    if (levels != s_.dimensions.size() || levels != rank + s_.block_map.size()) {
      return Status::Error("sparsity levels do not match the rank and block map");
    }
    for (size_t l = 0; l < levels; ++l) {
      const int32_t dim = s_.traversal_order[l];
      if (dim < 0 || static_cast<size_t>(dim) >= levels)
        return Status::Error("bad traversal order");
      const SparseDimension& m = s_.dimensions[l];
      if (!m.dense && m.segments.empty()) return Status::Error("CSR level without segments");
    }
    for (int32_t d : s_.block_map) {
      if (d < 0 || static_cast<size_t>(d) >= rank) return Status::Error("bad block map");
    }
    return Status::Ok();
  }

  Status Walk(size_t level, int64_t position) {
    if (level == s_.traversal_order.size()) return Store(position);
    const SparseDimension& m = s_.dimensions[level];
    const auto dim = static_cast<size_t>(s_.traversal_order[level]);
    if (m.dense) {
      for (int32_t i = 0; i < m.dense_size; ++i) {
        coords_[dim] = i;
        TFA_RETURN_IF_ERROR(Walk(level + 1, position * m.dense_size + i));
      }
      return Status::Ok();
    }
    if (position < 0 || static_cast<size_t>(position) + 1 >= m.segments.size()) {
      return Status::Error("CSR segment index out of range");
    }
    for (int32_t j = m.segments[static_cast<size_t>(position)];
         j < m.segments[static_cast<size_t>(position) + 1]; ++j) {
      if (j < 0 || static_cast<size_t>(j) >= m.indices.size())
        return Status::Error("CSR index out of range");
      coords_[dim] = m.indices[static_cast<size_t>(j)];
      TFA_RETURN_IF_ERROR(Walk(level + 1, j));
    }
    return Status::Ok();
  }

 private:
  // Block size of original dimension d, or 1 when it is not blocked.
  int32_t BlockSize(size_t d) const {
    const size_t rank = static_cast<size_t>(in_.Rank());
    for (size_t b = 0; b < s_.block_map.size(); ++b) {
      if (static_cast<size_t>(s_.block_map[b]) != d) continue;
      for (size_t l = 0; l < s_.traversal_order.size(); ++l) {
        if (static_cast<size_t>(s_.traversal_order[l]) == rank + b)
          return s_.dimensions[l].dense_size;
      }
    }
    return 1;
  }

  Status Store(int64_t position) {
    const size_t rank = static_cast<size_t>(in_.Rank());
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d) {
      int64_t c = coords_[d] * int64_t{BlockSize(d)};
      for (size_t b = 0; b < s_.block_map.size(); ++b) {
        if (static_cast<size_t>(s_.block_map[b]) == d) c += coords_[rank + b];
      }
      if (c < 0 || c >= in_.Dim(static_cast<int>(d)))
        return Status::Error("sparse coordinate out of range");
      offset = offset * in_.Dim(static_cast<int>(d)) + c;
    }
    if (position < 0 || static_cast<uint64_t>(position + 1) * element_ > in_.bytes) {
      return Status::Error("sparse value index out of range");
    }
    std::memcpy(out_.data + static_cast<uint64_t>(offset) * element_,
                in_.data + static_cast<uint64_t>(position) * element_, element_);
    return Status::Ok();
  }

  const RuntimeTensor& in_;
  RuntimeTensor& out_;
  const Sparsity& s_;
  uint64_t element_;
  std::vector<int64_t> coords_;  // per expanded dimension (original dims, then block dims)
};

}  // namespace

Status PrepareDensify(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), in.type, "output"));
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), in.shape));
  if (!in.sparsity) return Status::Error("input is not a sparse constant");
  if (!ElementSize(in.type)) return Status::Error("element type has no fixed size");
  return Status::Ok();
}

Status EvalDensify(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareDensify(context));
  const RuntimeTensor& in = context.input(0);
  RuntimeTensor& out = context.output(0);
  std::memset(out.data, 0, out.bytes);
  SparseWalker walker(in, out, *ElementSize(in.type));
  TFA_RETURN_IF_ERROR(walker.Check());
  return walker.Walk(0, 0);
}

}  // namespace tfa::runtime
