#include "runtime/kernels/cpu/basic_lstm.h"

#include <gemmlowp/fixedpoint/fixedpoint.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "runtime/kernels/cpu/gemm.h"
#include "runtime/kernels/cpu/kernel_util.h"
#include "runtime/kernels/cpu/quantized_arithmetic.h"
#include "runtime/kernels/cpu/quantized_gemm.h"

namespace tfa::runtime {
namespace {

// Upstream's tensor positions (lstm.cc, basic::InputTensor and OutputTensor).
constexpr size_t kInput = 0, kPrevActivation = 1, kWeights = 2, kBias = 3, kPrevState = 4;
constexpr size_t kActivation = 0, kState = 1, kConcat = 2, kGates = 3;

// The only state format upstream's quantized cell is instantiated for (LstmCell<4>).
constexpr int kStateIntegerBits = 4;

struct BasicLstmPlan {
  int32_t batch = 0;
  int32_t input_depth = 0;
  int32_t depth = 0;  // the activation's and the state's
  bool quantized = false;
  // uint8 only: the weights' zero point and 4096 * bias scale as a fixed-point multiplier.
  int32_t weights_zero_point = 0;
  QuantizedMultiplier accumulator_multiplier;

  int32_t total_depth() const { return input_depth + depth; }
  int32_t gate_depth() const { return 4 * depth; }
};

Status ExpectDim(const RuntimeTensor& t, int dim, int32_t expected, const char* role,
                 const char* what) {
  if (t.Dim(dim) == expected) return Status::Ok();
  return Status::Error(std::string(role) + " has shape " + ShapeString(t.shape) + ": dimension " +
                       std::to_string(dim) + " must be " + std::to_string(expected) + " (" + what +
                       ")");
}

// The per-tensor scale and zero point upstream's kernels read from TfLiteTensor::params: those of
// a tensor quantized with one scale, zero otherwise.
float LegacyScale(const RuntimeTensor& t) {
  return t.quantization && t.quantization->scale.size() == 1 ? t.quantization->scale[0] : 0.0f;
}
int32_t LegacyZeroPoint(const RuntimeTensor& t) {
  return t.quantization && t.quantization->scale.size() == 1 &&
                 t.quantization->zero_point.size() == 1
             ? static_cast<int32_t>(t.quantization->zero_point[0])
             : 0;
}

constexpr const char* kInputRoles[5] = {"input", "previous activation", "weights", "bias",
                                        "previous state"};
constexpr const char* kOutputRoles[4] = {"activation output", "state output",
                                         "concatenation output", "gates output"};

// Upstream's Eval takes exactly two combinations of the nine tensors' types, chosen by the input.
Status CheckTypes(const KernelContext& context, bool quantized) {
  using T = TensorType;
  const T inputs[5] = {quantized ? T::kUInt8 : T::kFloat32, quantized ? T::kUInt8 : T::kFloat32,
                       quantized ? T::kUInt8 : T::kFloat32, quantized ? T::kInt32 : T::kFloat32,
                       quantized ? T::kInt16 : T::kFloat32};
  const T outputs[4] = {quantized ? T::kUInt8 : T::kFloat32, quantized ? T::kInt16 : T::kFloat32,
                        quantized ? T::kUInt8 : T::kFloat32, quantized ? T::kInt16 : T::kFloat32};
  const std::string kind = quantized ? "uint8" : "float32";
  const auto check = [&kind](const RuntimeTensor& t, T expected, const char* role) {
    if (t.type == expected) return Status::Ok();
    return Status::Error(std::string(role) + " is " + TensorTypeName(t.type) + " where the " +
                         kind + " basic kernel needs " + TensorTypeName(expected) +
                         " (upstream's LstmCell has no other combination)");
  };
  for (size_t i = 1; i < 5; ++i)
    TFA_RETURN_IF_ERROR(check(context.input(i), inputs[i], kInputRoles[i]));
  for (size_t i = 0; i < 4; ++i)
    TFA_RETURN_IF_ERROR(check(context.output(i), outputs[i], kOutputRoles[i]));
  return Status::Ok();
}

// Upstream's basic::Prepare (arity, ranks, the dimensions chaining, the four output shapes it
// resizes to), then what its Eval refuses (the types, the quantized state's format).
Result<BasicLstmPlan> Plan(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 5, 5, 4));
  const RuntimeTensor& input = context.input(kInput);
  const RuntimeTensor& prev_activation = context.input(kPrevActivation);
  const RuntimeTensor& weights = context.input(kWeights);
  const RuntimeTensor& bias = context.input(kBias);
  const RuntimeTensor& prev_state = context.input(kPrevState);
  BasicLstmPlan p;
  TFA_RETURN_IF_ERROR(CheckRank(input, 2, "input"));
  p.batch = input.Dim(0);
  p.input_depth = input.Dim(1);
  TFA_RETURN_IF_ERROR(CheckRank(prev_activation, 2, "previous activation"));
  TFA_RETURN_IF_ERROR(
      ExpectDim(prev_activation, 0, p.batch, "previous activation", "the input's batch"));
  p.depth = prev_activation.Dim(1);
  TFA_RETURN_IF_ERROR(CheckRank(weights, 2, "weights"));
  TFA_RETURN_IF_ERROR(ExpectDim(weights, 0, p.gate_depth(), "weights", "4 x activation depth"));
  TFA_RETURN_IF_ERROR(
      ExpectDim(weights, 1, p.total_depth(), "weights", "input depth + activation depth"));
  TFA_RETURN_IF_ERROR(CheckRank(bias, 1, "bias"));
  TFA_RETURN_IF_ERROR(ExpectDim(bias, 0, p.gate_depth(), "bias", "4 x activation depth"));
  TFA_RETURN_IF_ERROR(CheckRank(prev_state, 2, "previous state"));
  TFA_RETURN_IF_ERROR(ExpectDim(prev_state, 0, p.batch, "previous state", "the input's batch"));
  TFA_RETURN_IF_ERROR(ExpectDim(prev_state, 1, p.depth, "previous state", "activation depth"));
  const std::vector<int32_t> computed[4] = {prev_activation.shape,
                                            prev_state.shape,
                                            {p.batch, p.total_depth()},
                                            {p.batch, p.gate_depth()}};
  for (size_t i = 0; i < 4; ++i) {
    TFA_RETURN_IF_ERROR(
        CheckOutputShape(context.output(i), computed[i]).WithContext(kOutputRoles[i]));
  }
  if (input.type != TensorType::kFloat32 && input.type != TensorType::kUInt8) {
    return Status::Error(std::string("input is ") + TensorTypeName(input.type) +
                         ": the basic kernel runs float32 or uint8 input only (upstream's "
                         "LstmCell has no other)");
  }
  p.quantized = input.type == TensorType::kUInt8;
  TFA_RETURN_IF_ERROR(CheckTypes(context, p.quantized));
  if (!p.quantized) return p;
  const std::optional<int> state_log2 = CheckedLog2(LegacyScale(context.output(kState)));
  if (!state_log2) {
    return Status::Error(
        "the state output's scale is not a power of two (upstream: the internal state of a LSTM "
        "cell must have a power-of-two scale)");
  }
  if (15 + *state_log2 != kStateIntegerBits) {
    return Status::Error("the state output's scale 2^" + std::to_string(*state_log2) +
                         " gives it " + std::to_string(15 + *state_log2) +
                         " integer bits; upstream's quantized LstmCell takes 4 only (2^-11)");
  }
  p.weights_zero_point = LegacyZeroPoint(weights);
  p.accumulator_multiplier = QuantizeMultiplier(4096.0 * LegacyScale(bias));
  return p;
}

