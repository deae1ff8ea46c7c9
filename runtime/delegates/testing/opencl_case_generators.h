// rapidcheck generators of the OpenCL kernels' property cases: float and int tensors, shapes,
// spatial sizes and channel counts, and the windows of convolutions and pools.
#ifndef RUNTIME_DELEGATES_TESTING_OPENCL_CASE_GENERATORS_H_
#define RUNTIME_DELEGATES_TESTING_OPENCL_CASE_GENERATORS_H_

#include <cstdint>
#include <vector>

#include "libanalysis/model/graph.h"
#include "runtime/delegates/testing/opencl_node_check.h"

namespace tfa::runtime::opencl_property {

std::vector<uint8_t> IntBytes(const std::vector<int32_t>& values);

TestTensor FloatTensor(std::vector<int32_t> shape, bool constant = false, float lo = -2.0f,
                       float hi = 2.0f);

TestTensor IntConstant(std::vector<int32_t> values);

TestTensor Output(std::vector<int32_t> shape, TensorType type = TensorType::kFloat32);

// Spatial extents: mostly small, sometimes odd and large.
int32_t SpatialSize();

// Channel counts: most not a multiple of 4, some wide.
int32_t Channels();

// A shape of small dims, of rank min_rank..max_rank.
std::vector<int32_t> SmallShape(int min_rank = 1, int max_rank = 4);

Activation FusedActivation();

Padding AnyPadding();

int32_t WindowOut(Padding padding, int32_t in, int32_t filter, int32_t stride, int32_t dilation);

NodeCase Op(const char* op, int32_t version = 1);

// Batch, spatial extents and window options of a conv or pool, with an output of at least 1x1.
struct Window {
  int32_t batch, h, w, kh, kw, sh, sw, dh = 1, dw = 1;
  Padding padding;
  int32_t oh() const { return WindowOut(padding, h, kh, sh, dh); }
  int32_t ow() const { return WindowOut(padding, w, kw, sw, dw); }
};

// A window and channel counts: mostly AnyWindow's, sometimes a segmentation head's (few
// channels, so that the CPU reference stays quick).
struct ConvCase {
  Window g;
  int32_t in_c, out_c;
};

Window AnyWindow(bool dilated);

// The maps of segmentation heads: 128..256 wide, a 1x1 or 3x3 window, stride 1 or 2.
Window HeadWindow();

ConvCase AnyConvCase(bool dilated);

OpOptions WindowOptions(const Window& g);

}  // namespace tfa::runtime::opencl_property

#endif  // RUNTIME_DELEGATES_TESTING_OPENCL_CASE_GENERATORS_H_
