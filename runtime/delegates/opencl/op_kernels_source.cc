#include "runtime/delegates/opencl/op_kernels_source.h"

namespace tfa::runtime {

// Kept in step with ClBinaryOp / ClUnaryOp by their numeric values.
const char kOpKernelsSource[] = R"CLC(
// Precision (ClPrecision): TFA_FP16_STORAGE rounds every stored float to half (upstream's
// F32_F16 and F16), TFA_FP16_COMPUTE also rounds every accumulation step (F16). Rounding goes
// through vstore_half_rte / vload_half, core OpenCL 1.2, so it needs no half arithmetic.
#ifdef TFA_FP16_STORAGE
inline float stored(float x) {
  ushort bits;
  vstore_half_rte(x, 0, (__private half*)&bits);
  return vload_half(0, (__private const half*)&bits);
}
#else
inline float stored(float x) { return x; }
#endif
#ifdef TFA_FP16_COMPUTE
inline float accumulated(float x) { return stored(x); }
#else
inline float accumulated(float x) { return x; }
#endif

// Every kernel takes the element count last (`work_items`) and computes one element per
// work-item: launches run whole work-groups of a fixed size, so the last group's surplus
// work-items return at once.
#define ELEMENT_OR_RETURN(gid)        \
  const int gid = get_global_id(0); \
  if (gid >= work_items) return

// Index arithmetic shared by every kernel. Shapes and strides travel as int4, right-aligned to
// rank 4 (dims.x, the outermost, is never needed to unravel).
inline int4 unravel(int index, int4 dims) {
  int4 i;
  i.w = index % dims.w;
  index /= dims.w;
  i.z = index % dims.z;
  index /= dims.z;
  i.y = index % dims.y;
  i.x = index / dims.y;
  return i;
}

inline int offset_at(int4 i, int4 strides) {
  return i.x * strides.x + i.y * strides.y + i.z * strides.z + i.w * strides.w;
}

inline int dense_offset(int4 i, int4 dims) {
  return ((i.x * dims.y + i.y) * dims.z + i.z) * dims.w + i.w;
}

// The element of a [outer, axis_size, inner] slice at `index` within the tensor it is cut from
// (or placed into) at `offset` along an axis of `full_axis` (concatenations, splits, pack).
inline int slice_element(int index, int axis_size, int inner, int full_axis, int offset) {
  const int4 i = unravel(index, (int4)(0, 1, axis_size, inner));  // (outer, 0, a, i)
  return (i.x * full_axis + offset + i.z) * inner + i.w;
}

// The two operands of an element-wise op at the output element `index`, each read through its
// broadcast strides.
inline float2 operands(__global const float* a, __global const float* b, int index, int4 dims,
                       int4 a_strides, int4 b_strides) {
  const int4 i = unravel(index, dims);
  return (float2)(a[offset_at(i, a_strides)], b[offset_at(i, b_strides)]);
}

inline float clamp_act(float x, float lo, float hi) { return stored(fmin(fmax(x, lo), hi)); }

// Windows of convolutions and pools: `window` is (KH, KW, stride_h, stride_w), `dilation_pad`
// is (dilation_h, dilation_w, pad_top, pad_left); in_dims and out_dims are NHWC.
//
// CONV_2D (multiplier 0, weights [OC, KH, KW, C]: every channel of a tap) and DEPTHWISE_CONV_2D
// (weights [1, KH, KW, OC], OC = C * multiplier: channel oc / multiplier of a tap) share the
// window sum over the taps inside the input. The bias comes after the sum, as in upstream's
// conv kernels (tasks/conv_generic.cc, depthwise_conv.cc) and the CPU kernels: started at the
// bias, every partial sum rounds at the bias's magnitude, and a deep head amplifies that.
__kernel void conv2d(__global const float* in, __global const float* w,
                     __global const float* bias, __global float* out, int4 in_dims,
                     int4 out_dims, int4 window, int4 dilation_pad, int multiplier, int has_bias,
                     float lo, float hi, int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int4 p = unravel(gid, out_dims);  // (n, oy, ox, oc)
  const int H = in_dims.y, W = in_dims.z, C = in_dims.w;
  const int depthwise = multiplier > 0;
  const int channels = depthwise ? 1 : C;
  const int tap_stride = depthwise ? out_dims.w : C;
  __global const float* filter = depthwise ? w + p.w : w + p.w * window.x * window.y * C;
  const int c0 = depthwise ? p.w / multiplier : 0;
  float sum = 0.0f;
  for (int ky = 0; ky < window.x; ++ky) {
    const int iy = p.y * window.z - dilation_pad.z + ky * dilation_pad.x;
    if (iy < 0 || iy >= H) continue;
    for (int kx = 0; kx < window.y; ++kx) {
      const int ix = p.z * window.w - dilation_pad.w + kx * dilation_pad.y;
      if (ix < 0 || ix >= W) continue;
      __global const float* ip = in + ((p.x * H + iy) * W + ix) * C + c0;
      __global const float* wp = filter + (ky * window.y + kx) * tap_stride;
      for (int c = 0; c < channels; ++c) sum = accumulated(sum + ip[c] * wp[c]);
    }
  }
  if (has_bias) sum = accumulated(sum + bias[p.w]);
  out[gid] = clamp_act(sum, lo, hi);
}

// weights [OC, KH, KW, C]; each output gathers the input pixels whose taps reach it.
__kernel void transpose_conv2d(__global const float* in, __global const float* w,
                               __global const float* bias, __global float* out, int4 in_dims,
                               int4 out_dims, int4 window, int4 dilation_pad, int has_bias,
                               float lo, float hi, int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int4 p = unravel(gid, out_dims);  // (n, oy, ox, oc)
  float sum = 0.0f;
  for (int ky = 0; ky < window.x; ++ky) {
    const int ty = p.y + dilation_pad.z - ky;
    if (ty < 0 || ty % window.z != 0 || ty / window.z >= in_dims.y) continue;
    for (int kx = 0; kx < window.y; ++kx) {
      const int tx = p.z + dilation_pad.w - kx;
      if (tx < 0 || tx % window.w != 0 || tx / window.w >= in_dims.z) continue;
      __global const float* ip =
          in + dense_offset((int4)(p.x, ty / window.z, tx / window.w, 0), in_dims);
      __global const float* wp = w + ((p.w * window.x + ky) * window.y + kx) * in_dims.w;
      for (int c = 0; c < in_dims.w; ++c) sum = accumulated(sum + ip[c] * wp[c]);
    }
  }
  if (has_bias) sum = accumulated(sum + bias[p.w]);
  out[gid] = clamp_act(sum, lo, hi);
}

// in [batches, K], weights [O, K]
__kernel void fully_connected(__global const float* in, __global const float* w,
                              __global const float* bias, __global float* out,
                              int K, int O, int has_bias, float lo, float hi, int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int o = gid % O;
  const int b = gid / O;
  float sum = 0.0f;
  __global const float* ip = in + b * K;
  __global const float* wp = w + o * K;
  for (int k = 0; k < K; ++k) sum = accumulated(sum + ip[k] * wp[k]);
  if (has_bias) sum = accumulated(sum + bias[o]);
  out[gid] = clamp_act(sum, lo, hi);
}

// Element-wise kernels with broadcasting: the output's dims, and per operand its element
// strides over them (0 on broadcast dims).
__kernel void binary(__global const float* a, __global const float* b, __global float* out,
                     int4 dims, int4 a_strides, int4 b_strides, int op, float lo, float hi,
                     int work_items) {
  ELEMENT_OR_RETURN(gid);
  const float2 v = operands(a, b, gid, dims, a_strides, b_strides);
  const float x = v.x, y = v.y;
  float r;
  switch (op) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    case 3: r = x / y; break;
    case 4: r = fmax(x, y); break;
    case 5: r = fmin(x, y); break;
    case 6: r = (x - y) * (x - y); break;
    case 7: r = pow(x, y); break;
    case 8: r = x >= 0.0f ? x : x * y; break;
    case 9: r = floor(x / y); break;
    default:
      r = fmod(x, y);
      if (r != 0.0f && (r < 0.0f) != (y < 0.0f)) r += y;
      break;
  }
  out[gid] = clamp_act(r, lo, hi);
}