// Upstream runs the fast GEMM (gemmlowp) for the uint8 product; a few rows go through the loop.
bool QuantizedProductOnGemm(const BasicLstmPlan& p) { return p.batch >= kMinQuantizedGemmRows; }

template <typename T>
void Concatenate(const KernelContext& context, const BasicLstmPlan& p) {
  const T* input = context.input(kInput).Data<const T>();
  const T* prev_activation = context.input(kPrevActivation).Data<const T>();
  T* concat = context.output(kConcat).Data<T>();
  for (int32_t b = 0; b < p.batch; ++b) {
    T* row = concat + static_cast<int64_t>(b) * p.total_depth();
    std::copy_n(input + static_cast<int64_t>(b) * p.input_depth, p.input_depth, row);
    std::copy_n(prev_activation + static_cast<int64_t>(b) * p.depth, p.depth, row + p.input_depth);
  }
}

// Upstream's Eval ends by copying the new activation and state over the two state inputs.
template <typename Activation, typename State>
void CarryStateOver(const KernelContext& context, const BasicLstmPlan& p) {
  const int64_t elements = static_cast<int64_t>(p.batch) * p.depth;
  std::copy_n(context.output(kActivation).Data<const Activation>(), elements,
              context.input(kPrevActivation).Data<Activation>());
  std::copy_n(context.output(kState).Data<const State>(), elements,
              context.input(kPrevState).Data<State>());
}

