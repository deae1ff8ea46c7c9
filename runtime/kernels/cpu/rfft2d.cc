#include "runtime/kernels/cpu/rfft2d.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

struct RfftShape {
  int64_t batches = 1;
  int32_t in_h = 0, in_w = 0;
  int32_t fft_h = 0, fft_w = 0;
};

Result<RfftShape> Shape(const KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  const RuntimeTensor& in = context.input(0);
  TFA_RETURN_IF_ERROR(CheckType(in, TensorType::kFloat32, "input"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), TensorType::kInt32, "fft_length"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kComplex64, "output"));
  if (in.Rank() < 2) return Status::Error("input must have rank 2 or more");
  if (context.input(1).NumElements() != 2) return Status::Error("fft_length must have 2 values");
  RfftShape s;
  s.in_h = in.Dim(in.Rank() - 2);
  s.in_w = in.Dim(in.Rank() - 1);
  s.fft_h = context.input(1).Data<const int32_t>()[0];
  s.fft_w = context.input(1).Data<const int32_t>()[1];
  // Upstream requires powers of two (Ooura's FFT).
  for (int32_t n : {s.fft_h, s.fft_w}) {
    if (n <= 0 || (n & (n - 1)) != 0)
      return Status::Error("fft_length values must be powers of two");
  }
  for (int d = 0; d < in.Rank() - 2; ++d) s.batches *= in.Dim(d);
  std::vector<int32_t> out(in.shape.begin(), in.shape.end() - 2);
  out.push_back(s.fft_h);
  out.push_back(s.fft_w / 2 + 1);
  TFA_RETURN_IF_ERROR(CheckOutputShape(context.output(0), out));
  return s;
}

// The rows' DFT, fft_h x (fft_w / 2 + 1) complex doubles: exactly upstream's fourth temporary,
// its rows of fft_w + 2 doubles, in which Ooura's rdft works in place.
uint64_t RowsBytes(const RfftShape& s) {
  return static_cast<uint64_t>(s.fft_h) * (s.fft_w / 2 + 1) * sizeof(std::complex<double>);
}

// Upstream's kernel works in its four temporaries (tflite/kernels/rfft2d.cc Eval): Ooura's
// bit-reversal and cosine/sine tables (temporaries 0 and 1, filled on the first Eval), a pointer
// per row (2) and the rows (3). The DFT here is direct and needs no tables, so it clears 0 and 1
// where upstream writes its tables, writes the row pointers, and works in the rows: the arena
// measured is the one planned. Without the temporaries (a plan that sized none) it uses scratch.
std::complex<double>* WorkingRows(const KernelContext& context, const RfftShape& s) {
  RuntimeTensor* rows = context.temporary(3, RowsBytes(s));
  if (rows == nullptr) return reinterpret_cast<std::complex<double>*>(context.scratch);
  for (size_t table : {0u, 1u}) {
    if (RuntimeTensor* t = context.temporary(table, 0)) std::fill_n(t->data, t->bytes, uint8_t{0});
  }
  const uint64_t row_bytes = (s.fft_w + 2) * sizeof(double);
  if (RuntimeTensor* pointers = context.temporary(2, s.fft_h * sizeof(double*))) {
    for (int32_t r = 0; r < s.fft_h; ++r) {
      pointers->Data<double*>()[r] = reinterpret_cast<double*>(rows->data + r * row_bytes);
    }
  }
  return reinterpret_cast<std::complex<double>*>(rows->data);
}

}  // namespace

Status PrepareRfft2D(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  context.scratch_bytes = context.temporary(3, RowsBytes(*s)) ? 0 : RowsBytes(*s);
  return Status::Ok();
}

Status EvalRfft2D(KernelContext& context) {
  auto s = Shape(context);
  if (!s.ok()) return s.status();
  const int32_t bins = s->fft_w / 2 + 1;
  const int32_t rows = std::min(s->in_h, s->fft_h), cols = std::min(s->in_w, s->fft_w);
  std::complex<double>* rows_dft = WorkingRows(context, *s);
  const float* in = context.input(0).Data<const float>();
  auto* out = context.output(0).Data<std::complex<float>>();
  const double tau = 2 * std::numbers::pi;
  for (int64_t b = 0; b < s->batches; ++b) {
    const float* matrix = in + b * s->in_h * s->in_w;
    // Along w: the real rows (missing ones are zero) to their first w / 2 + 1 bins.
    for (int32_t r = 0; r < s->fft_h; ++r) {
      for (int32_t k = 0; k < bins; ++k) {
        std::complex<double> sum = 0;
        for (int32_t c = 0; r < rows && c < cols; ++c) {
          const double angle =
              -tau * static_cast<double>((static_cast<int64_t>(k) * c) % s->fft_w) / s->fft_w;
          sum += static_cast<double>(matrix[r * s->in_w + c]) *
                 std::complex<double>(std::cos(angle), std::sin(angle));
        }
        rows_dft[r * bins + k] = sum;
      }
    }
    // Along h: a full complex DFT of each bin's column.
    std::complex<float>* result = out + b * s->fft_h * bins;
    for (int32_t k = 0; k < bins; ++k) {
      for (int32_t u = 0; u < s->fft_h; ++u) {
        std::complex<double> sum = 0;
        for (int32_t r = 0; r < s->fft_h; ++r) {
          const double angle =
              -tau * static_cast<double>((static_cast<int64_t>(u) * r) % s->fft_h) / s->fft_h;
          sum += rows_dft[r * bins + k] * std::complex<double>(std::cos(angle), std::sin(angle));
        }
        result[u * bins + k] = std::complex<float>(sum);
      }
    }
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
