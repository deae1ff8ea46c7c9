#include "libanalysis/profiles/nnapi_rules.h"

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "libanalysis/profiles/delegate_profile.h"

namespace tfa {
namespace {

constexpr int kNnapi11 = 28;  // kMinSdkVersionForNNAPI11
constexpr int kNnapi12 = 29;  // kMinSdkVersionForNNAPI12
constexpr int kNnapi13 = 30;  // kMinSdkVersionForNNAPI13

bool IsFloat(TensorType t) { return t == TensorType::kFloat32; }
bool IsQuantized(TensorType t) { return t == TensorType::kUInt8 || t == TensorType::kInt8; }
bool IsInt32(TensorType t) { return t == TensorType::kInt32; }

// upstream's kTfLiteFloat32-style spelling, for the EXPECT_INPUT_TYPE_IN messages.
const char* EnumName(TensorType t) {
  switch (t) {
    case TensorType::kFloat32:
      return "kTfLiteFloat32";
    case TensorType::kFloat16:
      return "kTfLiteFloat16";
    case TensorType::kInt32:
      return "kTfLiteInt32";
    case TensorType::kUInt8:
      return "kTfLiteUInt8";
    case TensorType::kInt8:
      return "kTfLiteInt8";
    case TensorType::kInt64:
      return "kTfLiteInt64";
    case TensorType::kBool:
      return "kTfLiteBool";
    default:
      return "?";
  }
}

// The TfLiteTensor::params of a tensor: set only for one scale and one zero point.
float LegacyScale(const Tensor& t) {
  const Quantization& q = t.quantization;
  return q.scale.size() == 1 && q.zero_point.size() == 1 ? q.scale[0] : 0.0f;
}
int64_t LegacyZeroPoint(const Tensor& t) {
  const Quantization& q = t.quantization;
  return q.scale.size() == 1 && q.zero_point.size() == 1 ? q.zero_point[0] : 0;
}

// One Validate call: the node, the SDK level, and the failed expectations so far.
class Validation {
 public:
  explicit Validation(const NodeContext& context)
      : c_(context),
        sdk_(static_cast<int>(context.profile.OptionNumber("android_sdk_version"))),
        accelerator_specified_(context.profile.OptionEnabled("disallow_nnapi_cpu") &&
                               sdk_ >= kNnapi12) {}

  int sdk() const { return sdk_; }
  int version() const { return c_.node.version; }
  bool accelerator_specified() const { return accelerator_specified_; }
  const OpOptions& options() const { return c_.node.options; }
  int num_inputs() const { return static_cast<int>(c_.inputs.size()); }
  // The tensor behind input / output `k`; an absent one reads as an empty float32 tensor.
  const Tensor& input(int k) const { return Or(c_.Input(static_cast<size_t>(k))); }
  const Tensor& output(int k) const { return Or(c_.Output(static_cast<size_t>(k))); }

