#include "libanalysis/tflm/signal_kernels.h"

#include <flatbuffers/flexbuffers.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/tensor_type.h"
#include "libanalysis/tflm/kernel_prepare_check_helpers.h"

namespace tfa::tflm {
namespace {

using F = Field;
using T = TensorType;
using prepare_checks::At;
using prepare_checks::Failure;
using prepare_checks::NotEqual;
using prepare_checks::Rank;
using prepare_checks::TypeNamesNotEqual;

struct SignalOp {
  std::string_view op;
  std::string_view resolver_method;
  std::string_view source;
};

// micro_mutable_op_resolver.h: every AddCustom of the signal library, with its custom op name.
constexpr std::array kSignalOps = {
    SignalOp{"SignalDelay", "AddDelay", "signal/micro/kernels/delay.cc"},
    SignalOp{"SignalEnergy", "AddEnergy", "signal/micro/kernels/energy.cc"},
    SignalOp{"SignalFftAutoScale", "AddFftAutoScale",
             "signal/micro/kernels/fft_auto_scale_common.cc, fft_auto_scale_kernel.cc"},
    SignalOp{"SignalFilterBank", "AddFilterBank", "signal/micro/kernels/filter_bank.cc"},
    SignalOp{"SignalFilterBankLog", "AddFilterBankLog", "signal/micro/kernels/filter_bank_log.cc"},
    SignalOp{"SignalFilterBankSpectralSubtraction", "AddFilterBankSpectralSubtraction",
             "signal/micro/kernels/filter_bank_spectral_subtraction.cc"},
    SignalOp{"SignalFilterBankSquareRoot", "AddFilterBankSquareRoot",
             "signal/micro/kernels/filter_bank_square_root.cc, filter_bank_square_root_common.cc"},
    SignalOp{"SignalFramer", "AddFramer", "signal/micro/kernels/framer.cc"},
    SignalOp{"SignalIrfft", "AddIrfft", "signal/micro/kernels/irfft.cc"},
    SignalOp{"SignalOverlapAdd", "AddOverlapAdd", "signal/micro/kernels/overlap_add.cc"},
    SignalOp{"SignalPCAN", "AddPCAN", "signal/micro/kernels/pcan.cc"},
    SignalOp{"SignalRfft", "AddRfft", "signal/micro/kernels/rfft.cc"},
    SignalOp{"SignalStacker", "AddStacker", "signal/micro/kernels/stacker.cc"},
    SignalOp{"SignalWindow", "AddWindow", "signal/micro/kernels/window.cc"},
};

const SignalOp* FindSignalOp(std::string_view op) {
  for (const SignalOp& entry : kSignalOps) {
    if (entry.op == op) return &entry;
  }
  return nullptr;
}

// The custom options as the kernels read them: FlexbufferWrapper(buffer).ElementAsInt32(i) is
// the i-th value of the root map, whose keys flexbuffers keeps sorted; the type-generic kernels
// also look up "T" by name. Upstream reads the bytes unverified and reinterprets whatever value
// sits at an index; here the map is verified and a value that is not an inline integer is
// refused.
class SignalOptions {
 public:
  static Result<SignalOptions> Read(const Node& node) {
    const std::vector<uint8_t>& bytes = node.options->custom_options;
    if (bytes.empty() && node.options->custom_options_size != 0) {
      return Status::Error(node.op +
                           "'s custom options are read from a .tflite file; give the model as "
                           ".tflite for --target tflm");
    }
    flexbuffers::Verifier verifier(bytes.data(), bytes.size(), /*reuse_tracker=*/nullptr,
                                   /*_check_alignment=*/false);
    if (bytes.empty() || !verifier.VerifyBuffer()) {
      return Status::Error(node.op + "'s custom options are not a valid flexbuffer (" +
                           std::to_string(bytes.size()) + " bytes)");
    }
    const flexbuffers::Reference root = flexbuffers::GetRoot(bytes.data(), bytes.size());
    if (!root.IsMap()) return Status::Error(node.op + "'s custom options are not a flexbuffer map");
    return SignalOptions(node.op, root.AsMap());
  }

