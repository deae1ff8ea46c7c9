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

// Every kernel takes the element count last (`work_items`): launches run whole work-groups of a
// fixed size, so the last group's surplus work-items return at once.

// Index arithmetic shared by every kernel: a work-item's linear index as coordinates of a
// row-major tensor of dims (d0, d1, d2, d3), and coordinates back to an element offset.
inline int4 unravel4(int index, int d1, int d2, int d3) {
  int4 i;
  i.w = index % d3;
  index /= d3;
  i.z = index % d2;
  index /= d2;
  i.y = index % d1;
  i.x = index / d1;
  return i;
}

inline int offset4(int4 i, int s0, int s1, int s2, int s3) {
  return i.x * s0 + i.y * s1 + i.z * s2 + i.w * s3;
}

inline float clamp_act(float x, float lo, float hi) { return stored(fmin(fmax(x, lo), hi)); }

// The window of a convolution at output pixel (n, oy, ox): the sum over the taps inside the
// input of `channels` input channels from c0 times the weights at w + tap * w_tap_stride.
// CONV_2D reads every channel of a tap ([OC, KH, KW, C] weights); DEPTHWISE_CONV_2D one
// ([1, KH, KW, OC] weights).
inline float window_sum(__global const float* in, __global const float* w, int n, int oy, int ox,
                        int H, int W, int C, int c0, int channels, int w_tap_stride, int KH,
                        int KW, int sh, int sw, int dh, int dw, int pt, int pl, float sum) {
  for (int ky = 0; ky < KH; ++ky) {
    const int iy = oy * sh - pt + ky * dh;
    if (iy < 0 || iy >= H) continue;
    for (int kx = 0; kx < KW; ++kx) {
      const int ix = ox * sw - pl + kx * dw;
      if (ix < 0 || ix >= W) continue;
      __global const float* ip = in + ((n * H + iy) * W + ix) * C + c0;
      __global const float* wp = w + (ky * KW + kx) * w_tap_stride;
      for (int c = 0; c < channels; ++c) sum = accumulated(sum + ip[c] * wp[c]);
    }
  }
  return sum;
}

// weights [OC, KH, KW, C]
__kernel void conv2d(__global const float* in, __global const float* w,
                     __global const float* bias, __global float* out,
                     int H, int W, int C, int OH, int OW, int OC, int KH, int KW,
                     int sh, int sw, int dh, int dw, int pt, int pl, int has_bias,
                     float lo, float hi, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 p = unravel4(gid, OH, OW, OC);  // (n, oy, ox, oc)
  const float sum = window_sum(in, w + p.w * KH * KW * C, p.x, p.y, p.z, H, W, C, 0, C, C, KH,
                               KW, sh, sw, dh, dw, pt, pl, has_bias ? bias[p.w] : 0.0f);
  out[gid] = clamp_act(sum, lo, hi);
}

// weights [1, KH, KW, OC], OC = C * multiplier
__kernel void depthwise_conv2d(__global const float* in, __global const float* w,
                               __global const float* bias, __global float* out,
                               int H, int W, int C, int OH, int OW, int OC, int KH, int KW,
                               int sh, int sw, int dh, int dw, int pt, int pl, int has_bias,
                               float lo, float hi, int multiplier, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 p = unravel4(gid, OH, OW, OC);  // (n, oy, ox, oc)
  const float sum = window_sum(in, w + p.w, p.x, p.y, p.z, H, W, C, p.w / multiplier, 1, OC, KH,
                               KW, sh, sw, dh, dw, pt, pl, has_bias ? bias[p.w] : 0.0f);
  out[gid] = clamp_act(sum, lo, hi);
}

// weights [OC, KH, KW, C]; each output gathers the input pixels whose taps reach it.
__kernel void transpose_conv2d(__global const float* in, __global const float* w,
                               __global const float* bias, __global float* out,
                               int H, int W, int C, int OH, int OW, int OC, int KH, int KW,
                               int sh, int sw, int pt, int pl, int has_bias, float lo, float hi, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 p = unravel4(gid, OH, OW, OC);  // (n, oy, ox, oc)
  float sum = has_bias ? bias[p.w] : 0.0f;
  for (int ky = 0; ky < KH; ++ky) {
    const int ty = p.y + pt - ky;
    if (ty < 0 || ty % sh != 0) continue;
    const int iy = ty / sh;
    if (iy >= H) continue;
    for (int kx = 0; kx < KW; ++kx) {
      const int tx = p.z + pl - kx;
      if (tx < 0 || tx % sw != 0) continue;
      const int ix = tx / sw;
      if (ix >= W) continue;
      __global const float* ip = in + ((p.x * H + iy) * W + ix) * C;
      __global const float* wp = w + ((p.w * KH + ky) * KW + kx) * C;
      for (int c = 0; c < C; ++c) sum = accumulated(sum + ip[c] * wp[c]);
    }
  }
  out[gid] = clamp_act(sum, lo, hi);
}

