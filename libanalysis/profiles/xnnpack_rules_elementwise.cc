// XNNPACK visits of the elementwise ops, softmax and the reductions.

#include <cmath>
#include <string>

#include "libanalysis/profiles/xnnpack_visit.h"

namespace tfa::xnnpack_visit {

// ----- VisitUnaryNode -----

CheckOutcome UnaryNode(const NodeContext& context) {
  return RunCounted(context, 1, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorShape(in, 0, kMaxTensorDims)) return r;
    const std::string& op = v.node().op;
    if (op == "DEQUANTIZE") {
      if (Reason r = v.CheckTensorQInt8OrQUInt8Type(in)) return r;
      return v.CheckTensorFloat32Type(out);
    }
    if (op == "ELU") {
      if (Reason r = v.CheckTensorFloat32OrQInt8Type(in)) return r;
      return v.CheckTensorFloat32OrQInt8Type(out);
    }
    if (op == "LOGISTIC" || op == "TANH") {
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
      return v.CheckTensorFloat32OrQUInt8Type(out);
    }
    if (op == "LEAKY_RELU") {
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
      const float alpha = v.options().alpha;
      if (!std::isnormal(alpha) || alpha == 0.0f) {
        return Format("unsupported alpha %g in LEAKY_RELU node #%d", alpha, v.node_index());
      }
      // GetTensorScaleOrDefault: the per-tensor scale of 8-bit tensors, else NaN.
      const auto scale_of = [](const Tensor& t) {
        const bool eight_bit = t.type == TensorType::kInt8 || t.type == TensorType::kUInt8;
        return eight_bit && PerTensorAffine(t, false) ? t.quantization->scale[0] : std::nanf("");
      };
      const float input_scale = scale_of(v.input(0));
      const float output_scale = scale_of(v.output(0));
      if (std::isnormal(input_scale) && std::isnormal(output_scale)) {
        const float positive_scale = input_scale / output_scale;
        if (positive_scale < 1.0f / 256.0f || positive_scale > 128.0f) {
          return Format("unsupported positive input-to-output scale %g in LEAKY_RELU node #%d",
                        positive_scale, v.node_index());
        }
        const float negative_scale = positive_scale * alpha;
        if (negative_scale < -127.99609375f || negative_scale > 128.0f ||
            std::fabs(negative_scale) < 1.0f / 256.0f) {
          return Format("unsupported negative input-to-output scale %g in LEAKY_RELU node #%d",
                        negative_scale, v.node_index());
        }
      }
      return std::nullopt;
    }
    if (op == "QUANTIZE") {
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in)) return r;
      if (Reason r = v.CheckTensorQInt8OrQUInt8Type(out)) return r;
      const Tensor& input = v.input(0);
      const Tensor& output = v.output(0);
      if (input.type == TensorType::kFloat32) return std::nullopt;
      // An 8-bit input: same datatype on both sides (GetXNNPackDatatype: qint8 / quint8).
      if (input.type == output.type) {
        const float ratio = input.quantization->scale[0] / output.quantization->scale[0];
        if (ratio < 1.0f / 256.0f || ratio > 128.0f) {
          return Format("unsupported input-to-output scale in QUANTIZE node #%d", v.node_index());
        }
        return std::nullopt;
      }
      return Format(
          "unsupported combination of input type (%s) and output type (%s) in QUANTIZE node #%d",
          TypeName(input.type).c_str(), TypeName(output.type).c_str(), v.node_index());
    }
    // ABS, CEIL, COS, EXP, FLOOR, GELU, HARD_SWISH, LOG, NEG, RELU*, ROUND, RSQRT, SIN, SQRT,
    // SQUARE.
    if (Reason r = v.CheckTensorFloatType(in)) return r;
    return v.CheckTensorFloatType(out);
  });
}

// ----- VisitBinaryNode -----

CheckOutcome BinaryNode(const NodeContext& context) {
  return RunCounted(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t in1 = v.input_id(0);
    const int32_t in2 = v.input_id(1);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorShape(in1, 0, kMaxTensorDims)) return r;
    if (Reason r = v.CheckTensorShape(in2, 0, kMaxTensorDims)) return r;
    const std::string& op = v.node().op;
    const bool quantizable = op == "ADD" || op == "MUL" || op == "SUB";
    if (quantizable) {
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in1)) return r;
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(in2)) return r;
      if (Reason r = v.CheckTensorFloat32OrQUInt8Type(out)) return r;
      if (v.tensor(in1).type != v.tensor(in2).type || v.tensor(in1).type != v.tensor(out).type) {
        return Format("unsupported mixed types in %s operator #%d", op.c_str(), v.node_index());
      }
    } else {
      if (Reason r = v.CheckTensorFloat32Type(in1)) return r;
      if (Reason r = v.CheckTensorFloat32Type(in2)) return r;
      if (Reason r = v.CheckTensorFloat32Type(out)) return r;
    }
    if (op == "ADD" || op == "SUB") {
      if (Reason r = v.CheckTensorsInputOutputScale(in1, out, 1.0f / 1024.0f, 256.0f)) return r;
      if (Reason r = v.CheckTensorsInputOutputScale(in2, out, 1.0f / 1024.0f, 256.0f)) return r;
      return v.ConvertActivationToOutputRange(v.options().fused_activation);
    }
    if (op == "MUL") {
      if (Reason r =
              v.CheckTensorsInputProductOutputScale(in1, in2, out, 1.0f / 65536.0f, 256.0f)) {
        return r;
      }
      return v.ConvertActivationToOutputRange(v.options().fused_activation);
    }
    if (op == "DIV") return v.ConvertActivationToOutputRange(v.options().fused_activation);
    if (op == "PRELU") return v.CheckStaticUnlessQuasiStatic(in2);
    return std::nullopt;
  });
}

CheckOutcome SoftmaxNode(const NodeContext& context) {
  const Visit probe(context);
  if (probe.options().beta != 1.0f) {
    return Outcome(Format("unsupported beta value %.7f in SOFTMAX node #%d",
                          static_cast<double>(probe.options().beta), probe.node_index()));
  }
  if (Reason r = probe.CheckNumInputsAndOutputs(1, 1)) return Outcome(r);
  return Run(context, 1, 1, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32Type(v.input_id(0))) return r;
    return v.CheckTensorFloat32Type(v.output_id(0));
  });
}

CheckOutcome ReduceNode(const NodeContext& context) {
  return RunCounted(context, 2, 1, [](const Visit& v) -> Reason {
    const int32_t axes = v.input_id(1);
    if (Reason r = v.CheckTensorFloat32OrQUInt8Type(v.input_id(0))) return r;
    if (Reason r = v.CheckTensorType(axes, TensorType::kInt32)) return r;
    if (Rank(v.tensor(axes)) > 1) {
      return Format(
          "unexpected number of shape dimensions (%d) in axes tensor #%d in node #%d: expected a "
          "1D tensor",
          Rank(v.tensor(axes)), axes, v.node_index());
    }
    if (Reason r = v.CheckTensorStaticAllocation(axes, v.op_name())) return r;
    return v.CheckTensorFloat32OrQUInt8Type(v.output_id(0));
  });
}

}  // namespace tfa::xnnpack_visit
