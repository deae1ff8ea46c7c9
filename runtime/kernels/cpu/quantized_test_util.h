// Test support for the int8/uint8 kernels: quantized tensors for KernelRunner, and the float
// reference a quantized kernel must agree with (dequantize, run the float kernel, quantize).
#ifndef RUNTIME_KERNELS_CPU_QUANTIZED_TEST_UTIL_H_
#define RUNTIME_KERNELS_CPU_QUANTIZED_TEST_UTIL_H_

#include <cmath>
#include <cstdint>
#include <deque>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime::testing {

// Stored values of an int8, uint8 or int32 tensor with their quantization.
struct QuantizedValues {
  TensorType type = TensorType::kInt8;
  std::vector<int32_t> shape;
  std::vector<int32_t> values;
  Quantization quantization;

  // Real values, per channel along quantized_dimension when there are several scales.
  std::vector<float> Dequantized() const {
    std::vector<float> real(values.size());
    int64_t inner = 1;
    const auto dim = static_cast<size_t>(quantization.quantized_dimension);
    for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
    for (size_t i = 0; i < values.size(); ++i) {
      const size_t c = quantization.scale.size() > 1
                           ? static_cast<size_t>((static_cast<int64_t>(i) / inner) % shape[dim])
                           : 0;
      const int64_t zp = quantization.zero_point.empty() ? 0 : quantization.zero_point[c];
      real[i] = static_cast<float>(values[i] - zp) * quantization.scale[c];
    }
    return real;
  }
};

inline Quantization PerTensor(float scale, int64_t zero_point) {
  Quantization q;
  q.scale = {scale};
  q.zero_point = {zero_point};
  return q;
}

// Keeps the quantizations the runner's tensors point at alive for the test.
class QuantizedRunner {
 public:
  explicit QuantizedRunner(std::string op) : runner_(std::move(op)) {}

  KernelRunner& runner() { return runner_; }

  RuntimeTensor& AddInput(const QuantizedValues& v) {
    RuntimeTensor* t = nullptr;
    if (v.type == TensorType::kInt8) {
      t = &runner_.AddInput(v.type, v.shape, std::vector<int8_t>(v.values.begin(), v.values.end()));
    } else if (v.type == TensorType::kUInt8) {
      t = &runner_.AddInput(v.type, v.shape,
                            std::vector<uint8_t>(v.values.begin(), v.values.end()));
    } else if (v.type == TensorType::kInt16) {
      t = &runner_.AddInput(v.type, v.shape,
                            std::vector<int16_t>(v.values.begin(), v.values.end()));
    } else {
      t = &runner_.AddInput(v.type, v.shape, v.values);
    }
    t->quantization = &quantizations_.emplace_back(v.quantization);
    return *t;
  }
  RuntimeTensor& AddOutput(TensorType type, std::vector<int32_t> shape, Quantization q) {
    RuntimeTensor& t = runner_.AddOutput(type, std::move(shape));
    t.quantization = &quantizations_.emplace_back(std::move(q));
    return t;
  }
  // Stored output values as int32.
  std::vector<int32_t> Output(TensorType type) const {
    if (type == TensorType::kInt8) {
      const auto v = runner_.Output<int8_t>();
      return {v.begin(), v.end()};
    }
    if (type == TensorType::kInt16) {
      const auto v = runner_.Output<int16_t>();
      return {v.begin(), v.end()};
    }
    const auto v = runner_.Output<uint8_t>();
    return {v.begin(), v.end()};
  }

 private:
  KernelRunner runner_;
  std::deque<Quantization> quantizations_;
};

// round(x / scale) + zero_point within the type's range, as a quantizer would store x.
inline std::vector<int32_t> Quantize(const std::vector<float>& real, float scale,
                                     int32_t zero_point, TensorType type) {
  const int32_t lo = type == TensorType::kUInt8 ? 0 : (type == TensorType::kInt16 ? -32768 : -128);
  const int32_t hi = type == TensorType::kUInt8 ? 255 : (type == TensorType::kInt16 ? 32767 : 127);
  std::vector<int32_t> q(real.size());
  for (size_t i = 0; i < real.size(); ++i) {
    const auto v = static_cast<int32_t>(std::lround(real[i] / scale)) + zero_point;
    q[i] = std::min(std::max(v, lo), hi);
  }
  return q;
}

// (stored - zero_point) * scale for each stored value.
inline std::vector<float> Dequantize(const std::vector<int32_t>& stored, float scale,
                                     int32_t zero_point) {
  std::vector<float> real(stored.size());
  for (size_t i = 0; i < stored.size(); ++i)
    real[i] = static_cast<float>(stored[i] - zero_point) * scale;
  return real;
}

// Deterministic stored values in [lo, hi] for test tensors.
inline std::vector<int32_t> PseudoRandomValues(size_t n, int32_t lo, int32_t hi, uint64_t seed) {
  std::vector<int32_t> v(n);
  uint64_t state = seed;
  for (auto& x : v) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x = lo + static_cast<int32_t>((state >> 33) % static_cast<uint64_t>(hi - lo + 1));
  }
  return v;
}

}  // namespace tfa::runtime::testing

#endif  // RUNTIME_KERNELS_CPU_QUANTIZED_TEST_UTIL_H_