// in [batches, K], weights [O, K]
__kernel void fully_connected(__global const float* in, __global const float* w,
                              __global const float* bias, __global float* out,
                              int K, int O, int has_bias, float lo, float hi, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int o = gid % O;
  const int b = gid / O;
  float sum = has_bias ? bias[o] : 0.0f;
  __global const float* ip = in + b * K;
  __global const float* wp = w + o * K;
  for (int k = 0; k < K; ++k) sum = accumulated(sum + ip[k] * wp[k]);
  out[gid] = clamp_act(sum, lo, hi);
}

// Output dims d0..d3 (shapes right-aligned to rank 4); a and b strides are 0 on broadcast dims.
__kernel void binary(__global const float* a, __global const float* b, __global float* out,
                     int d1, int d2, int d3, int a0, int a1, int a2, int a3,
                     int b0, int b1, int b2, int b3, int op, float lo, float hi, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 i = unravel4(gid, d1, d2, d3);
  const float x = a[offset4(i, a0, a1, a2, a3)];
  const float y = b[offset4(i, b0, b1, b2, b3)];
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

__kernel void unary(__global const float* in, __global float* out, int op, float alpha, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
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
__kernel void pool2d(__global const float* in, __global float* out, int H, int W, int C,
                     int OH, int OW, int KH, int KW, int sh, int sw, int pt, int pl,
                     int is_average, float lo, float hi, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 p = unravel4(gid, OH, OW, C);  // (n, oy, ox, c)
  const int y0 = p.y * sh - pt, x0 = p.z * sw - pl;
  const int y_begin = max(0, y0), y_end = min(H, y0 + KH);
  const int x_begin = max(0, x0), x_end = min(W, x0 + KW);
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

// One input of a concatenation: [outer, axis, inner] placed at `offset` along the output axis.
__kernel void concat_part(__global const float* in, __global float* out, int axis, int inner,
                          int out_axis, int offset, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 i = unravel4(gid, 1, axis, inner);  // (outer, 0, a, i)
  out[(i.x * out_axis + offset + i.z) * inner + i.w] = in[gid];
}

// TFLite's ResizeBilinear / ResizeNearestNeighbor taps (NHWC).
__kernel void resize_bilinear(__global const float* in, __global float* out, int H, int W, int C,
                              int OH, int OW, float scale_h, float scale_w, int half_pixel, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 p = unravel4(gid, OH, OW, C);  // (n, oy, ox, c)
  const float py = half_pixel ? ((float)p.y + 0.5f) * scale_h - 0.5f : (float)p.y * scale_h;
  const float px = half_pixel ? ((float)p.z + 0.5f) * scale_w - 0.5f : (float)p.z * scale_w;
  const int y0 = max((int)floor(py), 0), y1 = min((int)ceil(py), H - 1);
  const int x0 = max((int)floor(px), 0), x1 = min((int)ceil(px), W - 1);
  const float wy = py - (float)y0, wx = px - (float)x0;
  __global const float* image = in + p.x * H * W * C + p.w;
  out[gid] = stored(image[(y0 * W + x0) * C] * (1 - wy) * (1 - wx) +
                    image[(y1 * W + x0) * C] * wy * (1 - wx) +
                    image[(y0 * W + x1) * C] * (1 - wy) * wx +
                    image[(y1 * W + x1) * C] * wy * wx);
}

__kernel void resize_nearest(__global const float* in, __global float* out, int H, int W, int C,
                             int OH, int OW, float scale_h, float scale_w, int align_corners,
                             int half_pixel, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 p = unravel4(gid, OH, OW, C);  // (n, oy, ox, c)
  const float offset = half_pixel ? 0.5f : 0.0f;
  const float py = ((float)p.y + offset) * scale_h, px = ((float)p.z + offset) * scale_w;
  int iy = min((int)(align_corners ? round(py) : floor(py)), H - 1);
  int ix = min((int)(align_corners ? round(px) : floor(px)), W - 1);
  if (half_pixel) { iy = max(iy, 0); ix = max(ix, 0); }
  out[gid] = in[((p.x * H + iy) * W + ix) * C + p.w];
}

// Output dims o1..o3 (rank 4); `before` paddings per dim; the input has dims i0..i3.
__kernel void pad(__global const float* in, __global float* out, int o1, int o2, int o3,
                  int i0, int i1, int i2, int i3, int p0, int p1, int p2, int p3, float value, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 x = unravel4(gid, o1, o2, o3) - (int4)(p0, p1, p2, p3);
  const bool inside = all(x >= (int4)(0)) && all(x < (int4)(i0, i1, i2, i3));
  out[gid] = inside ? in[offset4(x, i1 * i2 * i3, i2 * i3, i3, 1)] : stored(value);
}

// Reduction over the dims whose r* flag is 1 (input dims i0..i3); the output keeps them as size
// 1. op: 0 mean, 1 sum, 2 max, 3 min, 4 product.
__kernel void reduce(__global const float* in, __global float* out, int i0, int i1, int i2,
                     int i3, int r0, int r1, int r2, int r3, int op, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 x = unravel4(gid, r1 ? 1 : i1, r2 ? 1 : i2, r3 ? 1 : i3);
  float acc = op == 2 ? -INFINITY : (op == 3 ? INFINITY : (op == 4 ? 1.0f : 0.0f));
  int count = 0;
  for (int a = r0 ? 0 : x.x; a < (r0 ? i0 : x.x + 1); ++a)
    for (int b = r1 ? 0 : x.y; b < (r1 ? i1 : x.y + 1); ++b)
      for (int c = r2 ? 0 : x.z; c < (r2 ? i2 : x.z + 1); ++c)
        for (int d = r3 ? 0 : x.w; d < (r3 ? i3 : x.w + 1); ++d) {
          const float v = in[((a * i1 + b) * i2 + c) * i3 + d];
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
__kernel void gather_map(__global const uint* in, __global const int* map, __global uint* out, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  out[gid] = in[map[gid]];
}

// One output of a split along an axis: [outer, axis, inner] taken at `offset` of the input axis.
__kernel void split_part(__global const uint* in, __global uint* out, int axis, int inner,
                         int in_axis, int offset, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 i = unravel4(gid, 1, axis, inner);  // (outer, 0, a, i)
  out[gid] = in[(i.x * in_axis + offset + i.z) * inner + i.w];
}

// TILE: output dims o1..o3 and input dims i0..i3, right-aligned to rank 4.
__kernel void tile(__global const uint* in, __global uint* out, int o1, int o2, int o3, int i0,
                   int i1, int i2, int i3, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 x = unravel4(gid, o1, o2, o3) % (int4)(i0, i1, i2, i3);
  out[gid] = in[offset4(x, i1 * i2 * i3, i2 * i3, i3, 1)];
}

// Comparisons (op 0 ==, 1 !=, 2 >, 3 >=, 4 <, 5 <=) of float32 inputs with broadcast strides
// as `binary`; the result is a bool (one byte, 0 or 1).
__kernel void compare(__global const float* a, __global const float* b, __global uchar* out,
                      int d1, int d2, int d3, int a0, int a1, int a2, int a3,
                      int b0, int b1, int b2, int b3, int op, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 i = unravel4(gid, d1, d2, d3);
  const float x = a[offset4(i, a0, a1, a2, a3)];
  const float y = b[offset4(i, b0, b1, b2, b3)];
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
                          int d1, int d2, int d3, int a0, int a1, int a2, int a3,
                          int b0, int b1, int b2, int b3, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 i = unravel4(gid, d1, d2, d3);
  out[gid] = (a[offset4(i, a0, a1, a2, a3)] != 0 && b[offset4(i, b0, b1, b2, b3)] != 0) ? 1 : 0;
}

// SELECT / SELECT_V2: condition ? x : y, each operand with its broadcast strides.
__kernel void select_where(__global const uchar* condition, __global const float* x,
                           __global const float* y, __global float* out, int d1, int d2, int d3,
                           int c0, int c1, int c2, int c3, int x0, int x1, int x2, int x3,
                           int y0, int y1, int y2, int y3, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 i = unravel4(gid, d1, d2, d3);
  out[gid] = condition[offset4(i, c0, c1, c2, c3)] != 0 ? x[offset4(i, x0, x1, x2, x3)]
                                                         : y[offset4(i, y0, y1, y2, y3)];
}

__kernel void cast_bool_to_float(__global const uchar* in, __global float* out, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  out[gid] = in[gid] != 0 ? 1.0f : 0.0f;
}

// CAST between float32 and int32 (C conversions: float to int truncates toward zero).
__kernel void cast_float_to_int(__global const float* in, __global int* out, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  out[gid] = (int)in[gid];
}

__kernel void cast_int_to_float(__global const int* in, __global float* out, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  out[gid] = stored((float)in[gid]);
}

// BATCH_MATMUL of [batch, M, K] by [batch, K, N] (adj flags transpose the last two dims); a
// batch stride of 0 broadcasts.
__kernel void batch_matmul(__global const float* a, __global const float* b, __global float* out,
                           int M, int N, int K, int a_batch, int b_batch, int adj_a, int adj_b, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  const int4 i = unravel4(gid, 1, M, N);  // (batch, 0, m, n)
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
__kernel void softmax(__global const float* in, __global float* out, int depth, float beta, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  __global const float* row = in + (gid / depth) * depth;
  float max_value = row[0];
  for (int i = 1; i < depth; ++i) max_value = fmax(max_value, row[i]);
  float sum = 0.0f;
  for (int i = 0; i < depth; ++i) sum = accumulated(sum + exp((row[i] - max_value) * beta));
  out[gid] = stored(exp((in[gid] - max_value) * beta) / sum);
}

// Rounds a float buffer in place to what fp16 storage keeps (inputs and weights uploaded to a
// delegate running at F32_F16 or F16).
__kernel void round_to_storage(__global float* x, int work_items) {
  const int gid = get_global_id(0);
  if (gid >= work_items) return;
  x[gid] = stored(x[gid]);
}
)CLC";

}  // namespace tfa::runtime