  // The integer at `index` (`key` is the option the kernel means to read there).
  Result<int32_t> Int(size_t index, std::string_view key) const {
    const flexbuffers::Vector values = map_.Values();
    if (index >= values.size()) {
      return Error(key, "is missing: the map has " + std::to_string(values.size()) +
                            " values and the kernel reads value " + std::to_string(index));
    }
    const flexbuffers::Reference value = values[index];
    const flexbuffers::Type type = value.GetType();
    if (type != flexbuffers::FBT_INT && type != flexbuffers::FBT_UINT &&
        type != flexbuffers::FBT_BOOL) {
      return Error(key, "(value " + std::to_string(index) + ", key '" + map_.Keys()[index].AsKey() +
                            "') is not an integer");
    }
    const int64_t wide = value.AsInt64();
    if (wide < std::numeric_limits<int32_t>::min() || wide > std::numeric_limits<int32_t>::max()) {
      return Error(key, "(" + std::to_string(wide) + ") does not fit int32");
    }
    return static_cast<int32_t>(wide);
  }

  // m["T"].AsInt32(): the tensor type a type-generic kernel is built for (0, FLOAT32, when the
  // key is missing, as upstream reads it); nullopt for a value no TensorType has.
  std::optional<TensorType> Type() const { return TensorTypeFromSchemaValue(map_["T"].AsInt32()); }
  // The same, for messages.
  std::string TypeText() const {
    const auto type = Type();
    return type ? prepare_checks::TypeName(*type) : std::to_string(map_["T"].AsInt32());
  }

  Status Error(std::string_view key, const std::string& why) const {
    return Status::Error(op_ + "'s option " + std::string(key) + " " + why);
  }

 private:
  SignalOptions(std::string op, flexbuffers::Map map) : op_(std::move(op)), map_(map) {}

  std::string op_;
  flexbuffers::Map map_;
};

// Reads each option at its index, so that a map the kernel cannot read is refused even where
// the value does not size anything.
Status ReadsIntegers(const SignalOptions& options,
                     std::initializer_list<std::pair<size_t, std::string_view>> keys) {
  for (const auto& [index, key] : keys) {
    if (auto value = options.Int(index, key); !value.ok()) return value.status();
  }
  return Status::Ok();
}

uint64_t ElementCount(const Tensor* tensor) {
  uint64_t count = 1;
  for (int32_t dim : tensor->shape) {
    auto product = CheckedMul(count, dim < 0 ? 0 : static_cast<uint64_t>(dim));
    if (!product) return std::numeric_limits<uint64_t>::max() / 16;
    count = *product;
  }
  return count;
}

// signal/src/circular_buffer.cc CircularBufferGetNeededMemory: the CircularBuffer struct
// (three size_t, two int32, the int16 pointer) and two int16 per element of capacity.
uint64_t CircularBufferBytes(const Build& build, uint64_t capacity) {
  return StructLayout(build, {F::kSizeT, F::kSizeT, F::kSizeT, F::kInt32, F::kInt32, F::kPointer})
             .size +
         4 * capacity;
}

// kiss_fftr_alloc (kissfft v130, which TFLM downloads): kiss_fftr_state (three pointers), the
// complex FFT of half the length (kiss_fft_state: nfft, inverse, factors[64], one twiddle; then
// half - 1 more twiddles), and 3/2 of half the length of complex scratch and super twiddles.
uint64_t KissFftrBytes(const Build& build, uint64_t fft_length, uint64_t complex_bytes) {
  const uint64_t half = fft_length / 2;
  const uint64_t kiss_fft_state = 4 + 4 + 64 * 4 + complex_bytes;
  return 3 * PointerSize(build.target) + kiss_fft_state + complex_bytes * (half - 1) +
         complex_bytes * (half * 3 / 2);
}

// The scalar of a type-generic FFT kernel: the bytes of one real value.
std::optional<uint64_t> FftScalarBytes(TensorType type) {
  if (type == T::kInt16) return 2;
  if (type == T::kInt32 || type == T::kFloat32) return 4;
  return std::nullopt;
}

Result<KernelRequests> FftRequests(const Build& build, const Node& node,
                                   const SignalOptions& options, bool inverse) {
  const TensorType type = options.Type().value_or(T::kString);
  const auto scalar = FftScalarBytes(type);
  if (!scalar) {
    return Status::Error(node.op + "'s T is " + options.TypeText() +
                         ": its Init returns no user data for a type but INT16, INT32 and FLOAT32, "
                         "and Prepare then reads it (" +
                         std::string(inverse ? "irfft.cc" : "rfft.cc") + ")");
  }
  auto fft_length = options.Int(1, "fft_length");
  if (!fft_length.ok()) return fft_length.status();
  if (*fft_length <= 0 || *fft_length % 2 != 0) {
    return options.Error("fft_length", "(" + std::to_string(*fft_length) +
                                           ") is not a positive even number: kiss_fftr_alloc "
                                           "allocates no state for it");
  }
  KernelRequests requests;
  // TfLiteAudioFrontendRfftParams<T> / TfLiteAudioFrontendIrfftParams: four int32 lengths, the
  // TfLiteType; the forward one also the work area pointer and the scratch index; the state.
  requests.op_data = inverse ? StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                                    F::kInt32, F::kPointer})
                                   .size
                             : StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                                                    F::kInt32, F::kPointer, F::kInt32, F::kPointer})
                                   .size;
  const uint64_t length = static_cast<uint64_t>(*fft_length);
  uint64_t state = KissFftrBytes(build, length, 2 * *scalar);
  // irfft_float.cc keeps IrfftFloatState {fft_length, cfg pointer} in front of the kiss state.
  if (inverse && type == T::kFloat32) state += StructLayout(build, {F::kInt32, F::kPointer}).size;
  requests.init_buffers = {state};
  // rfft.cc Prepare: the zero-padded input frame, fft_length values of T.
  if (!inverse) requests.scratch_buffers = {length * *scalar};
  return requests;
}