// The float cell of reference_ops::LstmCell, element by element.
void FloatCellReference(const KernelContext& context, const BasicLstmPlan& p) {
  const float* gates = context.output(kGates).Data<const float>();
  const float* prev_state = context.input(kPrevState).Data<const float>();
  float* state = context.output(kState).Data<float>();
  float* activation = context.output(kActivation).Data<float>();
  const auto sigmoid = [](float x) { return 1.0f / (1.0f + std::exp(-x)); };
  const int32_t d = p.depth;
  for (int32_t b = 0; b < p.batch; ++b) {
    const float* g = gates + static_cast<int64_t>(b) * p.gate_depth();
    for (int32_t c = 0; c < d; ++c) {
      const int64_t at = static_cast<int64_t>(b) * d + c;
      const float new_state =
          sigmoid(g[c]) * std::tanh(g[d + c]) + sigmoid(g[2 * d + c]) * prev_state[at];
      state[at] = new_state;
      activation[at] = sigmoid(g[3 * d + c]) * std::tanh(new_state);
    }
  }
}

// The float cell as optimized_ops::LstmCell computes it: Eigen's logistic and tanh a row at a time.
void FloatCell(const KernelContext& context, const BasicLstmPlan& p) {
  using ConstRow = Eigen::Map<const Eigen::ArrayXf>;
  using Row = Eigen::Map<Eigen::ArrayXf>;
  const float* gates = context.output(kGates).Data<const float>();
  const float* prev_state = context.input(kPrevState).Data<const float>();
  float* state = context.output(kState).Data<float>();
  float* activation = context.output(kActivation).Data<float>();
  const int32_t d = p.depth;
  for (int32_t b = 0; b < p.batch; ++b) {
    const float* g = gates + static_cast<int64_t>(b) * p.gate_depth();
    const int64_t at = static_cast<int64_t>(b) * d;
    const ConstRow input_gate(g, d), input_modulation(g + d, d), forget_gate(g + 2 * d, d),
        output_gate(g + 3 * d, d), previous(prev_state + at, d);
    Row new_state(state + at, d);
    new_state = input_gate.logistic() * input_modulation.tanh() + forget_gate.logistic() * previous;
    Row(activation + at, d) = output_gate.logistic() * new_state.tanh();
  }
}

// The 16-bit fixed-point cell of reference_ops::LstmCell<4>, on gemmlowp's own fixed point (as
// upstream's): gates with 3 integer bits in, the state with 4, the activation rounded to 8 bits.
void QuantizedCell(const KernelContext& context, const BasicLstmPlan& p) {
  using F0 = gemmlowp::FixedPoint<int16_t, 0>;
  using F3 = gemmlowp::FixedPoint<int16_t, 3>;
  using FS = gemmlowp::FixedPoint<int16_t, kStateIntegerBits>;
  const int16_t* gates = context.output(kGates).Data<const int16_t>();
  const int16_t* prev_state = context.input(kPrevState).Data<const int16_t>();
  int16_t* state = context.output(kState).Data<int16_t>();
  uint8_t* activation = context.output(kActivation).Data<uint8_t>();
  const int32_t d = p.depth;
  for (int32_t b = 0; b < p.batch; ++b) {
    const int16_t* g = gates + static_cast<int64_t>(b) * p.gate_depth();
    for (int32_t c = 0; c < d; ++c) {
      const int64_t at = static_cast<int64_t>(b) * d + c;
      const F0 input_gate = gemmlowp::logistic(F3::FromRaw(g[c]));
      const F0 input_modulation = gemmlowp::tanh(F3::FromRaw(g[d + c]));
      const F0 forget_gate = gemmlowp::logistic(F3::FromRaw(g[2 * d + c]));
      const F0 output_gate = gemmlowp::logistic(F3::FromRaw(g[3 * d + c]));
      const FS kept = forget_gate * FS::FromRaw(prev_state[at]);
      const FS new_state = gemmlowp::SaturatingAdd(
          gemmlowp::Rescale<kStateIntegerBits>(input_gate * input_modulation), kept);
      // Upstream takes the tanh with 3 integer bits, the one it already instantiated.
      const F0 output = output_gate * gemmlowp::tanh(gemmlowp::Rescale<3>(new_state));
      state[at] = new_state.raw();
      const int16_t rescaled = gemmlowp::RoundingDivideByPOT(output.raw(), 8);
      activation[at] = static_cast<uint8_t>(128 + std::clamp<int16_t>(rescaled, -128, 127));
    }
  }
}

// The int32 accumulator of one gate to the 16-bit, 3-integer-bit format of the cell's input.
int16_t GateFromAccumulator(uint32_t accumulator, const BasicLstmPlan& p) {
  const int32_t scaled =
      MultiplyByQuantizedMultiplier(static_cast<int32_t>(accumulator), p.accumulator_multiplier);
  return static_cast<int16_t>(std::clamp(scaled, -32768, 32767));
}

