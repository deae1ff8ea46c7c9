// XNNPACK visits of the custom ops it knows (MediaPipe's, scaled dot-product attention) and of
// STABLEHLO_COMPOSITE.

#include <algorithm>
#include <string>

#include "libanalysis/profiles/xnnpack_visit.h"

namespace tfa::xnnpack_visit {

// ----- MediaPipe custom ops (their parameter bytes are not in the Graph IR) -----

CheckOutcome MediaPipeDeconvolutionNode(const NodeContext& context) {
  return RunCounted(context, 3, 1, [](const Visit& v) -> Reason {
    const int32_t in = v.input_id(0);
    const int32_t filter = v.input_id(1);
    const int32_t bias = v.input_id(2);
    const int32_t out = v.output_id(0);
    if (Reason r = v.CheckTensorFloat32Type(in)) return r;
    if (Reason r = v.CheckTensorShape(in, 4)) return r;
    if (Reason r = v.CheckTensorFloat32Type(filter)) return r;
    if (Reason r = v.CheckTensorShape(filter, 4)) return r;
    if (Reason r = v.CheckStaticUnlessQuasiStatic(filter)) return r;
    if (Reason r = v.CheckTensorFloat32Type(bias)) return r;
    if (Reason r = v.CheckTensorShape(bias, 1)) return r;
    if (Reason r = v.CheckStaticUnlessQuasiStatic(bias)) return r;
    if (Reason r = v.CheckTensorFloat32Type(out)) return r;
    return v.CheckTensorShape(out, 4);
  });
}

CheckOutcome MediaPipeMaxPoolingNode(const NodeContext& context) {
  return RunCounted(context, 1, 2, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32Type(v.input_id(0))) return r;
    if (Reason r = v.CheckTensorShape(v.input_id(0), 4)) return r;
    if (Reason r = v.CheckTensorFloat32Type(v.output_id(0))) return r;
    if (Reason r = v.CheckTensorShape(v.output_id(0), 4)) return r;
    return v.CheckTensorShape(v.output_id(1), 4);
  });
}

CheckOutcome MediaPipeUnpoolingNode(const NodeContext& context) {
  return RunCounted(context, 2, 1, [](const Visit& v) -> Reason {
    if (Reason r = v.CheckTensorFloat32Type(v.input_id(0))) return r;
    if (Reason r = v.CheckTensorShape(v.input_id(0), 4)) return r;
    if (Reason r = v.CheckTensorShape(v.input_id(1), 4)) return r;
    if (Reason r = v.CheckTensorFloat32Type(v.output_id(0))) return r;
    return v.CheckTensorShape(v.output_id(0), 4);
  });
}

// VisitDotAttentionNode's checks, for the odml.scaled_dot_product_attention custom op and
// composite.
CheckOutcome ScaledDotAttentionNode(const NodeContext& context) {
  const Visit probe(context);
  const int inputs = std::min(probe.num_inputs(), 4);
  return Run(context, inputs < 3 ? 3 : inputs, 1, [](const Visit& v) -> Reason {
    const int count = std::min(v.num_inputs(), 4);
    for (int k = 0; k < count; ++k) {
      if (Reason r = v.CheckTensorFloat32Type(v.input_id(k))) return r;
    }
    if (Reason r = v.CheckTensorFloat32Type(v.output_id(0))) return r;
    const Tensor& query = v.input(0);
    const Tensor& key = v.input(1);
    const Tensor& value = v.input(2);
    const auto last = [](const Tensor& t) { return Dim(t, Rank(t) - 1); };
    if (last(query) != last(key) || last(query) != last(value)) {
      return Format("odml.scaled_dot_product_attention node #%d: head dimensions differ",
                    v.node_index());
    }
    if (count > 3 && (Dim(key, 1) != last(v.input(3)) || Dim(value, 1) != last(v.input(3)))) {
      return Format("odml.scaled_dot_product_attention node #%d: mask and sequence lengths differ",
                    v.node_index());
    }
    return std::nullopt;
  });
}

// VisitNode's kTfLiteBuiltinStablehloComposite case (tflite/delegates/xnnpack/xnnpack_delegate.cc):
// a composite named odml.scaled_dot_product_attention gets the custom op's visit
// (VisitScaledDotAttentionCompositeNode: its "scale" and "logit_cap" attributes only shape the
// XNNPACK subgraph and refuse nothing); any other name is refused. The decomposition subgraph is
// not looked at. Query rank 4, key / value rank 4 and query heads divisible by key heads are
// checked only inside `subgraph != nullptr`, after the node was chosen, so not here.
CheckOutcome StablehloCompositeNode(const NodeContext& context) {
  const std::string& name = context.node.options->composite_name;
  if (name == "odml.scaled_dot_product_attention") return ScaledDotAttentionNode(context);
  return CheckOutcome::Reject(
      Format("unsupported stablehlo.composite operator type \"%s\" in node #%d", name.c_str(),
             context.node_index));
}

}  // namespace tfa::xnnpack_visit