// The last dimension and the product of the others, as delay.cc and framer.cc split the input;
// an error where TFLM would read dimension -1 or divide by zero.
Result<std::pair<uint64_t, uint64_t>> InnermostAndOuter(const Node& node, const Tensor* input) {
  if (input == nullptr || input->shape.empty() || input->shape.back() <= 0) {
    return Status::Error(node.op +
                         ": an input without a positive last dimension; TFLite Micro's "
                         "Prepare divides its size by it");
  }
  const uint64_t innermost = static_cast<uint64_t>(input->shape.back());
  return std::pair{innermost, ElementCount(input) / innermost};
}

// Delay and framer keep a pointer array twice (state buffers, circular buffers), then a
// circular buffer per outer row. Bounded: a row count from a hostile shape must not become a
// list of that many allocations.
constexpr uint64_t kMaxStateRows = 1 << 16;

Status AddCircularBufferRows(const Build& build, const Node& node, uint64_t rows, uint64_t capacity,
                             KernelRequests& requests) {
  if (rows > kMaxStateRows) {
    return Status::Error(node.op + ": " + std::to_string(rows) +
                         " input rows, each with its own state buffer in the tail; more than " +
                         std::to_string(kMaxStateRows) + " is not modelled");
  }
  const uint64_t pointer = PointerSize(build.target);
  requests.persistent_buffers = {rows * pointer, rows * pointer};
  requests.persistent_buffers.insert(requests.persistent_buffers.end(), rows,
                                     CircularBufferBytes(build, capacity));
  return Status::Ok();
}

Result<KernelRequests> DelayRequests(const Build& build, const Subgraph& g, const Node& node,
                                     const SignalOptions& options) {
  auto delay_length = options.Int(0, "delay_length");
  if (!delay_length.ok()) return delay_length.status();
  if (*delay_length < 0) return options.Error("delay_length", "is negative");
  auto split = InnermostAndOuter(node, At(g, node.inputs, 0));
  if (!split.ok()) return split.status();
  KernelRequests requests;
  // TFLMSignalFrontendDelayParams: frame size, delay length, outer dims, two pointer arrays.
  requests.op_data =
      StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kPointer, F::kPointer}).size;
  const auto [frame_size, rows] = *split;
  const uint64_t capacity = frame_size + static_cast<uint64_t>(*delay_length);
  if (Status rows_status = AddCircularBufferRows(build, node, rows, capacity, requests);
      !rows_status.ok()) {
    return rows_status;
  }
  return requests;
}

Result<KernelRequests> FramerRequests(const Build& build, const Subgraph& g, const Node& node,
                                      const SignalOptions& options) {
  auto frame_size = options.Int(0, "frame_size");
  if (!frame_size.ok()) return frame_size.status();
  auto frame_step = options.Int(1, "frame_step");
  if (!frame_step.ok()) return frame_step.status();
  if (Status prefill = ReadsIntegers(options, {{2, "prefill"}}); !prefill.ok()) return prefill;
  if (*frame_size < 0) return options.Error("frame_size", "is negative");
  if (*frame_step <= 0) {
    return options.Error("frame_step", "(" + std::to_string(*frame_step) +
                                           ") is not positive: framer.cc's Prepare divides by it");
  }
  auto split = InnermostAndOuter(node, At(g, node.inputs, 0));
  if (!split.ok()) return split.status();
  KernelRequests requests;
  // TFLMSignalFramerParams: frame size and step, outer dims, frame count, prefill, two pointer
  // arrays.
  requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kBool,
                                          F::kPointer, F::kPointer})
                         .size;
  // The capacity is the frame size rounded up to a multiple of the step.
  const uint64_t step = static_cast<uint64_t>(*frame_step);
  const uint64_t capacity = (static_cast<uint64_t>(*frame_size) + step - 1) / step * step;
  if (Status rows_status = AddCircularBufferRows(build, node, split->second, capacity, requests);
      !rows_status.ok()) {
    return rows_status;
  }
  return requests;
}