__kernel void unary(__global const float* in, __global float* out, int op, float alpha,
                    int work_items) {
  ELEMENT_OR_RETURN(gid);
  const float x = in[gid];
  float r;
  switch (op) {
    case 0: r = fmax(x, 0.0f); break;
    case 1: r = clamp(x, 0.0f, 6.0f); break;
    case 2: r = clamp(x, -1.0f, 1.0f); break;
    case 3: r = clamp(x, 0.0f, 1.0f); break;
    case 4: r = 1.0f / (1.0f + exp(-x)); break;
    case 5: r = tanh(x); break;
    case 6: r = x * clamp(x + 3.0f, 0.0f, 6.0f) / 6.0f; break;
    case 7: r = x < 0.0f ? expm1(x) : x; break;
    case 8: r = x < 0.0f ? alpha * x : x; break;
    case 9: r = fabs(x); break;
    case 10: r = exp(x); break;
    case 11: r = log(x); break;
    case 12: r = sqrt(x); break;
    case 13: r = rsqrt(x); break;
    case 14: r = x * x; break;
    case 15: r = -x; break;
    case 16: r = sin(x); break;
    case 17: r = cos(x); break;
    case 18: r = floor(x); break;
    case 19: r = x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f); break;
    default: r = 0.5f * x * (1.0f + erf(x * M_SQRT1_2_F)); break;
  }
  out[gid] = stored(r);
}

