#include "cli/run_reference.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "libanalysis/model/tensor_type.h"

namespace tfa::cli {
namespace {

bool PerTensorQuantized(const runtime::RuntimeTensor& tensor) {
  return tensor.quantization && tensor.quantization->scale.size() == 1;
}

template <typename T>
void Quantize(const std::vector<double>& values, const runtime::RuntimeTensor& tensor) {
  const double scale = tensor.quantization->scale[0];
  const double zero_point = tensor.quantization->zero_point.empty()
                                ? 0.0
                                : static_cast<double>(tensor.quantization->zero_point[0]);
  for (size_t i = 0; i < values.size(); ++i) {
    const double q = std::round(values[i] / scale) + zero_point;
    tensor.Data<T>()[i] = static_cast<T>(std::clamp(q, double{std::numeric_limits<T>::min()},
                                                    double{std::numeric_limits<T>::max()}));
  }
}

Status UnsupportedType(const runtime::RuntimeTensor& tensor, const std::string& name) {
  return Status::Error(fmt::format(
      "--reference: tensor '{}' is {}{}; only float32 and per-tensor quantized int8, uint8 and "
      "int16 tensors meet the reference in real values",
      name, TensorTypeName(tensor.type),
      tensor.quantization && tensor.quantization->per_channel() ? " quantized per channel" : ""));
}

}  // namespace

Result<std::vector<double>> RealValues(const runtime::RuntimeTensor& tensor,
                                       const std::string& name) {
  const size_t n = static_cast<size_t>(tensor.NumElements());
  std::vector<double> values(n);
  if (tensor.type == TensorType::kFloat32) {
    for (size_t i = 0; i < n; ++i) values[i] = tensor.Data<const float>()[i];
    return values;
  }
  if (!PerTensorQuantized(tensor)) return UnsupportedType(tensor, name);
  const double scale = tensor.quantization->scale[0];
  const double zero_point = tensor.quantization->zero_point.empty()
                                ? 0.0
                                : static_cast<double>(tensor.quantization->zero_point[0]);
  for (size_t i = 0; i < n; ++i) {
    double q = 0;
    switch (tensor.type) {
      case TensorType::kInt8:
        q = tensor.Data<const int8_t>()[i];
        break;
      case TensorType::kUInt8:
        q = tensor.Data<const uint8_t>()[i];
        break;
      case TensorType::kInt16:
        q = tensor.Data<const int16_t>()[i];
        break;
      default:
        return UnsupportedType(tensor, name);
    }
    values[i] = (q - zero_point) * scale;
  }
  return values;
}

Status WriteRealValues(const std::vector<double>& values, runtime::RuntimeTensor& tensor,
                       const std::string& name) {
  if (static_cast<int64_t>(values.size()) != tensor.NumElements()) {
    return Status::Error(fmt::format("--reference: input '{}' has {} elements, the run's {}", name,
                                     tensor.NumElements(), values.size()));
  }
  if (tensor.type == TensorType::kFloat32) {
    for (size_t i = 0; i < values.size(); ++i)
      tensor.Data<float>()[i] = static_cast<float>(values[i]);
    return Status::Ok();
  }
  if (!PerTensorQuantized(tensor)) return UnsupportedType(tensor, name);
  switch (tensor.type) {
    case TensorType::kInt8:
      Quantize<int8_t>(values, tensor);
      return Status::Ok();
    case TensorType::kUInt8:
      Quantize<uint8_t>(values, tensor);
      return Status::Ok();
    case TensorType::kInt16:
      Quantize<int16_t>(values, tensor);
      return Status::Ok();
    default:
      return UnsupportedType(tensor, name);
  }
}

Status CheckReferenceMatches(const Subgraph& run, const Subgraph& reference,
                             const std::string& reference_path) {
  const auto elements = [](const Subgraph& graph, int32_t t) {
    int64_t n = 1;
    for (int32_t d : graph.tensors[static_cast<size_t>(t)].shape) n *= d;
    return n;
  };
  const auto compare = [&](const std::vector<int32_t>& ours, const std::vector<int32_t>& theirs,
                           const char* what) -> Status {
    if (ours.size() != theirs.size()) {
      return Status::Error(fmt::format("--reference {}: it has {} {}s, the model {}",
                                       reference_path, theirs.size(), what, ours.size()));
    }
    for (size_t i = 0; i < ours.size(); ++i) {
      if (ours[i] < 0 || theirs[i] < 0 || elements(run, ours[i]) != elements(reference, theirs[i]))
        return Status::Error(fmt::format(
            "--reference {}: its {} {} ('{}') does not have the element count of the model's "
            "('{}')",
            reference_path, what, i,
            theirs[i] < 0 ? "" : reference.tensors[static_cast<size_t>(theirs[i])].name,
            ours[i] < 0 ? "" : run.tensors[static_cast<size_t>(ours[i])].name));
    }
    return Status::Ok();
  };
  TFA_RETURN_IF_ERROR(compare(run.inputs, reference.inputs, "input"));
  return compare(run.outputs, reference.outputs, "output");
}

OutputComparison CompareWithReference(const runtime::RuntimeTensor& got,
                                      const std::vector<double>& got_real,
                                      const std::vector<double>& want_real, int32_t tensor,
                                      const std::string& name, double tolerance,
                                      double tolerance_steps) {
  OutputComparison c{tensor, name, 0, 0, 0, false, true};
  if (got_real.size() != want_real.size()) {
    c.ok = false;
    return c;
  }
  c.in_steps = PerTensorQuantized(got) && got.type != TensorType::kFloat32;
  const double step = c.in_steps ? got.quantization->scale[0] : 1.0;
  for (size_t i = 0; i < got_real.size(); ++i) {
    const double abs_error = std::fabs(got_real[i] - want_real[i]);
    c.max_abs_error = std::max(c.max_abs_error, abs_error);
    c.max_rel_error =
        std::max(c.max_rel_error, abs_error / std::max(1e-30, std::fabs(want_real[i])));
    const double error =
        c.in_steps ? abs_error / step : abs_error / std::max(1.0, std::fabs(want_real[i]));
    // A NaN on either side is beyond any tolerance (std::max would drop it).
    c.max_error =
        std::isnan(error) ? std::numeric_limits<double>::infinity() : std::max(c.max_error, error);
  }
  c.ok = c.max_error <= (c.in_steps ? tolerance_steps : tolerance);
  return c;
}

}  // namespace tfa::cli