Result<KernelRequests> OverlapAddRequests(const Build& build, const Subgraph& g, const Node& node,
                                          const SignalOptions& options) {
  const TensorType type = options.Type().value_or(T::kString);
  if (type != T::kInt16 && type != T::kFloat32) {
    return Status::Error(node.op + "'s T is " + options.TypeText() +
                         ": its Init returns no user data for a type but INT16 and FLOAT32, and "
                         "Prepare then reads it (overlap_add.cc)");
  }
  if (Status step = ReadsIntegers(options, {{1, "frame_step"}}); !step.ok()) return step;
  const Tensor* input = At(g, node.inputs, 0);
  if (input == nullptr || input->shape.size() < 2 || input->shape.back() <= 0 ||
      input->shape[input->shape.size() - 2] <= 0) {
    return Status::Error(node.op +
                         ": an input without positive frame count and frame size; TFLite Micro's "
                         "Prepare divides its size by them");
  }
  const uint64_t frame_size = static_cast<uint64_t>(input->shape.back());
  const uint64_t frames = static_cast<uint64_t>(input->shape[input->shape.size() - 2]);
  const uint64_t rows = ElementCount(input) / (frame_size * frames);
  if (rows > kMaxStateRows) {
    return Status::Error(node.op + ": " + std::to_string(rows) +
                         " input rows, each with its own state buffer in the tail; more than " +
                         std::to_string(kMaxStateRows) + " is not modelled");
  }
  KernelRequests requests;
  // TFLMSignalOverlapAddParams<T>: frame size and step, outer dims, frame count, the TfLiteType,
  // the state pointer array.
  requests.op_data =
      StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kPointer})
          .size;
  // Prepare: the pointer array, then a frame of T per outer row.
  requests.persistent_buffers = {rows * PointerSize(build.target)};
  const uint64_t element = type == T::kInt16 ? 2 : 4;
  requests.persistent_buffers.insert(requests.persistent_buffers.end(), rows, frame_size * element);
  return requests;
}

Result<KernelRequests> StackerRequests(const Build& build, const SignalOptions& options) {
  std::array<int32_t, 4> values{};
  constexpr std::array<std::string_view, 4> kKeys = {"num_channels", "stacker_left_context",
                                                     "stacker_right_context", "stacker_step"};
  for (size_t i = 0; i < kKeys.size(); ++i) {
    auto value = options.Int(i, kKeys[i]);
    if (!value.ok()) return value.status();
    if (*value < 0) return options.Error(kKeys[i], "is negative");
    values[i] = *value;
  }
  // buffer_size = num_channels * (left + right + 1), computed in int32 by the kernel.
  const int64_t buffer_size =
      static_cast<int64_t>(values[0]) * (static_cast<int64_t>(values[1]) + values[2] + 1);
  if (buffer_size > std::numeric_limits<int32_t>::max()) {
    return options.Error("num_channels", "times the context overflows int32");
  }
  KernelRequests requests;
  // TFLMSignalStackerParams: four int32 options, buffer and step size (size_t), the first-frame
  // flag, the state and circular buffer pointers.
  requests.op_data = StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kSizeT,
                                          F::kSizeT, F::kBool, F::kPointer, F::kPointer})
                         .size;
  requests.init_buffers = {CircularBufferBytes(build, static_cast<uint64_t>(buffer_size))};
  return requests;
}

// Prepare's checks, in each kernel's order, stopping at the first that fails.
class PrepareChecks {
 public:
  PrepareChecks(const Subgraph& g, const Node& node, std::string_view file)
      : g_(g), node_(node), file_(file) {}

  const std::optional<std::string>& failure() const { return failure_; }