// The uint8 product, as reference_ops::LstmCell<4>'s loop: (concat - 128) . (weights - zero
// point) from the bias, in int32 (wrapping, as the sums of a GEMM do).
void QuantizedGatesReference(const KernelContext& context, const BasicLstmPlan& p) {
  const uint8_t* concat = context.output(kConcat).Data<const uint8_t>();
  const uint8_t* weights = context.input(kWeights).Data<const uint8_t>();
  const int32_t* bias = context.input(kBias).Data<const int32_t>();
  int16_t* gates = context.output(kGates).Data<int16_t>();
  const int32_t k = p.total_depth();
  for (int32_t b = 0; b < p.batch; ++b) {
    for (int32_t o = 0; o < p.gate_depth(); ++o) {
      auto accumulator = static_cast<uint32_t>(bias[o]);
      for (int32_t i = 0; i < k; ++i) {
        const int32_t x = int32_t{concat[static_cast<int64_t>(b) * k + i]} - 128;
        const int32_t w = int32_t{weights[static_cast<int64_t>(o) * k + i]} - p.weights_zero_point;
        accumulator += static_cast<uint32_t>(x * w);
      }
      gates[static_cast<int64_t>(b) * p.gate_depth() + o] = GateFromAccumulator(accumulator, p);
    }
  }
}

void QuantizedGates(const KernelContext& context, const BasicLstmPlan& p) {
  if (!QuantizedProductOnGemm(p)) {
    QuantizedGatesReference(context, p);
    return;
  }
  auto* accumulators = reinterpret_cast<int32_t*>(context.scratch);
  QuantizedGemm({p.batch, p.gate_depth(), p.total_depth()},
                context.output(kConcat).Data<const uint8_t>(), -128,
                context.input(kWeights).Data<const uint8_t>(), -p.weights_zero_point, accumulators);
  const int32_t* bias = context.input(kBias).Data<const int32_t>();
  int16_t* gates = context.output(kGates).Data<int16_t>();
  for (int32_t b = 0; b < p.batch; ++b) {
    for (int32_t o = 0; o < p.gate_depth(); ++o) {
      const int64_t at = static_cast<int64_t>(b) * p.gate_depth() + o;
      gates[at] = GateFromAccumulator(
          static_cast<uint32_t>(accumulators[at]) + static_cast<uint32_t>(bias[o]), p);
    }
  }
}

void FloatGatesReference(const KernelContext& context, const BasicLstmPlan& p) {
  const float* concat = context.output(kConcat).Data<const float>();
  const float* weights = context.input(kWeights).Data<const float>();
  const float* bias = context.input(kBias).Data<const float>();
  float* gates = context.output(kGates).Data<float>();
  const int32_t k = p.total_depth();
  for (int32_t b = 0; b < p.batch; ++b) {
    for (int32_t o = 0; o < p.gate_depth(); ++o) {
      float total = 0.0f;
      for (int32_t i = 0; i < k; ++i)
        total += concat[static_cast<int64_t>(b) * k + i] * weights[static_cast<int64_t>(o) * k + i];
      gates[static_cast<int64_t>(b) * p.gate_depth() + o] = total + bias[o];
    }
  }
}

void FloatGates(const KernelContext& context, const BasicLstmPlan& p) {
  const int64_t k = p.total_depth(), n = p.gate_depth();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  GemmTransposedB({p.batch, n, k, k, k, n}, context.output(kConcat).Data<const float>(),
                  context.input(kWeights).Data<const float>(),
                  context.input(kBias).Data<const float>(), -kInf, kInf,
                  context.output(kGates).Data<float>(), context.thread_pool);
}

template <bool kReference>
Status Eval(KernelContext& context) {
  auto p = Plan(context);
  if (!p.ok()) return p.status();
  if (static_cast<int64_t>(p->batch) * p->gate_depth() == 0) return Status::Ok();
  if (p->quantized) {
    Concatenate<uint8_t>(context, *p);
    if (kReference) {
      QuantizedGatesReference(context, *p);
    } else {
      QuantizedGates(context, *p);
    }
    QuantizedCell(context, *p);
    CarryStateOver<uint8_t, int16_t>(context, *p);
    return Status::Ok();
  }
  Concatenate<float>(context, *p);
  if (kReference) {
    FloatGatesReference(context, *p);
    FloatCellReference(context, *p);
  } else {
    FloatGates(context, *p);
    FloatCell(context, *p);
  }
  CarryStateOver<float, float>(context, *p);
  return Status::Ok();
}

}  // namespace

bool IsBasicLstm(const KernelContext& context) {
  return context.node->op == "LSTM" && context.options().lstm_basic_kernel;
}

Status PrepareBasicLstm(KernelContext& context) {
  auto p = Plan(context);
  if (!p.ok()) return p.status();
  context.scratch_bytes = p->quantized && QuantizedProductOnGemm(*p)
                              ? static_cast<uint64_t>(p->batch) * p->gate_depth() * sizeof(int32_t)
                              : 0;
  return Status::Ok();
}

Status EvalBasicLstm(KernelContext& context) { return Eval<false>(context); }

Status EvalBasicLstmReference(KernelContext& context) { return Eval<true>(context); }

}  // namespace tfa::runtime