// Average (is_average = 1) or max pooling; averages count only the window inside the input.
// `window` and `dilation_pad` as conv2d's (no dilation).
__kernel void pool2d(__global const float* in, __global float* out, int4 in_dims, int4 out_dims,
                     int4 window, int4 dilation_pad, int is_average, float lo, float hi,
                     int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int4 p = unravel(gid, out_dims);  // (n, oy, ox, c)
  const int H = in_dims.y, W = in_dims.z, C = in_dims.w;
  const int y0 = p.y * window.z - dilation_pad.z, x0 = p.z * window.w - dilation_pad.w;
  const int y_begin = max(0, y0), y_end = min(H, y0 + window.x);
  const int x_begin = max(0, x0), x_end = min(W, x0 + window.y);
  float acc = is_average ? 0.0f : -FLT_MAX;
  for (int y = y_begin; y < y_end; ++y) {
    for (int x = x_begin; x < x_end; ++x) {
      const float v = in[((p.x * H + y) * W + x) * C + p.w];
      acc = is_average ? accumulated(acc + v) : fmax(acc, v);
    }
  }
  const int count = (y_end - y_begin) * (x_end - x_begin);
  if (is_average) acc = count > 0 ? acc / (float)count : 0.0f;
  out[gid] = clamp_act(acc, lo, hi);
}

// MediaPipe's MaxPoolingWithArgmax2D: pool2d's max, and where in its window the maximum is,
// y * filter_w + x + 0.1 (the first maximum in row-major order). `window` is (KH, KW, stride_h,
// stride_w), `pad` (top, left, -, -).
__kernel void max_pool_argmax(__global const float* in, __global float* out,
                              __global float* indices, int4 in_dims, int4 out_dims, int4 window,
                              int4 pad, float lo, float hi, int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int4 p = unravel(gid, out_dims);  // (n, oy, ox, c)
  const int H = in_dims.y, W = in_dims.z, C = in_dims.w;
  const int y0 = p.y * window.z - pad.x, x0 = p.z * window.w - pad.y;
  const int fy_end = min(window.x, H - y0), fx_end = min(window.y, W - x0);
  float best = -FLT_MAX;
  int best_y = 0, best_x = 0;
  for (int fy = max(0, -y0); fy < fy_end; ++fy) {
    for (int fx = max(0, -x0); fx < fx_end; ++fx) {
      const float v = in[((p.x * H + y0 + fy) * W + x0 + fx) * C + p.w];
      if (v > best) {
        best = v;
        best_y = fy;
        best_x = fx;
      }
    }
  }
  out[gid] = clamp_act(best, lo, hi);
  indices[gid] = (float)(best_y * window.y + best_x) + 0.1f;
}