  // TF_LITE_ENSURE_EQ on NumInputs(node) and NumOutputs(node).
  void Counts(size_t inputs, size_t outputs) {
    if (!failure_) failure_ = prepare_checks::CountFailure(node_, inputs, outputs, file_);
  }
  // AllocateTempInputTensor / AllocateTempOutputTensor, then TF_LITE_ENSURE(name != nullptr).
  const Tensor* Input(size_t index, std::string_view name) {
    return Present(At(g_, node_.inputs, index), name);
  }
  const Tensor* Output(size_t index, std::string_view name) {
    return Present(At(g_, node_.outputs, index), name);
  }
  // TF_LITE_ENSURE_EQ(NumDimensions(name), rank).
  void RankIs(const Tensor* tensor, std::string_view name, int64_t rank) {
    if (failure_ || tensor == nullptr || Rank(tensor) == rank) return;
    Fail(NotEqual("NumDimensions(" + std::string(name) + ")", std::to_string(rank), Rank(tensor),
                  rank));
  }
  // TF_LITE_ENSURE_EQ between two integers the kernel computes.
  void Equal(std::string_view a, std::string_view b, int64_t x, int64_t y) {
    if (!failure_ && x != y) Fail(NotEqual(a, b, x, y));
  }
  // TF_LITE_ENSURE_TYPES_EQ(name->type, kTfLite<Type>).
  void TypeIs(const Tensor* tensor, std::string_view name, TensorType type) {
    if (failure_ || tensor == nullptr || tensor->type == type) return;
    Fail(TypeNamesNotEqual(std::string(name) + "->type", TfLiteTypeConstant(type), tensor->type,
                           type));
  }
  // TF_LITE_ENSURE(condition).
  void Ensure(bool holds, std::string_view condition) {
    if (!failure_ && !holds) Fail(std::string(condition) + " was not true.");
  }

 private:
  static std::string TfLiteTypeConstant(TensorType type) {
    switch (type) {
      case T::kInt16:
        return "kTfLiteInt16";
      case T::kInt32:
        return "kTfLiteInt32";
      case T::kUInt32:
        return "kTfLiteUInt32";
      case T::kUInt64:
        return "kTfLiteUInt64";
      case T::kBool:
        return "kTfLiteBool";
      case T::kFloat32:
        return "kTfLiteFloat32";
      default:
        return "TfLiteTypeEnum";
    }
  }
  const Tensor* Present(const Tensor* tensor, std::string_view name) {
    if (tensor == nullptr) Ensure(false, std::string(name) + " != nullptr");
    return tensor;
  }
  void Fail(const std::string& line) { failure_ = Failure(line, file_); }

  const Subgraph& g_;
  const Node& node_;
  std::string_view file_;
  std::optional<std::string> failure_;
};

// window.cc WindowPrepare.
void WindowChecks(PrepareChecks& c) {
  c.Counts(2, 1);
  const Tensor* input = c.Input(0, "input");
  const Tensor* weights = c.Input(1, "weights");
  const Tensor* output = c.Output(0, "output");
  if (c.failure()) return;
  c.Ensure(Rank(input) >= 1, "NumDimensions(input) >= 1");
  c.RankIs(weights, "weights", 1);
  c.Equal("NumDimensions(input)", "NumDimensions(output)", Rank(input), Rank(output));
  c.TypeIs(input, "input", T::kInt16);
  c.TypeIs(weights, "weights", T::kInt16);
  c.TypeIs(output, "output", T::kInt16);
}

// rfft.cc RfftPrepare / irfft.cc Prepare, for the T the options name.
void FftChecks(PrepareChecks& c, TensorType type) {
  c.Counts(1, 1);
  const Tensor* input = c.Input(0, "input");
  const Tensor* output = c.Output(0, "output");
  if (c.failure()) return;
  c.Equal("NumDimensions(input)", "NumDimensions(output)", Rank(input), Rank(output));
  c.TypeIs(input, "input", type);
  c.TypeIs(output, "output", type);
}

// One input, one output, both rank 1, of these types: energy.cc, filter_bank_log.cc.
void VectorToVectorChecks(PrepareChecks& c, TensorType in, TensorType out) {
  c.Counts(1, 1);
  const Tensor* input = c.Input(0, "input");
  const Tensor* output = c.Output(0, "output");
  c.RankIs(input, "input", 1);
  c.RankIs(output, "output", 1);
  c.TypeIs(input, "input", in);
  c.TypeIs(output, "output", out);
}