  bool Expect(bool condition, const std::string& message) {
    if (!condition) failures_.push_back(message);
    return condition;
  }
  void ExpectMaxOpVersion(int max) {
    Expect(version() <= max, "OP Version higher than " + std::to_string(max));
  }
  void ExpectOpVersion(int max) {
    Expect(version() <= max, "OP Version different from " + std::to_string(max));
  }
  void ExpectMinSdk(int min) {
    Expect(sdk_ >= min, "Android sdk version less than " + std::to_string(min));
  }
  // EXPECT_INPUT_TYPE_IN: the message lists the allowed types as the macro stringizes them.
  void ExpectInputTypeIn(TensorType type, std::initializer_list<TensorType> allowed) {
    std::string list;
    for (TensorType t : allowed) list += (list.empty() ? "" : ", ") + std::string(EnumName(t));
    Expect(std::find(allowed.begin(), allowed.end(), type) != allowed.end(),
           "Input type not in expected list " + list);
  }
  void ExpectTypeIn(TensorType type, std::initializer_list<TensorType> allowed,
                    const std::string& message) {
    Expect(std::find(allowed.begin(), allowed.end(), type) != allowed.end(), message);
  }
  void ExpectIsFloatOperator() { Expect(IsFloat(input(0).type), "Input should be Float"); }
  void ExpectIsFloatOrUint8Operator() {
    const TensorType t = input(0).type;
    Expect(IsFloat(t) || t == TensorType::kUInt8, "Input should be Float or UINT8");
  }
  void ExpectIsFloatOrQuant8Operator() {
    const TensorType t = input(0).type;
    Expect(IsFloat(t) || IsQuantized(t), "Input should be Float or Quant8");
  }
  void ExpectIsFloatQuant8OrInt32Operator() {
    const TensorType t = input(0).type;
    Expect(IsFloat(t) || IsQuantized(t) || IsInt32(t), "Input should be Float, Quant8, or Int32");
  }
  void ExpectIsRestrictedScalesCompliant() {
    Expect(LegacyScale(input(0)) * LegacyScale(input(1)) < LegacyScale(output(0)),
           "When using NN API version 1.0 or 1.1, input_scale * filter_scale < output_scale.");
  }
  // IsHybridOperator for CONV_2D / FULLY_CONNECTED (input 1) and the LSTMs (input 2).
  bool IsHybrid(int weights_input) const {
    return IsFloat(input(0).type) && IsQuantized(input(weights_input).type);
  }
  void ExpectNoActivationForInt32(const char* message = "No activation function supported") {
    if (IsInt32(input(0).type)) Expect(options().fused_activation == Activation::kNone, message);
  }

  CheckOutcome Outcome() const {
    if (failures_.empty()) return CheckOutcome::Pass();
    std::string reason;
    for (const std::string& f : failures_) reason += (reason.empty() ? "" : "; ") + f;
    return CheckOutcome::Reject(reason);
  }

 private:
  const Tensor& Or(const Tensor* t) const { return t ? *t : empty_; }

