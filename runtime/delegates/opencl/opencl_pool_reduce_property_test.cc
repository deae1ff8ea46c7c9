// OpenCL kernels against the CPU: pooling, resizing, padding, reductions, softmax.

#include <rapidcheck.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/delegates/testing/opencl_case_generators.h"
#include "runtime/delegates/testing/opencl_node_check.h"
#include "runtime/delegates/testing/opencl_op_properties.h"

namespace tfa::runtime::opencl_property {

namespace {

// MediaPipe's argmax pooling pair: the TfLitePoolParams their custom options hold.
struct ArgmaxPoolCase {
  int32_t fh, fw, sh, sw;
  bool same;
  NodeCase node;
};

ArgmaxPoolCase AnyArgmaxPoolCase(const char* op) {
  ArgmaxPoolCase c{*rc::gen::inRange(1, 4), *rc::gen::inRange(1, 4),     *rc::gen::inRange(1, 4),
                   *rc::gen::inRange(1, 4), *rc::gen::arbitrary<bool>(), Op(op)};
  c.node.node.kind = NodeKind::kCustom;
  const int32_t activation = *rc::gen::element(0, 1, 3);  // NONE, RELU, RELU6
  const int32_t params[8] = {c.same ? 1 : 2, c.sw, c.sh, c.fw, c.fh, activation, -1, -1};
  c.node.custom_options.resize(sizeof(params));
  std::memcpy(c.node.custom_options.data(), params, sizeof(params));
  return c;
}

}  // namespace

void Pool2DMatchesCpu(const std::string& op) {
  const auto [g, channels, unused_out_channels] = AnyConvCase(false);
  NodeCase c = Op(op.c_str(), *rc::gen::inRange(1, 3));
  c.node.options = WindowOptions(g);
  c.node.options.Mutable().filter_h = g.kh;
  c.node.options.Mutable().filter_w = g.kw;
  c.inputs = {FloatTensor({g.batch, g.h, g.w, channels})};
  c.outputs = {Output({g.batch, g.oh(), g.ow(), channels})};
  CheckAgainstCpu(c);
}

void MaxPoolingWithArgmaxMatchesCpu(const std::string& op) {
  ArgmaxPoolCase c = AnyArgmaxPoolCase(op.c_str());
  const int32_t batch = *rc::gen::inRange(1, 3), channels = Channels();
  const int32_t h = *rc::gen::inRange(c.fh, 20), w = *rc::gen::inRange(c.fw, 20);
  const auto out_size = [&](int32_t in, int32_t f, int32_t stride) {
    return c.same ? (in + stride - 1) / stride : (in - f + stride) / stride;
  };
  const std::vector<int32_t> out = {batch, out_size(h, c.fh, c.sh), out_size(w, c.fw, c.sw),
                                    channels};
  c.node.inputs = {FloatTensor({batch, h, w, channels})};
  c.node.outputs = {Output(out), Output(out)};
  CheckAgainstCpu(c.node);
}

void MaxUnpoolingMatchesCpu(const std::string& op) {
  ArgmaxPoolCase c = AnyArgmaxPoolCase(op.c_str());
  const int32_t batch = *rc::gen::inRange(1, 3), channels = Channels();
  const int32_t h = *rc::gen::inRange(1, 10), w = *rc::gen::inRange(1, 10);
  const std::vector<int32_t> shape = {batch, h, w, channels};
  // Positions in the window as the pooling writes them (k + 0.1), and now and then one outside.
  TestTensor indices = FloatTensor(shape);
  std::vector<float> values(static_cast<size_t>(indices.NumElements()));
  for (float& v : values) {
    const bool outside = *rc::gen::weightedElement<bool>({{1, true}, {9, false}});
    v = outside ? 1e6f : static_cast<float>(*rc::gen::inRange(0, c.fh * c.fw)) + 0.1f;
  }
  std::memcpy(indices.bytes.data(), values.data(), indices.bytes.size());
  c.node.inputs = {FloatTensor(shape), std::move(indices)};
  c.node.outputs = {Output({batch, h * c.fh, w * c.fw, channels})};
  CheckAgainstCpu(c.node);
}

void ResizeMatchesCpu(const std::string& op) {
  // Sometimes the decoders of segmentation heads: 16..128 upscaled by 2 or 4 (up to 512), or
  // to a size that is no whole multiple (100 -> 256), with few channels.
  const bool decoder = *rc::gen::weightedElement<bool>({{1, true}, {5, false}});
  const int32_t batch = decoder ? 1 : *rc::gen::inRange(1, 3);
  const int32_t h = decoder ? *rc::gen::inRange(16, 129) : SpatialSize();
  const int32_t w = decoder ? *rc::gen::inRange(16, 129) : SpatialSize();
  const int32_t channels = decoder ? *rc::gen::inRange(1, 9) : Channels();
  // Upscaling by whole factors, or any size.
  const bool whole = *rc::gen::arbitrary<bool>();
  const int32_t factor = decoder ? *rc::gen::element(2, 4) : *rc::gen::inRange(1, 5);
  const int32_t limit = decoder ? 257 : 70;
  const int32_t oh = whole ? h * factor : *rc::gen::inRange(1, limit);
  const int32_t ow = whole ? w * factor : *rc::gen::inRange(1, limit);
  // Versions as the converter writes them (half_pixel_centers comes with version 3);
  // align_corners and half_pixel_centers exclude each other.
  const int mode = *rc::gen::inRange(0, 3);  // 0 neither, 1 align_corners, 2 half_pixel_centers
  NodeCase c = Op(op.c_str(), mode == 2 ? 3 : *rc::gen::inRange(1, 3));
  c.node.options.Mutable().align_corners = mode == 1;
  c.node.options.Mutable().half_pixel_centers = mode == 2;
  c.inputs = {FloatTensor({batch, h, w, channels}), IntConstant({oh, ow})};
  c.outputs = {Output({batch, oh, ow, channels})};
  CheckAgainstCpu(c);
}

void PadMatchesCpu(const std::string& op) {
  const std::vector<int32_t> shape = SmallShape(3);
  std::vector<int32_t> paddings, out = shape;
  for (size_t d = 0; d < shape.size(); ++d) {
    const int32_t before = *rc::gen::inRange(0, 4), after = *rc::gen::inRange(0, 4);
    paddings.push_back(before);
    paddings.push_back(after);
    out[d] += before + after;
  }
  const bool v2 = op == "PADV2";
  NodeCase c = Op(op.c_str(), *rc::gen::inRange(1, 3));
  TestTensor padding_tensor = IntConstant(paddings);
  padding_tensor.shape = {static_cast<int32_t>(shape.size()), 2};
  c.inputs = {FloatTensor(shape), padding_tensor};
  if (v2) c.inputs.push_back(FloatTensor({1}, true));
  c.outputs = {Output(out)};
  CheckAgainstCpu(c);
}

void MirrorPadMatchesCpu() {
  const std::vector<int32_t> shape = SmallShape(3);
  std::vector<int32_t> paddings, out = shape;
  // REFLECT (the one mode the gpu profile takes): at most dim - 1 on each side.
  for (size_t d = 0; d < shape.size(); ++d) {
    const int32_t before = *rc::gen::inRange(0, shape[d]), after = *rc::gen::inRange(0, shape[d]);
    paddings.push_back(before);
    paddings.push_back(after);
    out[d] += before + after;
  }
  NodeCase c = Op("MIRROR_PAD", *rc::gen::inRange(1, 3));
  TestTensor padding_tensor = IntConstant(paddings);
  padding_tensor.shape = {static_cast<int32_t>(shape.size()), 2};
  c.inputs = {FloatTensor(shape), padding_tensor};
  c.outputs = {Output(out)};
  CheckAgainstCpu(c);
}

void ReductionMatchesCpu(const std::string& op) {
  const std::vector<int32_t> shape = SmallShape(1);
  const int rank = static_cast<int>(shape.size());
  std::vector<int32_t> axes;
  std::vector<bool> reduced(shape.size(), false);
  for (int d = 0; d < rank; ++d) {
    if (*rc::gen::arbitrary<bool>()) {
      axes.push_back(*rc::gen::arbitrary<bool>() ? d : d - rank);  // negative axes too
      reduced[static_cast<size_t>(d)] = true;
    }
  }
  if (axes.empty()) {
    axes.push_back(rank - 1);
    reduced.back() = true;
  }
  NodeCase c = Op(op.c_str(), *rc::gen::inRange(1, 3));
  c.node.options.Mutable().keep_dims = *rc::gen::arbitrary<bool>();
  c.inputs = {FloatTensor(shape, false, op == "REDUCE_PROD" ? 0.5f : -2.0f, 1.5f),
              IntConstant(axes)};
  std::vector<int32_t> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) out.push_back(shape[d]);
    if (reduced[d] && c.node.options->keep_dims) out.push_back(1);
  }
  c.outputs = {Output(out)};
  if (op == "MEAN" || op == "SUM") {
    CheckAgainstCpu(c);
    return;
  }
  CheckAgainstCpu(c, 1e-4, [op, reduced](const NodeCase& node, std::vector<TestTensor>& outputs) {
    const std::vector<float> in = node.inputs[0].Floats();
    const std::vector<int32_t>& shape = node.inputs[0].shape;
    std::vector<int32_t> kept = shape;  // the output shape with reduced dims as 1
    for (size_t d = 0; d < shape.size(); ++d) kept[d] = reduced[d] ? 1 : shape[d];
    std::vector<float> out(static_cast<size_t>(outputs[0].NumElements()),
                           op == "REDUCE_MAX"   ? -INFINITY
                           : op == "REDUCE_MIN" ? INFINITY
                                                : 1.0f);
    for (size_t i = 0; i < in.size(); ++i) {
      // The output element of input element i: its coordinates with reduced dims at 0.
      size_t rest = i, o = 0, stride = 1;
      for (size_t k = 0; k < shape.size(); ++k) {
        const size_t d = shape.size() - 1 - k;
        const size_t coordinate = rest % static_cast<size_t>(shape[d]);
        rest /= static_cast<size_t>(shape[d]);
        if (!reduced[d]) o += coordinate * stride;
        stride *= static_cast<size_t>(kept[d]);
      }
      if (op == "REDUCE_MAX") out[o] = std::max(out[o], in[i]);
      if (op == "REDUCE_MIN") out[o] = std::min(out[o], in[i]);
      if (op == "REDUCE_PROD") out[o] *= in[i];
    }
    std::memcpy(outputs[0].bytes.data(), out.data(), out.size() * sizeof(float));
  });
}

void SoftmaxMatchesCpu() {
  std::vector<int32_t> shape = SmallShape(1);
  shape.back() = *rc::gen::inRange(1, 100);
  NodeCase c = Op("SOFTMAX", *rc::gen::inRange(1, 3));
  c.node.options.Mutable().beta = 1.0f;  // the only beta the gpu profile takes
  c.inputs = {FloatTensor(shape, false, -10.0f, 10.0f)};
  c.outputs = {Output(shape)};
  CheckAgainstCpu(c);
}

}  // namespace tfa::runtime::opencl_property