// fft_auto_scale_common.cc FftAutoScalePrepare.
void FftAutoScaleChecks(PrepareChecks& c) {
  c.Counts(1, 2);
  const Tensor* input = c.Input(0, "input");
  const Tensor* output = c.Output(0, "output");
  const Tensor* scale_bit = c.Output(1, "scale_bit");
  c.RankIs(input, "input", 1);
  c.RankIs(output, "output", 1);
  c.RankIs(scale_bit, "scale_bit", 0);
  c.TypeIs(input, "input", T::kInt16);
  c.TypeIs(output, "output", T::kInt16);
  c.TypeIs(scale_bit, "scale_bit", T::kInt32);
}

// filter_bank.cc Prepare: six rank-1 inputs (the spectrum, then the int16 weights, unweights,
// channel frequency starts, weight starts and widths), a rank-1 uint64 output.
void FilterBankChecks(PrepareChecks& c) {
  c.Counts(6, 1);
  for (size_t i = 0; i < 6; ++i) {
    const Tensor* input = c.Input(i, "input");
    c.RankIs(input, "input", 1);
    c.TypeIs(input, "input", i == 0 ? T::kUInt32 : T::kInt16);
  }
  const Tensor* output = c.Output(0, "output");
  c.RankIs(output, "output", 1);
  c.TypeIs(output, "output", T::kUInt64);
}

// filter_bank_square_root_common.cc FilterBankSquareRootPrepare.
void FilterBankSquareRootChecks(PrepareChecks& c) {
  c.Counts(2, 1);
  const Tensor* input = c.Input(0, "input");
  const Tensor* scale_bits = c.Input(1, "scale_bits");
  const Tensor* output = c.Output(0, "output");
  c.RankIs(input, "input", 1);
  c.RankIs(scale_bits, "scale_bits", 0);
  c.RankIs(output, "output", 1);
  c.TypeIs(input, "input", T::kUInt64);
  c.TypeIs(scale_bits, "scale_bits", T::kInt32);
  c.TypeIs(output, "output", T::kUInt32);
}

// filter_bank_spectral_subtraction.cc Prepare.
void SpectralSubtractionChecks(PrepareChecks& c) {
  c.Counts(1, 2);
  const Tensor* input = c.Input(0, "input");
  const Tensor* output = c.Output(0, "output");
  const Tensor* noise_estimate = c.Output(1, "noise_estimate");
  c.RankIs(input, "input", 1);
  c.RankIs(output, "output", 1);
  c.RankIs(noise_estimate, "noise_estimate", 1);
  c.TypeIs(input, "input", T::kUInt32);
  c.TypeIs(output, "output", T::kUInt32);
  c.TypeIs(noise_estimate, "noise_estimate", T::kUInt32);
}

// pcan.cc PcanPrepare, with the element-count checks that keep Eval in bounds.
void PcanChecks(PrepareChecks& c) {
  c.Counts(3, 1);
  const Tensor* input = c.Input(0, "input");
  const Tensor* noise_estimate = c.Input(1, "noise_estimate");
  const Tensor* gain_lut = c.Input(2, "gain_lut");
  const Tensor* output = c.Output(0, "output");
  if (c.failure()) return;
  c.RankIs(input, "input", 1);
  c.RankIs(noise_estimate, "noise_estimate", 1);
  c.RankIs(gain_lut, "gain_lut", 1);
  c.RankIs(output, "output", 1);
  c.TypeIs(input, "input", T::kUInt32);
  c.TypeIs(noise_estimate, "noise_estimate", T::kUInt32);
  c.TypeIs(gain_lut, "gain_lut", T::kInt16);
  c.TypeIs(output, "output", T::kUInt32);
  if (c.failure()) return;
  const auto input_elements = static_cast<int64_t>(ElementCount(input));
  c.Ensure(input_elements > 0, "input_elems > 0");
  c.Equal("input_elems", "noise_elems", input_elements,
          static_cast<int64_t>(ElementCount(noise_estimate)));
  c.Equal("input_elems", "output_elems", input_elements,
          static_cast<int64_t>(ElementCount(output)));
}

// delay.cc Prepare.
void DelayChecks(PrepareChecks& c) {
  c.Counts(1, 1);
  const Tensor* input = c.Input(0, "input");
  const Tensor* output = c.Output(0, "output");
  c.TypeIs(input, "input", T::kInt16);
  c.TypeIs(output, "output", T::kInt16);
}

