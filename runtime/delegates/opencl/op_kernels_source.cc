#include "runtime/delegates/opencl/op_kernels_source.h"

namespace tfa::runtime {

// Kept in step with ClBinaryOp / ClUnaryOp by their numeric values.
const char kOpKernelsSource[] = R"CLC(
inline float clamp_act(float x, float lo, float hi) { return fmin(fmax(x, lo), hi); }

// weights [OC, KH, KW, C]
__kernel void conv2d(__global const float* in, __global const float* w,
                     __global const float* bias, __global float* out,
                     int H, int W, int C, int OH, int OW, int OC, int KH, int KW,
                     int sh, int sw, int dh, int dw, int pt, int pl, int has_bias,
                     float lo, float hi) {
  const int gid = get_global_id(0);
  const int oc = gid % OC;
  int t = gid / OC;
  const int ox = t % OW; t /= OW;
  const int oy = t % OH;
  const int n = t / OH;
  float sum = has_bias ? bias[oc] : 0.0f;
  for (int ky = 0; ky < KH; ++ky) {
    const int iy = oy * sh - pt + ky * dh;
    if (iy < 0 || iy >= H) continue;
    for (int kx = 0; kx < KW; ++kx) {
      const int ix = ox * sw - pl + kx * dw;
      if (ix < 0 || ix >= W) continue;
      __global const float* ip = in + ((n * H + iy) * W + ix) * C;
      __global const float* wp = w + ((oc * KH + ky) * KW + kx) * C;
      for (int c = 0; c < C; ++c) sum += ip[c] * wp[c];
    }
  }
  out[gid] = clamp_act(sum, lo, hi);
}

// weights [1, KH, KW, OC], OC = C * multiplier
__kernel void depthwise_conv2d(__global const float* in, __global const float* w,
                               __global const float* bias, __global float* out,
                               int H, int W, int C, int OH, int OW, int OC, int KH, int KW,
                               int sh, int sw, int dh, int dw, int pt, int pl, int has_bias,
                               float lo, float hi, int multiplier) {
  const int gid = get_global_id(0);
  const int oc = gid % OC;
  int t = gid / OC;
  const int ox = t % OW; t /= OW;
  const int oy = t % OH;
  const int n = t / OH;
  const int ic = oc / multiplier;
  float sum = has_bias ? bias[oc] : 0.0f;
  for (int ky = 0; ky < KH; ++ky) {
    const int iy = oy * sh - pt + ky * dh;
    if (iy < 0 || iy >= H) continue;
    for (int kx = 0; kx < KW; ++kx) {
      const int ix = ox * sw - pl + kx * dw;
      if (ix < 0 || ix >= W) continue;
      sum += in[((n * H + iy) * W + ix) * C + ic] * w[(ky * KW + kx) * OC + oc];
    }
  }
  out[gid] = clamp_act(sum, lo, hi);
}

// weights [OC, KH, KW, C]; each output gathers the input pixels whose taps reach it.
__kernel void transpose_conv2d(__global const float* in, __global const float* w,
                               __global const float* bias, __global float* out,
                               int H, int W, int C, int OH, int OW, int OC, int KH, int KW,
                               int sh, int sw, int pt, int pl, int has_bias, float lo, float hi) {
  const int gid = get_global_id(0);
  const int oc = gid % OC;
  int t = gid / OC;
  const int ox = t % OW; t /= OW;
  const int oy = t % OH;
  const int n = t / OH;
  float sum = has_bias ? bias[oc] : 0.0f;
  for (int ky = 0; ky < KH; ++ky) {
    const int ty = oy + pt - ky;
    if (ty < 0 || ty % sh != 0) continue;
    const int iy = ty / sh;
    if (iy >= H) continue;
    for (int kx = 0; kx < KW; ++kx) {
      const int tx = ox + pl - kx;
      if (tx < 0 || tx % sw != 0) continue;
      const int ix = tx / sw;
      if (ix >= W) continue;
      __global const float* ip = in + ((n * H + iy) * W + ix) * C;
      __global const float* wp = w + ((oc * KH + ky) * KW + kx) * C;
      for (int c = 0; c < C; ++c) sum += ip[c] * wp[c];
    }
  }
  out[gid] = clamp_act(sum, lo, hi);
}

// in [batches, K], weights [O, K]
__kernel void fully_connected(__global const float* in, __global const float* w,
                              __global const float* bias, __global float* out,
                              int K, int O, int has_bias, float lo, float hi) {
  const int gid = get_global_id(0);
  const int o = gid % O;
  const int b = gid / O;
  float sum = has_bias ? bias[o] : 0.0f;
  __global const float* ip = in + b * K;
  __global const float* wp = w + o * K;
  for (int k = 0; k < K; ++k) sum += ip[k] * wp[k];
  out[gid] = clamp_act(sum, lo, hi);
}

// Output dims d0..d3 (shapes right-aligned to rank 4); a and b strides are 0 on broadcast dims.
__kernel void binary(__global const float* a, __global const float* b, __global float* out,
                     int d1, int d2, int d3, int a0, int a1, int a2, int a3,
                     int b0, int b1, int b2, int b3, int op, float lo, float hi) {
  const int gid = get_global_id(0);
  const int i3 = gid % d3;
  int t = gid / d3;
  const int i2 = t % d2; t /= d2;
  const int i1 = t % d1;
  const int i0 = t / d1;
  const float x = a[i0 * a0 + i1 * a1 + i2 * a2 + i3 * a3];
  const float y = b[i0 * b0 + i1 * b1 + i2 * b2 + i3 * b3];
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

__kernel void unary(__global const float* in, __global float* out, int op, float alpha) {
  const int gid = get_global_id(0);
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
  out[gid] = r;
}

// Average (is_average = 1) or max pooling; averages count only the window inside the input.
__kernel void pool2d(__global const float* in, __global float* out, int H, int W, int C,
                     int OH, int OW, int KH, int KW, int sh, int sw, int pt, int pl,
                     int is_average, float lo, float hi) {
  const int gid = get_global_id(0);
  const int c = gid % C;
  int t = gid / C;
  const int ox = t % OW; t /= OW;
  const int oy = t % OH;
  const int n = t / OH;
  const int y0 = oy * sh - pt, x0 = ox * sw - pl;
  const int y_begin = max(0, y0), y_end = min(H, y0 + KH);
  const int x_begin = max(0, x0), x_end = min(W, x0 + KW);
  float acc = is_average ? 0.0f : -FLT_MAX;
  for (int y = y_begin; y < y_end; ++y) {
    for (int x = x_begin; x < x_end; ++x) {
      const float v = in[((n * H + y) * W + x) * C + c];
      acc = is_average ? acc + v : fmax(acc, v);
    }
  }
  const int count = (y_end - y_begin) * (x_end - x_begin);
  if (is_average) acc = count > 0 ? acc / (float)count : 0.0f;
  out[gid] = clamp_act(acc, lo, hi);
}

// One input of a concatenation: [outer, axis, inner] placed at `offset` along the output axis.
__kernel void concat_part(__global const float* in, __global float* out, int axis, int inner,
                          int out_axis, int offset) {
  const int gid = get_global_id(0);
  const int i = gid % inner;
  int t = gid / inner;
  const int a = t % axis;
  const int o = t / axis;
  out[(o * out_axis + offset + a) * inner + i] = in[gid];
}

// TFLite's ResizeBilinear / ResizeNearestNeighbor taps (NHWC).
__kernel void resize_bilinear(__global const float* in, __global float* out, int H, int W, int C,
                              int OH, int OW, float scale_h, float scale_w, int half_pixel) {
  const int gid = get_global_id(0);
  const int c = gid % C;
  int t = gid / C;
  const int ox = t % OW; t /= OW;
  const int oy = t % OH;
  const int n = t / OH;
  const float py = half_pixel ? ((float)oy + 0.5f) * scale_h - 0.5f : (float)oy * scale_h;
  const float px = half_pixel ? ((float)ox + 0.5f) * scale_w - 0.5f : (float)ox * scale_w;
  const int y0 = max((int)floor(py), 0), y1 = min((int)ceil(py), H - 1);
  const int x0 = max((int)floor(px), 0), x1 = min((int)ceil(px), W - 1);
  const float wy = py - (float)y0, wx = px - (float)x0;
  __global const float* image = in + n * H * W * C;
  out[gid] = image[(y0 * W + x0) * C + c] * (1 - wy) * (1 - wx) +
             image[(y1 * W + x0) * C + c] * wy * (1 - wx) +
             image[(y0 * W + x1) * C + c] * (1 - wy) * wx +
             image[(y1 * W + x1) * C + c] * wy * wx;
}

__kernel void resize_nearest(__global const float* in, __global float* out, int H, int W, int C,
                             int OH, int OW, float scale_h, float scale_w, int align_corners,
                             int half_pixel) {
  const int gid = get_global_id(0);
  const int c = gid % C;
  int t = gid / C;
  const int ox = t % OW; t /= OW;
  const int oy = t % OH;
  const int n = t / OH;
  const float offset = half_pixel ? 0.5f : 0.0f;
  const float py = ((float)oy + offset) * scale_h, px = ((float)ox + offset) * scale_w;
  int iy = min((int)(align_corners ? round(py) : floor(py)), H - 1);
  int ix = min((int)(align_corners ? round(px) : floor(px)), W - 1);
  if (half_pixel) { iy = max(iy, 0); ix = max(ix, 0); }
  out[gid] = in[((n * H + iy) * W + ix) * C + c];
}

// Output dims o1..o3 (rank 4); `before` paddings per dim; the input has dims i0..i3.
__kernel void pad(__global const float* in, __global float* out, int o1, int o2, int o3,
                  int i0, int i1, int i2, int i3, int p0, int p1, int p2, int p3, float value) {
  const int gid = get_global_id(0);
  const int x3 = gid % o3 - p3;
  int t = gid / o3;
  const int x2 = t % o2 - p2; t /= o2;
  const int x1 = t % o1 - p1;
  const int x0 = t / o1 - p0;
  const bool inside = x0 >= 0 && x0 < i0 && x1 >= 0 && x1 < i1 && x2 >= 0 && x2 < i2 &&
                      x3 >= 0 && x3 < i3;
  out[gid] = inside ? in[((x0 * i1 + x1) * i2 + x2) * i3 + x3] : value;
}

// Reduction over the dims whose r* flag is 1 (input dims i0..i3); the output keeps them as size
// 1. op: 0 mean, 1 sum, 2 max, 3 min, 4 product.
__kernel void reduce(__global const float* in, __global float* out, int i0, int i1, int i2,
                     int i3, int r0, int r1, int r2, int r3, int op) {
  const int gid = get_global_id(0);
  const int o3 = r3 ? 1 : i3, o2 = r2 ? 1 : i2, o1 = r1 ? 1 : i1;
  const int x3 = gid % o3;
  int t = gid / o3;
  const int x2 = t % o2; t /= o2;
  const int x1 = t % o1;
  const int x0 = t / o1;
  float acc = op == 2 ? -INFINITY : (op == 3 ? INFINITY : (op == 4 ? 1.0f : 0.0f));
  int count = 0;
  for (int a = r0 ? 0 : x0; a < (r0 ? i0 : x0 + 1); ++a)
    for (int b = r1 ? 0 : x1; b < (r1 ? i1 : x1 + 1); ++b)
      for (int c = r2 ? 0 : x2; c < (r2 ? i2 : x2 + 1); ++c)
        for (int d = r3 ? 0 : x3; d < (r3 ? i3 : x3 + 1); ++d) {
          const float v = in[((a * i1 + b) * i2 + c) * i3 + d];
          switch (op) {
            case 2: acc = fmax(acc, v); break;
            case 3: acc = fmin(acc, v); break;
            case 4: acc *= v; break;
            default: acc += v; break;
          }
          ++count;
        }
  out[gid] = op == 0 ? acc / (float)count : acc;
}

// Elements moved by a map the host computed with the op's CPU kernel on element indices; any
// 4-byte element type, copied bit for bit.
__kernel void gather_map(__global const uint* in, __global const int* map, __global uint* out) {
  const int gid = get_global_id(0);
  out[gid] = in[map[gid]];
}

// One output of a split along an axis: [outer, axis, inner] taken at `offset` of the input axis.
__kernel void split_part(__global const uint* in, __global uint* out, int axis, int inner,
                         int in_axis, int offset) {
  const int gid = get_global_id(0);
  const int i = gid % inner;
  int t = gid / inner;
  const int a = t % axis;
  const int o = t / axis;
  out[gid] = in[(o * in_axis + offset + a) * inner + i];
}

// TILE: output dims o1..o3 and input dims i0..i3, right-aligned to rank 4.
__kernel void tile(__global const uint* in, __global uint* out, int o1, int o2, int o3, int i0,
                   int i1, int i2, int i3) {
  const int gid = get_global_id(0);
  const int x3 = gid % o3;
  int t = gid / o3;
  const int x2 = t % o2; t /= o2;
  const int x1 = t % o1;
  const int x0 = t / o1;
  out[gid] = in[(((x0 % i0) * i1 + x1 % i1) * i2 + x2 % i2) * i3 + x3 % i3];
}

// Comparisons (op 0 ==, 1 !=, 2 >, 3 >=, 4 <, 5 <=) of float32 inputs with broadcast strides
// as `binary`; the result is a bool (one byte, 0 or 1).
__kernel void compare(__global const float* a, __global const float* b, __global uchar* out,
                      int d1, int d2, int d3, int a0, int a1, int a2, int a3,
                      int b0, int b1, int b2, int b3, int op) {
  const int gid = get_global_id(0);
  const int i3 = gid % d3;
  int t = gid / d3;
  const int i2 = t % d2; t /= d2;
  const int i1 = t % d1;
  const int i0 = t / d1;
  const float x = a[i0 * a0 + i1 * a1 + i2 * a2 + i3 * a3];
  const float y = b[i0 * b0 + i1 * b1 + i2 * b2 + i3 * b3];
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
                          int b0, int b1, int b2, int b3) {
  const int gid = get_global_id(0);
  const int i3 = gid % d3;
  int t = gid / d3;
  const int i2 = t % d2; t /= d2;
  const int i1 = t % d1;
  const int i0 = t / d1;
  out[gid] = (a[i0 * a0 + i1 * a1 + i2 * a2 + i3 * a3] != 0 &&
              b[i0 * b0 + i1 * b1 + i2 * b2 + i3 * b3] != 0) ? 1 : 0;
}

// SELECT / SELECT_V2: condition ? x : y, each operand with its broadcast strides.
__kernel void select_where(__global const uchar* condition, __global const float* x,
                           __global const float* y, __global float* out, int d1, int d2, int d3,
                           int c0, int c1, int c2, int c3, int x0, int x1, int x2, int x3,
                           int y0, int y1, int y2, int y3) {
  const int gid = get_global_id(0);
  const int i3 = gid % d3;
  int t = gid / d3;
  const int i2 = t % d2; t /= d2;
  const int i1 = t % d1;
  const int i0 = t / d1;
  out[gid] = condition[i0 * c0 + i1 * c1 + i2 * c2 + i3 * c3] != 0
                 ? x[i0 * x0 + i1 * x1 + i2 * x2 + i3 * x3]
                 : y[i0 * y0 + i1 * y1 + i2 * y2 + i3 * y3];
}

__kernel void cast_bool_to_float(__global const uchar* in, __global float* out) {
  const int gid = get_global_id(0);
  out[gid] = in[gid] != 0 ? 1.0f : 0.0f;
}

// CAST between float32 and int32 (C conversions: float to int truncates toward zero).
__kernel void cast_float_to_int(__global const float* in, __global int* out) {
  const int gid = get_global_id(0);
  out[gid] = (int)in[gid];
}

__kernel void cast_int_to_float(__global const int* in, __global float* out) {
  const int gid = get_global_id(0);
  out[gid] = (float)in[gid];
}

// BATCH_MATMUL of [batch, M, K] by [batch, K, N] (adj flags transpose the last two dims); a
// batch stride of 0 broadcasts.
__kernel void batch_matmul(__global const float* a, __global const float* b, __global float* out,
                           int M, int N, int K, int a_batch, int b_batch, int adj_a, int adj_b) {
  const int gid = get_global_id(0);
  const int n = gid % N;
  int t = gid / N;
  const int m = t % M;
  const int batch = t / M;
  __global const float* ap = a + batch * a_batch;
  __global const float* bp = b + batch * b_batch;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) {
    const float x = adj_a ? ap[k * M + m] : ap[m * K + k];
    const float y = adj_b ? bp[n * K + k] : bp[k * N + n];
    sum += x * y;
  }
  out[gid] = sum;
}

// Softmax over the last dim (`depth`); one work-item per element recomputes its row's max and
// sum, which is cheap for the row lengths models use and needs no local memory.
__kernel void softmax(__global const float* in, __global float* out, int depth, float beta) {
  const int gid = get_global_id(0);
  __global const float* row = in + (gid / depth) * depth;
  float max_value = row[0];
  for (int i = 1; i < depth; ++i) max_value = fmax(max_value, row[i]);
  float sum = 0.0f;
  for (int i = 0; i < depth; ++i) sum += exp((row[i] - max_value) * beta);
  out[gid] = exp((in[gid] - max_value) * beta) / sum;
}
)CLC";

}  // namespace tfa::runtime