  const NodeContext& c_;
  int sdk_ = 0;
  bool accelerator_specified_ = false;
  std::vector<std::string> failures_;
  Tensor empty_;
};

using F = TensorType;

void ValidateLstm(Validation& v) {
  const bool basic = v.num_inputs() == 5;
  const bool full = v.num_inputs() == 24 || v.num_inputs() == 20;
  v.ExpectMaxOpVersion(3);
  v.Expect(v.sdk() >= kNnapi11,
           "NNAPI 1.0 has a bug for optional tensors which would affect LSTM.");
  v.Expect(v.sdk() >= kNnapi12 || !(full && v.IsHybrid(2)),
           "Hybrid operators not supported before NNAPI 1.2.");
  const TensorType weight_type = v.input(basic ? 2 : 4).type;
  if (basic) {
    v.Expect(weight_type == F::kUInt8, "Basic LSTM Kernels support only UINT8 weights");
    v.Expect(LegacyScale(v.input(0)) == 1.0f / 128 && LegacyZeroPoint(v.input(0)) == 128,
             "Invalid input quantization");
    v.Expect(LegacyScale(v.output(0)) == 1.0f / 128 && LegacyZeroPoint(v.output(0)) == 128,
             "Invalid output quantization");
    v.Expect(LegacyScale(v.output(1)) == 16.0f / 32768 || LegacyZeroPoint(v.output(1)) == 0,
             "Invalid cell state quantization");
    v.Expect(v.input(2).is_constant(), "Weights tensor should be constant");
    v.Expect(v.input(3).is_constant(), "Biases tensor should be constant");
    return;
  }
  if (v.num_inputs() == 24) v.ExpectMinSdk(kNnapi12);
  if (v.sdk() >= kNnapi13) {
    v.Expect(weight_type == F::kFloat32 || weight_type == F::kUInt8 || weight_type == F::kInt8,
             "Weight has to be Float32 or UINT8 or INT8");
  } else {
    v.Expect(weight_type == F::kFloat32 || weight_type == F::kUInt8,
             "Weight has to be Float32 or UINT8");
  }
}

// The body of Validate's switch for one builtin op.
void ValidateOp(const std::string& op, Validation& v) {
  const int sdk = v.sdk();
  const Tensor& in0 = v.input(0);
  if (op == "ADD" || op == "MUL") {
    v.ExpectMaxOpVersion(op == "MUL" && v.accelerator_specified() ? 3 : 2);
    if (sdk >= kNnapi13) {
      v.ExpectIsFloatQuant8OrInt32Operator();
      v.ExpectNoActivationForInt32();
    } else {
      v.ExpectIsFloatOrQuant8Operator();
    }
  } else if (op == "ARG_MAX" || op == "ARG_MIN") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectInputTypeIn(in0.type, {F::kFloat16, F::kFloat32, F::kInt32, F::kUInt8, F::kInt8});
    const Tensor& axis = v.input(1);
    if (axis.type == F::kInt64) {
      // The axis value is checked when the model carries it (not in Graph JSON).
      v.Expect(axis.is_constant() && (axis.int_values->empty() ||
                                      (*axis.int_values)[0] <= std::numeric_limits<int32_t>::max()),
               "NNAPI only supports axis as int32. If the axis type is int64 and constant we can "
               "convert it to int32 if the value isn't too large.");
    } else {
      v.Expect(axis.type == F::kInt32, "Axis should be Int32");
    }
    // The output_type parameter is the output tensor's type.
    v.Expect(v.output(0).type == F::kInt32, "NNAPI only supports int32 output.");
  } else if (op == "AVERAGE_POOL_2D") {
    v.ExpectMaxOpVersion(2);
    v.ExpectIsFloatOrQuant8Operator();
    if (IsQuantized(in0.type)) {
      v.Expect(v.accelerator_specified() || v.options().filter_w * v.options().filter_h <= 256,
               "Large filter window would overflow on the reference CPU path");
    }
  } else if (op == "MAX_POOL_2D") {
    v.ExpectMaxOpVersion(2);
    v.ExpectIsFloatOrQuant8Operator();
  } else if (op == "L2_POOL_2D") {
    v.ExpectOpVersion(1);
    v.ExpectIsFloatOperator();
    if (sdk < kNnapi12) {
      v.Expect(v.options().fused_activation == Activation::kNone,
               "Before NNAPI 1.2 fused activation for l2_pool may not be supported.");
    }
  } else if (op == "CONV_2D") {
    v.ExpectMaxOpVersion(5);
    if (sdk < kNnapi12) {
      v.Expect(!v.IsHybrid(1), "Hybrid operators not supported before NNAPI 1.2");
      v.ExpectIsFloatOrUint8Operator();
      v.Expect(v.input(1).quantization->scale.size() <= 1,
               "Per-channel quantized convolution not supported before NNAPI 1.2.");
      if (in0.type == F::kUInt8) v.ExpectIsRestrictedScalesCompliant();
    }
    v.Expect(v.num_inputs() == 3, "Conv2D with omitted bias not supported");
    if (v.options().dilation_w != 1 || v.options().dilation_h != 1) {
      v.Expect(sdk >= kNnapi12, "NNAPI supports dilated Conv2D since NNAPI 1.2.");
    }
  } else if (op == "DEPTHWISE_CONV_2D") {
    v.ExpectMaxOpVersion(3);
    if (sdk < kNnapi12) {
      v.ExpectIsFloatOrUint8Operator();
      if (in0.type == F::kUInt8) v.ExpectIsRestrictedScalesCompliant();
      v.Expect(v.options().dilation_w == 1 && v.options().dilation_h == 1,
               "dilation_width_factor and dilation_height_factor expected to be equal to 1");
    }
  } else if (op == "FULLY_CONNECTED") {
    v.ExpectMaxOpVersion(5);
    v.Expect(v.output(0).type != F::kInt16, "Unsupported output of type kTfLiteInt16");
    if (sdk < kNnapi12) {
      v.Expect(!v.IsHybrid(1), "Hybrid operators not supported before NNAPI 1.2");
      v.ExpectIsFloatOrUint8Operator();
      if (in0.type == F::kUInt8) v.ExpectIsRestrictedScalesCompliant();
    }
    if (v.options().keep_num_dims) v.ExpectMinSdk(kNnapi13);
  } else if (op == "HARD_SWISH") {
    v.ExpectIsFloatOrQuant8Operator();
  } else if (op == "SOFTMAX") {
    v.ExpectOpVersion(2);
    v.ExpectIsFloatOrQuant8Operator();
    v.ExpectTypeIn(v.output(0).type, {F::kFloat32, F::kUInt8, F::kInt8},
                   "Output type should be one of kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8.");
    const size_t rank = in0.shape.size();
    v.Expect(rank <= 4, "Input rank should be <= 4");
    if (sdk < kNnapi12) {
      v.Expect(rank == 2 || rank == 4,
               "Before API level 29 only 2D and 4D input tensors were supported.");
    }
  } else if (op == "RESHAPE") {
    v.ExpectOpVersion(1);
    v.ExpectIsFloatOrQuant8Operator();
    if (v.num_inputs() >= 2) {
      v.Expect(v.input(1).is_constant(), "The shape input tensor must be constant.");
    } else {
      const std::vector<int32_t>& shape = v.options().new_shape;
      // Legacy models write [0] for a scalar.
      const size_t rank = shape.size() == 1 && shape[0] == 0 ? 0 : shape.size();
      v.Expect(rank > 0, "New shape rank should be > 0");
    }
  } else if (op == "RESIZE_BILINEAR" || op == "RESIZE_NEAREST_NEIGHBOR") {
    const bool bilinear = op == "RESIZE_BILINEAR";
    v.ExpectMaxOpVersion(3);
    if (bilinear) {
      v.Expect(in0.shape.size() == 4, "Input should have rank 4");
    } else {
      v.ExpectMinSdk(kNnapi12);
    }
    v.ExpectIsFloatOrQuant8Operator();
    v.Expect(v.num_inputs() >= 2, "Expected at least 2 inputs");
    if (v.num_inputs() >= 2) {
      v.Expect(v.input(1).is_constant(), "The size input tensor must be constant.");
    }
    const auto& out = v.output(0).shape;
    if (bilinear && sdk < kNnapi12) {
      v.Expect(out.size() > 2 && out[1] == out[2],
               "Require width == height due to driver differences in NNAPI < 1.2");
    }
    if (sdk <= kNnapi12) {
      v.Expect(!v.options().align_corners, "NNAPI does not support align_corners == true.");
      v.Expect(!v.options().half_pixel_centers,
               "NNAPI does not support half_pixel_centers == true.");
    }
    if (bilinear && sdk < kNnapi12) {
      v.Expect(in0.type == F::kFloat32, "NNAPI 1.0 & 1.1 only supports float input.");
    }
  } else if (op == "SQUEEZE") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi11);
    if (sdk == kNnapi11) {
      v.Expect(!v.options().squeeze_dims.empty(),
               "NNAPI 1.1 does not support null squeeze_dims properly.");
    }
  } else if (op == "UNIDIRECTIONAL_SEQUENCE_LSTM") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi12);
    v.Expect(!v.IsHybrid(2), "Hybrid version of this op is not supported by NN API.");
    v.Expect(v.num_inputs() == 20 || v.num_inputs() == 24,
             "Supporting only operation with 20 or 24 inputs");
  } else if (op == "L2_NORMALIZATION") {
    v.ExpectMaxOpVersion(2);
    if (sdk < kNnapi12) {
      v.ExpectIsFloatOperator();
      v.Expect(in0.shape.size() == 4, "Expected 4 inputs");
    }
    v.Expect(v.options().fused_activation == Activation::kNone, "Expected no activation");
  } else if (op == "LOCAL_RESPONSE_NORMALIZATION" || op == "LSH_PROJECTION" || op == "FLOOR" ||
             op == "EMBEDDING_LOOKUP" || op == "HASHTABLE_LOOKUP" || op == "RNN" || op == "SVDF") {
    v.ExpectOpVersion(1);
    if (op == "EMBEDDING_LOOKUP") {
      v.Expect(v.input(1).type == F::kFloat32, "NNAPI only support float32 values.");
    } else if (op == "HASHTABLE_LOOKUP") {
      v.Expect(v.output(0).type == F::kFloat32, "NNAPI only support float32 output.");
    } else if (op == "RNN") {
      v.Expect(v.num_inputs() == 5, "Expected 5 input");
      if (v.num_inputs() >= 2) {
        v.Expect(v.input(1).type == F::kFloat32, "NNAPI only support float32 weights.");
      }
    } else if (op == "SVDF") {
      v.Expect(v.num_inputs() == 5, "Expected input of rank 5");
      if (v.num_inputs() >= 2) {
        v.Expect(v.input(1).type == F::kFloat32, "NNAPI only support float32 weights.");
      }
      v.Expect(sdk >= kNnapi11, "SVDF does not support rank > 1 on NNAPI 1.0.");
      v.Expect(v.input(1).type == F::kFloat32, "Weights should be Float32");
    }
  } else if (op == "CONCATENATION") {
    v.ExpectMaxOpVersion(2);
    v.Expect(v.options().fused_activation == Activation::kNone, "No activation function supported");
    v.Expect(in0.shape.size() <= 4, "Input rank should be less than 4");
    v.ExpectInputTypeIn(in0.type, {F::kFloat16, F::kFloat32, F::kUInt8, F::kInt8});
    if (in0.type == F::kUInt8 && sdk < kNnapi12) {
      for (int i = 1; i < v.num_inputs(); ++i) {
        const Tensor& t = v.input(i);
        if (!v.Expect(
                LegacyScale(t) == LegacyScale(in0) && LegacyZeroPoint(t) == LegacyZeroPoint(in0),
                "NNAPI 1.0-1 only supported concatenating quantized tensor of the same "
                "scale and offset.")) {
          break;
        }
      }
    }
  } else if (op == "DEQUANTIZE") {
    v.Expect(v.version() == 1 || v.version() == 2, "Supported op versions are 1 and 2 only");
    if (sdk < kNnapi12) {
      v.ExpectInputTypeIn(in0.type, {F::kUInt8});
    } else {
      v.ExpectInputTypeIn(in0.type, {F::kUInt8, F::kInt8});
      if (sdk == kNnapi12 && in0.type == F::kInt8) {
        v.Expect(LegacyZeroPoint(in0) == 0,
                 "NN API supports int8 type since version 1.2 but only for symmetric "
                 "quantization.");
      }
    }
  } else if (op == "RELU" || op == "RELU_N1_TO_1" || op == "RELU6" || op == "LOGISTIC") {
    v.ExpectMaxOpVersion(2);
    v.ExpectIsFloatOrQuant8Operator();
  } else if (op == "TANH") {
    v.ExpectMaxOpVersion(2);
    v.Expect(IsFloat(in0.type) || (IsQuantized(in0.type) && sdk >= kNnapi12),
             " NNAPI only support float tanh.");
  } else if (op == "SUB") {
    v.ExpectMaxOpVersion(3);
    v.Expect((sdk >= kNnapi11 && IsFloat(in0.type)) || (sdk >= kNnapi12 && IsQuantized(in0.type)) ||
                 (sdk >= kNnapi13 && IsInt32(in0.type)),
             "NNAPI only support float sub.");
    v.ExpectNoActivationForInt32();
    v.Expect(in0.shape.size() <= 4 && v.input(1).shape.size() <= 4, "Input rank must be <= 4");
  } else if (op == "DIV") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi11);
    v.Expect(in0.type == F::kFloat32, "NNAPI only support float div.");
  } else if (op == "PAD" || op == "PADV2") {
    v.ExpectMaxOpVersion(2);
    v.ExpectIsFloatOrQuant8Operator();
    v.ExpectMinSdk(kNnapi11);
    v.Expect(std::find(in0.shape.begin(), in0.shape.end(), 0) == in0.shape.end(),
             "NN API pad ops do not support input tensors with no elements");
    v.Expect(v.num_inputs() >= 2, "Expecting at least 2 inputs");
    if (v.num_inputs() == 3) {
      v.Expect(sdk >= kNnapi12, "Specification of the padding value is supported from NNAPI 1.2.");
    } else if (sdk < kNnapi12) {
      v.Expect(in0.type == F::kFloat32, "Only Float32 inputs are supported before NNAPI 1.2");
    }
  } else if (op == "UNIDIRECTIONAL_SEQUENCE_RNN") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi12);
    v.Expect(!v.IsHybrid(1), "Hybrid version of this op is not supported by NN API.");
  } else if (op == "SPACE_TO_BATCH_ND" || op == "STRIDED_SLICE") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi11);
  } else if (op == "BATCH_TO_SPACE_ND") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi11);
    // The crops' values are checked when the model carries them (not in Graph JSON).
    const Tensor& crops = v.input(2);
    const bool zero_crops = std::all_of(crops.int_values->begin(), crops.int_values->end(),
                                        [](int64_t c) { return c == 0; });
    v.Expect(crops.is_constant() && crops.bytes == 16u && zero_crops, "All crops should be 0.");
  } else if (op == "TRANSPOSE") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi11);
    v.Expect(v.num_inputs() > 1 && v.input(1).is_constant(),
             "Dynamically-sized tensors not supported.");
  } else if (op == "ABS" || op == "EXP" || op == "LOG" || op == "RSQRT" || op == "POW" ||
             op == "SIN" || op == "SQRT") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectIsFloatOperator();
  } else if (op == "SLICE") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kInt32, F::kUInt8, F::kInt8});
    v.Expect(v.input(1).type == F::kInt32, "Begin type should be Int32");
    v.Expect(v.input(2).type == F::kInt32, "Size type should be Int32");
  } else if (op == "TRANSPOSE_CONV") {
    v.ExpectMaxOpVersion(3);
    v.ExpectMinSdk(kNnapi12);
    v.Expect(v.num_inputs() > 1 && in0.is_constant() && v.input(1).is_constant(),
             "Dynamically-sized tensors not supported.");
  } else if (op == "SPACE_TO_DEPTH") {
    v.ExpectMaxOpVersion(2);
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kUInt8, F::kInt8});
  } else if (op == "LSTM") {
    ValidateLstm(v);
  } else if (op == "MEAN") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi11);
    if (sdk >= kNnapi12) {
      v.Expect(in0.type == F::kFloat32 || IsQuantized(in0.type),
               "Expected Float32 or Quantized input");
    } else {
      v.Expect(in0.type == F::kFloat32, "Expected Float32 input");
    }
    v.Expect(!v.output(0).shape.empty(),
             "NNAPI does not support generating a scalar as output for MEAN.");
  } else if (op == "MAXIMUM" || op == "MINIMUM") {
    v.ExpectMaxOpVersion(3);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kUInt8, F::kInt8, F::kInt32});
    for (int k = 0; k < 2; ++k) {
      if (v.input(k).shape.empty()) {
        v.Expect(v.input(k).is_constant(), "Scalar operand should be constant");
      }
    }
  } else if (op == "CAST") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi12);
    const TensorType out = v.output(0).type;
    if (sdk >= kNnapi13) {
      v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kInt32, F::kUInt8, F::kInt8});
      v.ExpectTypeIn(out, {F::kFloat32, F::kInt32, F::kUInt8, F::kInt8},
                     "Output type should be one of kTfLiteFloat32, kTfLiteInt32, kTfLiteUInt8, "
                     "kTfLiteInt8.");
    } else {
      v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kInt32, F::kUInt8});
      v.ExpectTypeIn(out, {F::kFloat32, F::kInt32, F::kUInt8},
                     "Output type should be one of kTfLiteFloat32, kTfLiteInt32, kTfLiteUInt8.");
    }
  } else if (op == "LEAKY_RELU" || op == "PRELU") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kUInt8, F::kInt8});
  } else if (op == "TILE") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kInt8, F::kUInt8, F::kInt32});
    v.Expect(v.input(1).type == F::kInt32, "Multipliers should be Int32");
  } else if (op == "LOGICAL_OR" || op == "LOGICAL_AND" || op == "LOGICAL_NOT") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi12);
    v.Expect(in0.type == F::kBool, "Input should be bool");
  } else if (op == "LESS" || op == "LESS_EQUAL" || op == "GREATER" || op == "GREATER_EQUAL" ||
             op == "EQUAL" || op == "NOT_EQUAL") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kUInt8, F::kInt8, F::kBool, F::kInt32});
  } else if (op == "NEG") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kInt32});
  } else if (op == "TOPK_V2") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kInt32, F::kUInt8, F::kInt8});
    v.Expect(v.input(1).type == F::kInt32 && v.input(1).is_constant(),
             "K param should be a constant of type Int32");
  } else if (op == "SELECT") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectInputTypeIn(v.input(1).type, {F::kFloat32, F::kInt32, F::kUInt8, F::kInt8});
    v.Expect(in0.shape == v.input(1).shape,
             "Condition and inputs tensors should have the same shape");
  } else if (op == "GATHER") {
    v.ExpectOpVersion(2);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kFloat16, F::kInt32, F::kUInt8, F::kInt8});
    v.Expect(v.input(1).type == F::kInt32, "Positions type should be one of kTfLiteInt32");
    v.Expect(!v.input(1).shape.empty(), "0-dimension args are not supported by NNAPI.");
  } else if (op == "BIDIRECTIONAL_SEQUENCE_LSTM") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi12);
    v.Expect(!v.IsHybrid(2), "Hybrid version of this op is not supported by NN API.");
  } else if (op == "EXPAND_DIMS") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kFloat16, F::kInt32, F::kUInt8, F::kInt8});
    v.Expect(v.input(1).type == F::kInt32 && v.input(1).is_constant(),
             "NNAPI only supports constant int32 axis tensor.");
  } else if (op == "SPLIT") {
    v.ExpectOpVersion(3);
    v.ExpectMinSdk(kNnapi12);
    const TensorType type = v.input(1).type;
    if (sdk >= kNnapi13) {
      v.ExpectInputTypeIn(type, {F::kFloat32, F::kUInt8, F::kInt8, F::kInt32});
    } else {
      v.ExpectInputTypeIn(type, {F::kFloat32, F::kUInt8, F::kInt32});
    }
    v.Expect(in0.type == F::kInt32 && in0.is_constant(),
             "NNAPI only supports constant int32 axis tensor.");
  } else if (op == "SPLIT_V") {
    v.ExpectOpVersion(2);
    v.ExpectMinSdk(kNnapi13);
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kUInt8, F::kInt8, F::kInt32});
    const Tensor& sizes = v.input(1);
    v.Expect(sizes.type == F::kInt32 && sizes.shape.size() == 1 && sizes.is_constant(),
             "NNAPI only supports constant int32 size_splits vector.");
    v.Expect(v.input(2).type == F::kInt32 && v.input(2).is_constant(),
             "NNAPI only supports constant int32 axis tensor.");
  } else if (op == "LOG_SOFTMAX") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi12);
    v.Expect(in0.type == F::kFloat32, "Input should be Float32.");
  } else if (op == "QUANTIZE") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi12);
    v.Expect(in0.type == F::kFloat32 || IsQuantized(in0.type),
             "Value should be quantized or Float32.");
    if (IsQuantized(in0.type)) {
      v.Expect(LegacyScale(in0) > 0.f, "Quantization scale should be > 0.");
    }
    const Tensor& out = v.output(0);
    if (sdk < kNnapi13) {
      v.Expect(out.type == F::kUInt8, "Output should be kTfLiteUInt8.");
    } else {
      v.ExpectTypeIn(out.type, {F::kUInt8, F::kInt8}, "Output should be kTfLiteUInt8.");
    }
    v.Expect(LegacyScale(out) > 0.f, "Quantization scale should be > 0.");
  } else if (op == "REDUCE_ANY") {
    v.ExpectOpVersion(2);
    v.ExpectMinSdk(kNnapi12);
    v.Expect(!v.output(0).shape.empty(), "NNAPI does not support generating a scalar as output.");
  } else if (op == "REDUCE_MIN" || op == "REDUCE_MAX") {
    v.ExpectMaxOpVersion(2);
    v.ExpectMinSdk(kNnapi12);
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kUInt8, F::kInt8});
    v.Expect(!in0.shape.empty(), "NNAPI does not support generating a scalar as output.");
  } else if (op == "DEPTH_TO_SPACE") {
    v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kUInt8, F::kInt8});
  } else if (op == "REDUCE_PROD" || op == "SUM") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi12);
    v.Expect(!v.output(0).shape.empty(), "NNAPI does not support generating a scalar as output");
    v.Expect(in0.type == F::kFloat32, "NNAPI only supports floating point input.");
  } else if (op == "ELU") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi13);
    v.Expect(in0.type == F::kFloat32, "NNAPI only supports floating point input.");
  } else if (op == "FILL") {
    v.ExpectOpVersion(1);
    v.ExpectMinSdk(kNnapi13);
    v.Expect(in0.is_constant(), "NNAPI doesn't support dynamic dimensions tensor.");
    v.ExpectInputTypeIn(in0.type, {F::kInt32, F::kInt64});
    if (in0.is_constant()) {
      v.Expect(in0.shape.empty() || in0.shape[0] != 0,
               "NNAPI doesn't support generating scalars from FILL");
    }
    v.ExpectInputTypeIn(v.input(1).type, {F::kFloat32, F::kInt32, F::kInt64});
  } else if (op == "PACK") {
    v.ExpectOpVersion(2);
    v.ExpectMinSdk(kNnapi13);
    v.ExpectInputTypeIn(in0.type, {F::kInt32, F::kFloat32, F::kInt8});
    const int axis = v.options().axis;
    v.Expect(axis != -1 && axis != static_cast<int>(in0.shape.size()),
             "NNAPI does not support axis being the last dimension");
  } else if (op == "SQUARED_DIFFERENCE") {
    v.ExpectOpVersion(2);
    v.ExpectMinSdk(kNnapi11);
    if (sdk >= kNnapi13) {
      v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kUInt8, F::kInt8, F::kInt32});
    } else if (sdk >= kNnapi12) {
      v.ExpectInputTypeIn(in0.type, {F::kFloat32, F::kUInt8});
    } else {
      v.ExpectInputTypeIn(in0.type, {F::kFloat32});
    }
    v.Expect(in0.shape.size() <= 4 && v.input(1).shape.size() <= 4,
             "NNAPI does not support input rank greater than 4");
  } else {
    v.Expect(false, "Unsupported operation type.");
  }
}

CheckOutcome Validate(const NodeContext& context) {
  if (context.node.kind != NodeKind::kBuiltin) {
    return CheckOutcome::Reject("Unsupported operation type.");
  }
  Validation v(context);
  const std::string& op = context.node.op;
  const Tensor& in0 = v.input(0);
  // Validate returns true at once for fp16 -> fp32 DEQUANTIZE of computed data (level >= 30) and
  // for DENSIFY of constants (level >= 30); DENSIFY is refused otherwise.
  if (op == "DEQUANTIZE" && v.sdk() >= kNnapi13 && in0.type == TensorType::kFloat16 &&
      !in0.is_constant()) {
    return CheckOutcome::Pass();
  }
  if (op == "DENSIFY") {
    if (v.sdk() >= kNnapi13 && in0.is_constant()) return CheckOutcome::Pass();
    return CheckOutcome::Reject("DENSIFY: refused below level 30 or of computed data");
  }
  ValidateOp(op, v);
  return v.Outcome();
}

constexpr NamedRuleCheck kNnapiChecks[] = {
    {"nnapi_validate", Validate},
};

}  // namespace

std::span<const NamedRuleCheck> NnapiRuleChecks() { return kNnapiChecks; }

}  // namespace tfa