// framer.cc Prepare; the frame step comes from the options (a step the replay cannot read or
// that TFLM would divide by zero with is SignalRequests' error).
void FramerChecks(PrepareChecks& c, const Node& node) {
  c.Counts(1, 2);
  const Tensor* input = c.Input(0, "input");
  const Tensor* output = c.Output(0, "output");
  const Tensor* output_valid = c.Output(1, "output_valid");
  if (c.failure()) return;
  c.Equal("NumDimensions(input) + 1", "NumDimensions(output)", Rank(input) + 1, Rank(output));
  c.RankIs(output_valid, "output_valid", 0);
  c.TypeIs(input, "input", T::kInt16);
  c.TypeIs(output, "output", T::kInt16);
  c.TypeIs(output_valid, "output_valid", T::kBool);
  auto options = SignalOptions::Read(node);
  if (c.failure() || !options.ok() || input->shape.empty()) return;
  auto frame_step = options->Int(1, "frame_step");
  if (!frame_step.ok() || *frame_step <= 0) return;
  const int64_t innermost = input->shape.back();
  c.Ensure(innermost >= *frame_step, "innermost_dim >= params->frame_step");
  c.Equal("innermost_dim % params->frame_step", "0", innermost % *frame_step, 0);
}

// overlap_add.cc OverlapAddPrepare, for the T the options name.
void OverlapAddChecks(PrepareChecks& c, TensorType type) {
  c.Counts(1, 1);
  const Tensor* input = c.Input(0, "input");
  const Tensor* output = c.Output(0, "output");
  if (c.failure()) return;
  c.Equal("NumDimensions(input)", "NumDimensions(output) + 1", Rank(input), Rank(output) + 1);
  c.TypeIs(input, "input", type);
  c.TypeIs(output, "output", type);
  c.Ensure(Rank(input) >= 2, "input_shape.DimensionsCount() >= 2");
}

// stacker.cc StackerPrepare.
void StackerChecks(PrepareChecks& c) {
  c.Counts(1, 2);
  const Tensor* input = c.Input(0, "input");
  const Tensor* output = c.Output(0, "output");
  const Tensor* output_valid = c.Output(1, "output_valid");
  c.RankIs(input, "input", 1);
  c.RankIs(output, "output", 1);
  c.RankIs(output_valid, "output_valid", 0);
  c.TypeIs(input, "input", T::kInt16);
  c.TypeIs(output, "output", T::kInt16);
  c.TypeIs(output_valid, "output_valid", T::kBool);
}

// The file name a refusal cites: the kernel's own file, without the directory.
std::string_view FileOf(const SignalOp& op) {
  std::string_view source = op.source.substr(op.source.rfind('/') + 1);
  return source.substr(0, source.find(','));
}

}  // namespace

std::optional<std::string_view> SignalResolverMethod(std::string_view op) {
  const SignalOp* entry = FindSignalOp(op);
  if (entry == nullptr) return std::nullopt;
  return entry->resolver_method;
}

std::optional<std::string_view> SignalKernelSource(std::string_view op) {
  const SignalOp* entry = FindSignalOp(op);
  if (entry == nullptr) return std::nullopt;
  return entry->source;
}