// MediaPipe's MaxUnpooling2D, gathered: each output element takes the value of the last input
// (in row-major order, as the scatter writes) whose index points at it, or zero.
__kernel void max_unpool(__global const float* in, __global const float* indices,
                         __global float* out, int4 in_dims, int4 out_dims, int4 window, int4 pad,
                         int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int4 p = unravel(gid, out_dims);  // (n, oy, ox, c)
  const int H = in_dims.y, W = in_dims.z, C = in_dims.w;
  float value = 0.0f;
  int last = -1;
  for (int fy = 0; fy < window.x; ++fy) {
    const int ty = p.y + pad.x - fy;
    if (ty < 0 || ty % window.z != 0 || ty / window.z >= H) continue;
    for (int fx = 0; fx < window.y; ++fx) {
      const int tx = p.z + pad.y - fx;
      if (tx < 0 || tx % window.w != 0 || tx / window.w >= W) continue;
      const int at = ((p.x * H + ty / window.z) * W + tx / window.w) * C + p.w;
      const float index = indices[at];
      if (!(index >= 0.0f && index < 2147483647.0f) || (int)index != fy * window.y + fx) continue;
      if (at > last) {
        last = at;
        value = in[at];
      }
    }
  }
  out[gid] = value;
}

// One input of a concatenation (or PACK): [outer, axis, inner] placed at `offset` along the
// output axis.
__kernel void concat_part(__global const float* in, __global float* out, int axis, int inner,
                          int out_axis, int offset, int work_items) {
  ELEMENT_OR_RETURN(gid);
  out[slice_element(gid, axis, inner, out_axis, offset)] = in[gid];
}

// TFLite's ResizeBilinear / ResizeNearestNeighbor taps (NHWC); `scale` is (scale_h, scale_w).
__kernel void resize_bilinear(__global const float* in, __global float* out, int4 in_dims,
                              int4 out_dims, float2 scale, int half_pixel, int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int4 p = unravel(gid, out_dims);  // (n, oy, ox, c)
  const int H = in_dims.y, W = in_dims.z, C = in_dims.w;
  const float2 position = (float2)((float)p.y, (float)p.z);
  const float2 source = half_pixel ? (position + 0.5f) * scale - 0.5f : position * scale;
  const int y0 = max((int)floor(source.x), 0), y1 = min((int)ceil(source.x), H - 1);
  const int x0 = max((int)floor(source.y), 0), x1 = min((int)ceil(source.y), W - 1);
  const float wy = source.x - (float)y0, wx = source.y - (float)x0;
  __global const float* image = in + p.x * H * W * C + p.w;
  out[gid] = stored(image[(y0 * W + x0) * C] * (1 - wy) * (1 - wx) +
                    image[(y1 * W + x0) * C] * wy * (1 - wx) +
                    image[(y0 * W + x1) * C] * (1 - wy) * wx +
                    image[(y1 * W + x1) * C] * wy * wx);
}

__kernel void resize_nearest(__global const float* in, __global float* out, int4 in_dims,
                             int4 out_dims, float2 scale, int align_corners, int half_pixel,
                             int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int4 p = unravel(gid, out_dims);  // (n, oy, ox, c)
  const float offset = half_pixel ? 0.5f : 0.0f;
  const float2 source = ((float2)((float)p.y, (float)p.z) + offset) * scale;
  int iy = min((int)(align_corners ? round(source.x) : floor(source.x)), in_dims.y - 1);
  int ix = min((int)(align_corners ? round(source.y) : floor(source.y)), in_dims.z - 1);
  if (half_pixel) { iy = max(iy, 0); ix = max(ix, 0); }
  out[gid] = in[dense_offset((int4)(p.x, iy, ix, p.w), in_dims)];
}

// PAD / PADV2: `before` paddings per dim.
__kernel void pad(__global const float* in, __global float* out, int4 out_dims, int4 in_dims,
                  int4 before, float value, int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int4 x = unravel(gid, out_dims) - before;
  const bool inside = all(x >= (int4)(0)) && all(x < in_dims);
  out[gid] = inside ? in[dense_offset(x, in_dims)] : stored(value);
}

// Reduction over the dims whose `reduced` flag is 1; the output keeps them as size 1.
// op: 0 mean, 1 sum, 2 max, 3 min, 4 product.
__kernel void reduce(__global const float* in, __global float* out, int4 in_dims, int4 reduced,
                     int op, int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int4 kept = select(in_dims, (int4)(1), reduced != 0);
  const int4 first = unravel(gid, kept);
  const int4 last = first + select((int4)(1), in_dims, reduced != 0);
  float acc = op == 2 ? -INFINITY : (op == 3 ? INFINITY : (op == 4 ? 1.0f : 0.0f));
  int count = 0;
  for (int a = first.x; a < last.x; ++a)
    for (int b = first.y; b < last.y; ++b)
      for (int c = first.z; c < last.z; ++c)
        for (int d = first.w; d < last.w; ++d) {
          const float v = in[dense_offset((int4)(a, b, c, d), in_dims)];
          switch (op) {
            case 2: acc = fmax(acc, v); break;
            case 3: acc = fmin(acc, v); break;
            case 4: acc = accumulated(acc * v); break;
            default: acc = accumulated(acc + v); break;
          }
          ++count;
        }
  out[gid] = stored(op == 0 ? acc / (float)count : acc);
}

