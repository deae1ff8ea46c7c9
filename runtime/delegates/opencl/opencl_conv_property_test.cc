// OpenCL kernels against the CPU: convolutions, fully connected, batch matmul.

#include <rapidcheck.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "runtime/delegates/testing/opencl_case_generators.h"
#include "runtime/delegates/testing/opencl_node_check.h"
#include "runtime/delegates/testing/opencl_op_properties.h"

namespace tfa::runtime::opencl_property {

void Conv2DMatchesCpu() {
  const auto [g, in_c, out_c] = AnyConvCase(true);
  NodeCase c = Op("CONV_2D", *rc::gen::inRange(1, 4));
  c.node.options = WindowOptions(g);
  c.inputs = {FloatTensor({g.batch, g.h, g.w, in_c}), FloatTensor({out_c, g.kh, g.kw, in_c}, true)};
  if (*rc::gen::arbitrary<bool>()) c.inputs.push_back(FloatTensor({out_c}, true));
  c.outputs = {Output({g.batch, g.oh(), g.ow(), out_c})};
  CheckAgainstCpu(c);
}

void DepthwiseConv2DMatchesCpu() {
  const Window g = AnyConvCase(true).g;
  const int32_t in_c = Channels(), multiplier = *rc::gen::inRange(1, 4);
  NodeCase c = Op("DEPTHWISE_CONV_2D", *rc::gen::inRange(1, 3));
  c.node.options = WindowOptions(g);
  c.node.options.Mutable().depth_multiplier = multiplier;
  const int32_t out_c = in_c * multiplier;
  c.inputs = {FloatTensor({g.batch, g.h, g.w, in_c}), FloatTensor({1, g.kh, g.kw, out_c}, true)};
  if (*rc::gen::arbitrary<bool>()) c.inputs.push_back(FloatTensor({out_c}, true));
  c.outputs = {Output({g.batch, g.oh(), g.ow(), out_c})};
  CheckAgainstCpu(c);
}

void TransposeConvMatchesCpu() {
  const int32_t batch = *rc::gen::inRange(1, 3), h = *rc::gen::inRange(1, 12),
                w = *rc::gen::inRange(1, 12), in_c = Channels(), out_c = Channels();
  const int32_t kh = *rc::gen::inRange(1, 6), kw = *rc::gen::inRange(1, 6);
  const int32_t sh = *rc::gen::inRange(1, 4), sw = *rc::gen::inRange(1, 4);
  const Padding padding = AnyPadding();
  // The output extents the converter writes: SAME in * stride, VALID (in - 1) * stride + k.
  const int32_t oh = padding == Padding::kSame ? h * sh : (h - 1) * sh + kh;
  const int32_t ow = padding == Padding::kSame ? w * sw : (w - 1) * sw + kw;
  NodeCase c = Op("TRANSPOSE_CONV", *rc::gen::inRange(1, 4));
  c.node.options.Mutable().padding = padding;
  c.node.options.Mutable().stride_h = sh;
  c.node.options.Mutable().stride_w = sw;
  c.inputs = {IntConstant({batch, oh, ow, out_c}), FloatTensor({out_c, kh, kw, in_c}, true),
              FloatTensor({batch, h, w, in_c})};
  if (*rc::gen::arbitrary<bool>()) c.inputs.push_back(FloatTensor({out_c}, true));
  c.node.options.Mutable().fused_activation = FusedActivation();
  c.outputs = {Output({batch, oh, ow, out_c})};
  CheckAgainstCpu(c);
}

void Convolution2DTransposeBiasMatchesCpu() {
  const int32_t batch = *rc::gen::inRange(1, 3), h = *rc::gen::inRange(1, 12),
                w = *rc::gen::inRange(1, 12), in_c = Channels(), out_c = Channels();
  const int32_t kh = *rc::gen::inRange(1, 6), kw = *rc::gen::inRange(1, 6);
  const int32_t sh = *rc::gen::inRange(1, 4), sw = *rc::gen::inRange(1, 4);
  const bool same = *rc::gen::arbitrary<bool>();
  const int32_t pad_h = same ? std::max(0, kh - (h - 1) % sh - 1) : 0;
  const int32_t pad_w = same ? std::max(0, kw - (w - 1) % sw - 1) : 0;
  NodeCase c = Op("Convolution2DTransposeBias");
  c.node.kind = NodeKind::kCustom;
  // TfLiteTransposeConvParams: padding (1 SAME, 2 VALID), stride_width, stride_height.
  const int32_t params[3] = {same ? 1 : 2, sw, sh};
  c.custom_options.resize(sizeof(params));
  std::memcpy(c.custom_options.data(), params, sizeof(params));
  c.inputs = {FloatTensor({batch, h, w, in_c}), FloatTensor({out_c, kh, kw, in_c}, true),
              FloatTensor({out_c}, true)};
  c.outputs = {Output({batch, sh * (h - 1) + kh - pad_h, sw * (w - 1) + kw - pad_w, out_c})};
  CheckAgainstCpu(c);
}

void FullyConnectedMatchesCpu() {
  const int32_t units = *rc::gen::inRange(1, 40);
  std::vector<int32_t> in_shape = SmallShape(1);
  in_shape.back() = *rc::gen::weightedOneOf<int32_t>(
      {{3, rc::gen::inRange(1, 70)}, {1, rc::gen::inRange(250, 600)}});
  const int32_t in_dim = in_shape.back();
  int32_t batch = 1;
  for (size_t d = 0; d + 1 < in_shape.size(); ++d) batch *= in_shape[d];
  NodeCase c = Op("FULLY_CONNECTED", *rc::gen::inRange(1, 10));
  c.node.options.Mutable().fused_activation = FusedActivation();
  c.node.options.Mutable().keep_num_dims = *rc::gen::arbitrary<bool>();
  c.inputs = {FloatTensor(in_shape), FloatTensor({units, in_dim}, true)};
  if (*rc::gen::arbitrary<bool>()) c.inputs.push_back(FloatTensor({units}, true));
  std::vector<int32_t> out_shape = {batch, units};
  if (c.node.options->keep_num_dims) {
    out_shape = in_shape;
    out_shape.back() = units;
  }
  c.outputs = {Output(out_shape)};
  CheckAgainstCpu(c);
}

void BatchMatmulMatchesReference() {
  const int32_t batch = *rc::gen::inRange(1, 4), m = *rc::gen::inRange(1, 9),
                n = *rc::gen::inRange(1, 9), k = *rc::gen::inRange(1, 20);
  const bool adj_x = *rc::gen::arbitrary<bool>(), adj_y = *rc::gen::arbitrary<bool>();
  const bool broadcast_b = *rc::gen::arbitrary<bool>();
  NodeCase c = Op("BATCH_MATMUL", *rc::gen::inRange(1, 4));
  c.node.options.Mutable().adj_x = adj_x;
  c.node.options.Mutable().adj_y = adj_y;
  std::vector<int32_t> a_shape = {batch, adj_x ? k : m, adj_x ? m : k};
  std::vector<int32_t> b_shape = {adj_y ? n : k, adj_y ? k : n};
  if (!broadcast_b) b_shape.insert(b_shape.begin(), batch);
  c.inputs = {FloatTensor(a_shape), FloatTensor(b_shape, *rc::gen::arbitrary<bool>())};
  c.outputs = {Output({batch, m, n})};
  CheckAgainstCpu(c, 1e-4, [=](const NodeCase& node, std::vector<TestTensor>& outputs) {
    const std::vector<float> a = node.inputs[0].Floats(), b = node.inputs[1].Floats();
    std::vector<float> out(static_cast<size_t>(outputs[0].NumElements()));
    for (int32_t p = 0; p < batch; ++p) {
      const size_t a0 = static_cast<size_t>(p) * m * k;
      const size_t b0 = broadcast_b ? 0 : static_cast<size_t>(p) * k * n;
      for (int32_t i = 0; i < m; ++i)
        for (int32_t j = 0; j < n; ++j) {
          float sum = 0;
          for (int32_t q = 0; q < k; ++q) {
            const float x = a[a0 + static_cast<size_t>(adj_x ? q * m + i : i * k + q)];
            const float y = b[b0 + static_cast<size_t>(adj_y ? j * k + q : q * n + j)];
            sum += x * y;
          }
          out[(static_cast<size_t>(p) * m + i) * n + j] = sum;
        }
    }
    std::memcpy(outputs[0].bytes.data(), out.data(), out.size() * sizeof(float));
  });
}

}  // namespace tfa::runtime::opencl_property