Result<KernelRequests> SignalRequests(const Build& build, const Subgraph& subgraph,
                                      const Node& node) {
  const std::string_view op = node.op;
  // Custom ops get no builtin options: Init reads the custom options in place.
  KernelRequests requests;
  if (op == "SignalFftAutoScale" || op == "SignalFilterBankSquareRoot") return requests;  // no Init
  auto options = SignalOptions::Read(node);
  if (!options.ok()) return options.status();
  if (op == "SignalRfft" || op == "SignalIrfft") {
    return FftRequests(build, node, *options, op == "SignalIrfft");
  }
  if (op == "SignalDelay") return DelayRequests(build, subgraph, node, *options);
  if (op == "SignalFramer") return FramerRequests(build, subgraph, node, *options);
  if (op == "SignalOverlapAdd") return OverlapAddRequests(build, subgraph, node, *options);
  if (op == "SignalStacker") return StackerRequests(build, *options);
  if (op == "SignalWindow") {
    // TFLMSignalWindowParams: shift, input size.
    if (Status read = ReadsIntegers(*options, {{0, "shift"}}); !read.ok()) return read;
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32}).size;
  } else if (op == "SignalEnergy") {
    // TFLMSignalEnergyParams: end and start index.
    if (Status read = ReadsIntegers(*options, {{0, "end_index"}, {1, "start_index"}}); !read.ok()) {
      return read;
    }
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32}).size;
  } else if (op == "SignalFilterBankLog") {
    // TFLMSignalLogParams: input correction bits, output scale.
    if (Status read = ReadsIntegers(*options, {{0, "input_correction_bits"}, {1, "output_scale"}});
        !read.ok()) {
      return read;
    }
    requests.op_data = StructLayout(build, {F::kInt32, F::kInt32}).size;
  } else if (op == "SignalPCAN") {
    if (Status read = ReadsIntegers(*options, {{0, "snr_shift"}}); !read.ok()) return read;
    requests.op_data = StructLayout(build, {F::kInt32}).size;  // TfLitePcanParams: snr_shift
  } else if (op == "SignalFilterBank") {
    auto channels = options->Int(0, "num_channels");
    if (!channels.ok()) return channels.status();
    if (*channels < 0) return options->Error("num_channels", "is negative");
    // TFLMSignalFilterBankParams: FilterbankConfig (num_channels, five int16 array pointers,
    // output scale, input correction bits), then the work area pointer. Init also allocates
    // the work area: num_channels + 1 uint64 (channel 0 is scratch).
    const Layout config = StructLayout(build, {F::kInt32, F::kPointer, F::kPointer, F::kPointer,
                                               F::kPointer, F::kPointer, F::kInt32, F::kInt32});
    requests.op_data = StructLayout(build, {}, config, {F::kPointer}).size;
    requests.init_buffers = {(static_cast<uint64_t>(*channels) + 1) * 8};
  } else if (op == "SignalFilterBankSpectralSubtraction") {
    auto channels = options->Int(4, "num_channels");
    if (!channels.ok()) return channels.status();
    if (*channels < 0) return options->Error("num_channels", "is negative");
    if (Status read = ReadsIntegers(*options, {{0, "alternate_one_minus_smoothing"},
                                               {1, "alternate_smoothing"},
                                               {2, "clamping"},
                                               {3, "min_signal_remaining"},
                                               {5, "one_minus_smoothing"},
                                               {6, "smoothing"},
                                               {7, "smoothing_bits"},
                                               {8, "spectral_subtraction_bits"}});
        !read.ok()) {
      return read;
    }
    // TFLMSignalSpectralSubtractionParams: SpectralSubtractionConfig (num_channels, seven
    // uint32, clamping), the noise estimate pointer and its byte size. Init also allocates the
    // noise estimate, a uint32 per channel.
    const Layout config =
        StructLayout(build, {F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32, F::kInt32,
                             F::kInt32, F::kInt32, F::kBool});
    requests.op_data = StructLayout(build, {}, config, {F::kPointer, F::kSizeT}).size;
    requests.init_buffers = {static_cast<uint64_t>(*channels) * 4};
  }
  return requests;
}

std::optional<std::string> SignalPrepareFailure(const Subgraph& subgraph, const Node& node) {
  const SignalOp* entry = FindSignalOp(node.op);
  if (entry == nullptr) return std::nullopt;
  PrepareChecks checks(subgraph, node, FileOf(*entry));
  const std::string_view op = node.op;
  if (op == "SignalWindow") {
    WindowChecks(checks);
  } else if (op == "SignalRfft" || op == "SignalIrfft" || op == "SignalOverlapAdd") {
    // The type-generic kernels check against the T their Init read; a T Init refuses is
    // SignalRequests' error.
    auto options = SignalOptions::Read(node);
    if (!options.ok()) return std::nullopt;
    const TensorType type = options->Type().value_or(T::kString);
    if (op == "SignalOverlapAdd") {
      if (type != T::kInt16 && type != T::kFloat32) return std::nullopt;
      OverlapAddChecks(checks, type);
    } else {
      if (!FftScalarBytes(type)) return std::nullopt;
      FftChecks(checks, type);
    }
  } else if (op == "SignalEnergy") {
    VectorToVectorChecks(checks, T::kInt16, T::kUInt32);
  } else if (op == "SignalFilterBankLog") {
    VectorToVectorChecks(checks, T::kUInt32, T::kInt16);
  } else if (op == "SignalFftAutoScale") {
    FftAutoScaleChecks(checks);
  } else if (op == "SignalFilterBank") {
    FilterBankChecks(checks);
  } else if (op == "SignalFilterBankSquareRoot") {
    FilterBankSquareRootChecks(checks);
  } else if (op == "SignalFilterBankSpectralSubtraction") {
    SpectralSubtractionChecks(checks);
  } else if (op == "SignalPCAN") {
    PcanChecks(checks);
  } else if (op == "SignalDelay") {
    DelayChecks(checks);
  } else if (op == "SignalFramer") {
    FramerChecks(checks, node);
  } else if (op == "SignalStacker") {
    StackerChecks(checks);
  }
  return checks.failure();
}

}  // namespace tfa::tflm
