#include "libanalysis/report/eigen_gemm_blocks.h"

#include <algorithm>

#include "libanalysis/core/checked_math.h"

namespace tfa {
namespace {

constexpr uint64_t kMr = 8;  // rows of the register block, floats (2 SSE packets)
constexpr uint64_t kNr = 4;  // columns of the register block
constexpr uint64_t kFloat = 4;
constexpr uint64_t kPeeling = 8;
constexpr uint64_t kActualL2 = 1572864;  // Eigen's fixed "L2" for the second level of blocking

// Eigen's `(a % b) == 0 ? b : b - step * ((b - 1 - a % b) / (step * (a / b + 1)))` shape: the block
// shrunk so that the last sweep is as full as possible, the number of sweeps unchanged. `minus_one`
// is whether Eigen subtracts 1 from b in the numerator (it does for k, not for m or n).
uint64_t EvenBlock(uint64_t total, uint64_t block, uint64_t step, bool minus_one) {
  if (total % block == 0) return block;
  const uint64_t numerator = block - (minus_one ? 1 : 0) - total % block;
  return block - step * (numerator / (step * (total / block + 1)));
}

bool Float32(const Tensor& t) { return t.type == TensorType::kFloat32; }

uint64_t Dim(int64_t d) { return d > 0 ? static_cast<uint64_t>(d) : 0; }

}  // namespace

EigenGemmBlocking EigenFloatGemmBlocking(uint64_t k, uint64_t m, uint64_t n, uint64_t l1_bytes) {
  if (k == 0 || m <= 1 || n <= 1) return {};
  // Eigen returns the sizes unchanged for small products: the blocks are the whole operands.
  if (std::max({k, m, n}) < 48) return {k, m, n};
  const uint64_t k_sub = kMr * kNr * kFloat;
  const uint64_t k_div = kMr * kFloat + kNr * kFloat;
  const uint64_t max_kc =
      l1_bytes > k_sub ? std::max<uint64_t>(((l1_bytes - k_sub) / k_div) & ~(kPeeling - 1), 1) : 1;
  const uint64_t old_k = k;
  if (k > max_kc) k = EvenBlock(k, max_kc, kPeeling, true);

  uint64_t max_nc = 0;
  const uint64_t lhs_bytes = m * k * kFloat;
  const uint64_t used_l1 = k_sub + lhs_bytes;
  if (l1_bytes > used_l1 && l1_bytes - used_l1 >= kNr * kFloat * k) {
    max_nc = (l1_bytes - used_l1) / (k * kFloat);  // the lhs block fits in L1
  } else {
    max_nc = (3 * kActualL2) / (2 * 2 * max_kc * kFloat);
  }
  const uint64_t nc = std::min(kActualL2 / (2 * k * kFloat), max_nc) & ~(kNr - 1);
  if (nc > 0 && n > nc) {
    n = EvenBlock(n, nc, kNr, false);
  } else if (old_k == k) {
    // Neither k nor n blocked: block the rows so that the lhs block stays in cache.
    const uint64_t problem = k * n * kFloat;
    uint64_t cache = kActualL2;
    uint64_t max_mc = m;
    if (problem <= 1024) {
      cache = l1_bytes;
    } else if (problem <= 32768) {
      cache = 1048576;  // Eigen's L2 default; the L3 is present on x86-64
      max_mc = std::min<uint64_t>(576, max_mc);
    }
    uint64_t mc = std::min(cache / (3 * k * kFloat), max_mc);
    if (mc > kMr) {
      mc -= mc % kMr;
    } else if (mc == 0) {
      return {k, m, n};
    }
    m = EvenBlock(m, mc, kMr, false);
  }
  return {k, m, n};
}

EigenGemmPeak EigenGemmBlockPeak(const Subgraph& graph) {
  EigenGemmPeak peak;
  for (int32_t index : graph.execution_plan) {
    const Node& node = graph.nodes[static_cast<size_t>(index)];
    const bool conv = node.op == "CONV_2D";
    if ((!conv && node.op != "FULLY_CONNECTED") || node.inputs.size() < 2 || node.outputs.empty() ||
        node.inputs[0] < 0 || node.inputs[1] < 0 || node.outputs[0] < 0) {
      continue;
    }
    const Tensor& input = graph.tensors[static_cast<size_t>(node.inputs[0])];
    const Tensor& filter = graph.tensors[static_cast<size_t>(node.inputs[1])];
    const Tensor& output = graph.tensors[static_cast<size_t>(node.outputs[0])];
    if (!Float32(input) || !Float32(filter) || !Float32(output) || output.shape.empty()) continue;
    uint64_t k = 1;
    if (conv) {
      if (filter.shape.size() != 4) continue;
      for (size_t d = 1; d < 4; ++d) k = CheckedMul(k, Dim(filter.shape[d])).value_or(0);
    } else {
      if (filter.shape.size() != 2) continue;
      k = Dim(filter.shape[1]);
    }
    const uint64_t m = Dim(filter.shape[0]);
    uint64_t n = 1;
    for (size_t d = 0; d + 1 < output.shape.size(); ++d)
      n = CheckedMul(n, Dim(output.shape[d])).value_or(0);
    if (!conv && output.shape.back() > 0 && m > 0) {
      // FULLY_CONNECTED's batches: the output's elements over its units.
      n = CheckedMul(n, Dim(output.shape.back())).value_or(0) / m;
    }
    const EigenGemmBlocking blocking = EigenFloatGemmBlocking(k, m, n);
    if (blocking.bytes() > peak.bytes) peak = {blocking.bytes(), index, k, m, n};
  }
  return peak;
}

}  // namespace tfa