// Elements moved by a map the host computed with the op's CPU kernel on element indices; any
// 4-byte element type, copied bit for bit.
__kernel void gather_map(__global const uint* in, __global const int* map, __global uint* out,
                         int work_items) {
  ELEMENT_OR_RETURN(gid);
  out[gid] = in[map[gid]];
}

// One output of a split (or UNPACK) along an axis: [outer, axis, inner] taken at `offset` of the
// input axis.
__kernel void split_part(__global const uint* in, __global uint* out, int axis, int inner,
                         int in_axis, int offset, int work_items) {
  ELEMENT_OR_RETURN(gid);
  out[gid] = in[slice_element(gid, axis, inner, in_axis, offset)];
}

__kernel void tile(__global const uint* in, __global uint* out, int4 out_dims, int4 in_dims,
                   int work_items) {
  ELEMENT_OR_RETURN(gid);
  out[gid] = in[dense_offset(unravel(gid, out_dims) % in_dims, in_dims)];
}

// Comparisons (op 0 ==, 1 !=, 2 >, 3 >=, 4 <, 5 <=) of float32 inputs, broadcast as `binary`;
// the result is a bool (one byte, 0 or 1).
__kernel void compare(__global const float* a, __global const float* b, __global uchar* out,
                      int4 dims, int4 a_strides, int4 b_strides, int op, int work_items) {
  ELEMENT_OR_RETURN(gid);
  const float2 v = operands(a, b, gid, dims, a_strides, b_strides);
  const float x = v.x, y = v.y;
  bool r;
  switch (op) {
    case 0: r = x == y; break;
    case 1: r = x != y; break;
    case 2: r = x > y; break;
    case 3: r = x >= y; break;
    case 4: r = x < y; break;
    default: r = x <= y; break;
  }
  out[gid] = r ? 1 : 0;
}

__kernel void logical_and(__global const uchar* a, __global const uchar* b, __global uchar* out,
                          int4 dims, int4 a_strides, int4 b_strides, int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int4 i = unravel(gid, dims);
  out[gid] = (a[offset_at(i, a_strides)] != 0 && b[offset_at(i, b_strides)] != 0) ? 1 : 0;
}

// SELECT / SELECT_V2: condition ? x : y, each operand broadcast as `binary`.
__kernel void select_where(__global const uchar* condition, __global const float* x,
                           __global const float* y, __global float* out, int4 dims,
                           int4 condition_strides, int4 x_strides, int4 y_strides,
                           int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int4 i = unravel(gid, dims);
  out[gid] = condition[offset_at(i, condition_strides)] != 0 ? x[offset_at(i, x_strides)]
                                                             : y[offset_at(i, y_strides)];
}

__kernel void cast_bool_to_float(__global const uchar* in, __global float* out, int work_items) {
  ELEMENT_OR_RETURN(gid);
  out[gid] = in[gid] != 0 ? 1.0f : 0.0f;
}

// CAST between float32 and int32 (C conversions: float to int truncates toward zero).
__kernel void cast_float_to_int(__global const float* in, __global int* out, int work_items) {
  ELEMENT_OR_RETURN(gid);
  out[gid] = (int)in[gid];
}

__kernel void cast_int_to_float(__global const int* in, __global float* out, int work_items) {
  ELEMENT_OR_RETURN(gid);
  out[gid] = stored((float)in[gid]);
}

