#include "runtime/kernels/cpu/random_ops.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "libanalysis/model/unmodelled_builtin_options.h"
#include "runtime/kernels/cpu/kernel_util.h"

namespace tfa::runtime {
namespace {

constexpr size_t kBlock = 4;

Result<PhiloxRandom> SeededGenerator(const KernelContext& context) {
  auto seeds = RandomSeedsOf(context.options());
  if (!seeds.ok()) return seeds.status();
  if (seeds->seed == 0 && seeds->seed2 == 0) {
    return Status::Error(
        "seed and seed2 are both 0: upstream draws its seeds from /dev/urandom, so its numbers "
        "cannot be reproduced");
  }
  return PhiloxRandom(static_cast<uint64_t>(seeds->seed), static_cast<uint64_t>(seeds->seed2));
}

// The output shape: input 0's values (the shape rule sized the output from them).
Status CheckRandomOutput(const KernelContext& context) {
  const RuntimeTensor& shape = context.input(0);
  const int32_t* dims = shape.Data<const int32_t>();
  return CheckOutputShape(context.output(0),
                          std::vector<int32_t>(dims, dims + shape.NumElements()));
}

template <typename T>
void WriteIndices(std::span<const int64_t> indices, T* out) {
  for (size_t i = 0; i < indices.size(); ++i) out[i] = static_cast<T>(indices[i]);
}

}  // namespace

void RandomUniform(PhiloxRandom& rng, std::span<float> out) {
  for (size_t at = 0; at < out.size(); at += kBlock) {
    const PhiloxRandom::Block samples = rng.Next();
    for (size_t i = 0; i < kBlock && at + i < out.size(); ++i)
      out[at + i] = Uint32ToFloat(samples[i]);
  }
}

void RandomStandardNormal(PhiloxRandom& rng, std::span<float> out) {
  // Upstream writes both numbers of a pair even past an odd-sized output's end (one float
  // beyond it); the second number is dropped here.
  for (size_t at = 0; at < out.size(); at += kBlock) {
    const PhiloxRandom::Block samples = rng.Next();
    for (size_t i = 0; i < kBlock && at + i < out.size(); i += 2) {
      float first = 0.0f, second = 0.0f;
      BoxMullerFloat(samples[i], samples[i + 1], &first, &second);
      out[at + i] = first;
      if (at + i + 1 < out.size()) out[at + i + 1] = second;
    }
  }
}

void Multinomial(PhiloxRandom& rng, std::span<const float> logits, int32_t batch, int32_t classes,
                 int32_t num_samples, std::span<int64_t> out) {
  // Upstream draws from a copy and moves its own generator on by a fixed count, as TensorFlow's
  // multinomial op does (random_ops.cc GenerateMultinomialNumbers).
  PhiloxRandom draws = rng;
  rng.Skip(static_cast<uint64_t>(batch) * ((static_cast<uint64_t>(num_samples) + 3) / 4 * 4) * 2 *
           256);
  PhiloxRandom::Block block{};
  size_t used = kBlock;
  std::vector<double> cdf(static_cast<size_t>(classes));
  for (int32_t b = 0; b < batch; ++b) {
    const float* row = logits.data() + static_cast<size_t>(b) * classes;
    float max = std::numeric_limits<float>::lowest();
    for (int32_t c = 0; c < classes; ++c) {
      if (std::isfinite(row[c])) max = std::max(max, row[c]);
    }
    const auto max_logit = static_cast<double>(max);
    double total = 0.0;
    for (int32_t c = 0; c < classes; ++c) {
      if (std::isfinite(row[c])) total += std::exp(row[c] - max_logit);
      cdf[static_cast<size_t>(c)] = total;
    }
    for (int32_t j = 0; j < num_samples; ++j) {
      if (used == kBlock) {
        block = draws.Next();
        used = 0;
      }
      const double to_find = Uint64ToDouble(block[used], block[used + 1]) * total;
      used += 2;
      out[static_cast<size_t>(b) * num_samples + j] =
          std::upper_bound(cdf.begin(), cdf.end(), to_find) - cdf.begin();
    }
  }
}

Status PrepareRandom(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 1, 1, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kInt32, "shape"));
  TFA_RETURN_IF_ERROR(CheckRank(context.input(0), 1, "shape"));
  TFA_RETURN_IF_ERROR(CheckType(context.output(0), TensorType::kFloat32, "output"));
  auto rng = SeededGenerator(context);
  return rng.ok() ? Status::Ok() : rng.status();
}

Status EvalRandomUniform(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareRandom(context));
  TFA_RETURN_IF_ERROR(CheckRandomOutput(context));
  PhiloxRandom rng = *SeededGenerator(context);
  RuntimeTensor& out = context.output(0);
  RandomUniform(rng, {out.Data<float>(), static_cast<size_t>(out.NumElements())});
  return Status::Ok();
}

Status EvalRandomStandardNormal(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareRandom(context));
  TFA_RETURN_IF_ERROR(CheckRandomOutput(context));
  PhiloxRandom rng = *SeededGenerator(context);
  RuntimeTensor& out = context.output(0);
  RandomStandardNormal(rng, {out.Data<float>(), static_cast<size_t>(out.NumElements())});
  return Status::Ok();
}

Status PrepareMultinomial(KernelContext& context) {
  TFA_RETURN_IF_ERROR(CheckArity(context, 2, 2, 1));
  TFA_RETURN_IF_ERROR(CheckType(context.input(0), TensorType::kFloat32, "logits"));
  TFA_RETURN_IF_ERROR(CheckType(context.input(1), TensorType::kInt32, "num_samples"));
  constexpr std::array kIndexTypes = {TensorType::kInt64, TensorType::kInt32};
  TFA_RETURN_IF_ERROR(CheckTypeIn(context.output(0), kIndexTypes, "output"));
  auto rng = SeededGenerator(context);
  return rng.ok() ? Status::Ok() : rng.status();
}

Status EvalMultinomial(KernelContext& context) {
  TFA_RETURN_IF_ERROR(PrepareMultinomial(context));
  const RuntimeTensor& logits = context.input(0);
  TFA_RETURN_IF_ERROR(CheckRank(logits, 2, "logits"));
  TFA_RETURN_IF_ERROR(CheckRank(context.input(1), 0, "num_samples"));
  const int32_t batch = logits.Dim(0);
  const int32_t classes = logits.Dim(1);
  if (classes <= 0) return Status::Error("logits have no classes");
  const int32_t num_samples = *context.input(1).Data<const int32_t>();
  if (num_samples < 0) return Status::Error("num_samples " + std::to_string(num_samples) + " < 0");
  RuntimeTensor& out = context.output(0);
  TFA_RETURN_IF_ERROR(CheckOutputShape(out, {batch, num_samples}));
  PhiloxRandom rng = *SeededGenerator(context);
  std::vector<int64_t> indices(static_cast<size_t>(out.NumElements()));
  Multinomial(rng, {logits.Data<const float>(), static_cast<size_t>(logits.NumElements())}, batch,
              classes, num_samples, indices);
  if (out.type == TensorType::kInt64) {
    WriteIndices(indices, out.Data<int64_t>());
  } else {
    WriteIndices(indices, out.Data<int32_t>());
  }
  return Status::Ok();
}

}  // namespace tfa::runtime