// BATCH_MATMUL of [batch, M, K] by [batch, K, N] (adj flags transpose the last two dims); a
// batch stride of 0 broadcasts.
__kernel void batch_matmul(__global const float* a, __global const float* b, __global float* out,
                           int M, int N, int K, int a_batch, int b_batch, int adj_a, int adj_b,
                           int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int4 i = unravel(gid, (int4)(0, 1, M, N));  // (batch, 0, m, n)
  __global const float* ap = a + i.x * a_batch;
  __global const float* bp = b + i.x * b_batch;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) {
    const float x = adj_a ? ap[k * M + i.z] : ap[i.z * K + k];
    const float y = adj_b ? bp[i.w * K + k] : bp[k * N + i.w];
    sum = accumulated(sum + x * y);
  }
  out[gid] = stored(sum);
}

// Softmax over the last dim (`depth`); one work-item per element recomputes its row's max and
// sum, which is cheap for the row lengths models use and needs no local memory.
__kernel void softmax(__global const float* in, __global float* out, int depth, float beta,
                      int work_items) {
  ELEMENT_OR_RETURN(gid);
  __global const float* row = in + (gid / depth) * depth;
  float max_value = row[0];
  for (int i = 1; i < depth; ++i) max_value = fmax(max_value, row[i]);
  float sum = 0.0f;
  for (int i = 0; i < depth; ++i) sum = accumulated(sum + exp((row[i] - max_value) * beta));
  out[gid] = stored(exp((in[gid] - max_value) * beta) / sum);
}

// QUANTIZE and DEQUANTIZE inside a partition: the float value clamped to the quantized tensor's
// [lo, hi], snapped to the grid of `scale` counted from lo (round() takes halves away from zero).
__kernel void quantize_dequantize(__global const float* in, __global float* out, float lo,
                                  float hi, float scale, int work_items) {
  ELEMENT_OR_RETURN(gid);
  const float clamped = fmin(hi, fmax(lo, in[gid]));
  out[gid] = stored(round((clamped - lo) / scale) * scale + lo);
}

// LSTM's full kernel at batch 1, one step (the CPU kernel's LstmStepFloat; upstream's GPU graph of
// lstm_parser.cc computes the same gates). `sizes` is (n_input, n_cell, n_output, flags), flags:
// 1 CIFG (no input gate: 1 - forget gate), 2 peephole, 4 layer normalisation, 8 projection,
// 16 projection bias; `act` the cell activation (0 none, 1 RELU, 3 RELU6, 4 TANH); `clips` the
// cell and projection clips (0: none). Absent tensors arrive as a placeholder their flag keeps
// unread. One work-item: layer normalisation and the projection read every cell. `scratch` holds
// the four gates, the new cell state and the cell output (n_cell each). The new states stay on
// the device: upstream's graph updates its variable values there, and the next Invoke uploads
// the host's state again.
inline float lstm_activation(float x, int act) {
  switch (act) {
    case 0: return x;
    case 1: return fmax(x, 0.0f);
    case 3: return clamp(x, 0.0f, 6.0f);
    default: return tanh(x);
  }
}

// One gate: bias (0 with layer normalisation), the input and recurrent products, the peephole
// on `cell` (gate 2, the cell gate, has none), normalisation, then its activation.
inline void lstm_gate(int g, __global const float* x, __global const float* h,
                      __global const float* cell, __global const float* w,
                      __global const float* r, __global const float* peephole,
                      __global const float* bias, __global const float* norm,
                      __global float* gate, int4 sizes, int act) {
  const int n_input = sizes.x, n_cell = sizes.y, n_output = sizes.z, flags = sizes.w;
  for (int j = 0; j < n_cell; ++j) {
    float sum = (flags & 4) ? 0.0f : bias[j];
    float dot = 0.0f;
    for (int k = 0; k < n_input; ++k) dot += w[j * n_input + k] * x[k];
    sum += dot;
    dot = 0.0f;
    for (int k = 0; k < n_output; ++k) dot += r[j * n_output + k] * h[k];
    sum += dot;
    if ((flags & 2) && g != 2) sum += peephole[j] * cell[j];
    gate[j] = sum;
  }
  if (flags & 4) {
    float mean = 0.0f;
    for (int j = 0; j < n_cell; ++j) mean += gate[j];
    mean /= (float)n_cell;
    float squares = 0.0f;
    for (int j = 0; j < n_cell; ++j) squares += (gate[j] - mean) * (gate[j] - mean);
    const float inverse = 1.0f / sqrt(squares / (float)n_cell + 1e-8f);
    for (int j = 0; j < n_cell; ++j) gate[j] = (gate[j] - mean) * inverse * norm[j] + bias[j];
  }
  for (int j = 0; j < n_cell; ++j)
    gate[j] = g == 2 ? lstm_activation(gate[j], act) : 1.0f / (1.0f + exp(-gate[j]));
}

__kernel void lstm_step(__global const float* x, __global const float* w_i,
                        __global const float* w_f, __global const float* w_c,
                        __global const float* w_o, __global const float* r_i,
                        __global const float* r_f, __global const float* r_c,
                        __global const float* r_o, __global const float* p_i,
                        __global const float* p_f, __global const float* p_o,
                        __global const float* b_i, __global const float* b_f,
                        __global const float* b_c, __global const float* b_o,
                        __global const float* projection, __global const float* projection_bias,
                        __global const float* h, __global const float* c,
                        __global const float* n_i, __global const float* n_f,
                        __global const float* n_c, __global const float* n_o,
                        __global float* out, __global float* scratch, int4 sizes, int act,
                        float2 clips, int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int n_cell = sizes.y, n_output = sizes.z, flags = sizes.w;
  __global float* input_gate = scratch;
  __global float* forget_gate = scratch + n_cell;
  __global float* cell_gate = scratch + 2 * n_cell;
  __global float* output_gate = scratch + 3 * n_cell;
  __global float* new_cell = scratch + 4 * n_cell;
  __global float* hidden = scratch + 5 * n_cell;
  if (!(flags & 1)) lstm_gate(0, x, h, c, w_i, r_i, p_i, b_i, n_i, input_gate, sizes, act);
  lstm_gate(1, x, h, c, w_f, r_f, p_f, b_f, n_f, forget_gate, sizes, act);
  lstm_gate(2, x, h, c, w_c, r_c, p_f, b_c, n_c, cell_gate, sizes, act);
  for (int j = 0; j < n_cell; ++j) {
    const float in_gate = (flags & 1) ? 1.0f - forget_gate[j] : input_gate[j];
    float next = forget_gate[j] * c[j] + cell_gate[j] * in_gate;
    if (clips.x > 0.0f) next = clamp(next, -clips.x, clips.x);
    new_cell[j] = next;
  }
  // The output gate's peephole reads the new cell state.
  lstm_gate(3, x, h, new_cell, w_o, r_o, p_o, b_o, n_o, output_gate, sizes, act);
  for (int j = 0; j < n_cell; ++j) hidden[j] = output_gate[j] * lstm_activation(new_cell[j], act);
  for (int k = 0; k < n_output; ++k) {
    float value = hidden[k];
    if (flags & 8) {
      value = (flags & 16) ? projection_bias[k] : 0.0f;
      float dot = 0.0f;
      for (int j = 0; j < n_cell; ++j) dot += projection[k * n_cell + j] * hidden[j];
      value += dot;
      if (clips.y > 0.0f) value = clamp(value, -clips.y, clips.y);
    }
    out[k] = stored(value);
  }
}

// LSTM's basic kernel after its concatenation and fully connected steps: the cell of upstream's
// GPU LSTM task (tasks/lstm.cc), one work-item per unit of a batch row. `gates` is
// [batch, 4 * depth]: input gate, input modulation, forget gate, output gate.
__kernel void basic_lstm_cell(__global const float* gates, __global const float* prev_state,
                              __global float* activation, __global float* state, int depth,
                              int work_items) {
  ELEMENT_OR_RETURN(gid);
  const int b = gid / depth, c = gid % depth;
  __global const float* g = gates + b * 4 * depth;
  const float input_gate = 1.0f / (1.0f + exp(-g[c]));
  const float input_modulation = tanh(g[depth + c]);
  const float forget_gate = 1.0f / (1.0f + exp(-g[2 * depth + c]));
  const float output_gate = 1.0f / (1.0f + exp(-g[3 * depth + c]));
  const float new_state = stored(input_gate * input_modulation + forget_gate * prev_state[gid]);
  state[gid] = new_state;
  activation[gid] = stored(output_gate * tanh(new_state));
}

// Rounds a float buffer in place to what fp16 storage keeps (inputs and weights uploaded to a
// delegate running at F32_F16 or F16).
__kernel void round_to_storage(__global float* x, int work_items) {
  ELEMENT_OR_RETURN(gid);
  x[gid] = stored(x[gid]);
}
)CLC";

}  // namespace tfa::runtime
