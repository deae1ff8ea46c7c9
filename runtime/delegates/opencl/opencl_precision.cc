#include "runtime/delegates/opencl/opencl_precision.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace tfa::runtime {
namespace {

enum class Priority { kAuto, kMaxPrecision, kMinLatency, kMinMemoryUsage };

// TfLiteGpuInferencePriority by name or by its number (0 AUTO .. 3 MIN_MEMORY_USAGE).
Result<Priority> ParsePriority(const std::string& key, const std::string& value) {
  static const std::array<const char*, 4> kNames = {"AUTO", "MAX_PRECISION", "MIN_LATENCY",
                                                    "MIN_MEMORY_USAGE"};
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (value == kNames[i] || value == std::to_string(i)) return static_cast<Priority>(i);
  }
  return Status::Error("delegate gpu: option " + key +
                       " must be AUTO, MAX_PRECISION, MIN_LATENCY or MIN_MEMORY_USAGE, got '" +
                       value + "'");
}

}  // namespace

const char* ClPrecisionName(ClPrecision precision) {
  switch (precision) {
    case ClPrecision::kF32:
      return "F32";
    case ClPrecision::kF32F16:
      return "F32_F16";
    case ClPrecision::kF16:
      return "F16";
  }
  return "F32";
}

std::string ClPrecisionBuildOptions(ClPrecision precision) {
  // Divisions and square roots correctly rounded, as the CPU kernels compute them: FLOOR_DIV
  // and FLOOR_MOD would otherwise land on the other side of an integer.
  std::string options = "-cl-fp32-correctly-rounded-divide-sqrt";
  if (precision != ClPrecision::kF32) options += " -DTFA_FP16_STORAGE";
  if (precision == ClPrecision::kF16) options += " -DTFA_FP16_COMPUTE";
  return options;
}

double Fp16ValidationTolerance(ClPrecision precision) {
  constexpr double kFp16Epsilon = 1.0 / 1024;
  switch (precision) {
    case ClPrecision::kF32:
      return 0;
    case ClPrecision::kF32F16:
      return 10 * kFp16Epsilon;
    case ClPrecision::kF16:
      return 50 * kFp16Epsilon;
  }
  return 0;
}

Result<bool> GpuPrecisionOptions::Set(const std::string& key, const std::string& value) {
  if (key == "is_precision_loss_allowed") {
    const std::string number = value == "true" ? "1" : value == "false" ? "0" : value;
    int parsed = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), parsed);
    if (error != std::errc() || end != number.data() + number.size() || parsed < -1 || parsed > 1) {
      return Status::Error(
          "delegate gpu: option is_precision_loss_allowed must be -1, 0, 1, "
          "true or false, got '" +
          value + "'");
    }
    is_precision_loss_allowed = parsed;
    return true;
  }
  if (key == "inference_priority1" || key == "inference_priority2" ||
      key == "inference_priority3") {
    TFA_RETURN_IF_ERROR(ParsePriority(key, value).status());
    (key == "inference_priority1"   ? inference_priority1
     : key == "inference_priority2" ? inference_priority2
                                    : inference_priority3) = value;
    return true;
  }
  if (key == "inference_preference") {
    static const std::array<const char*, 3> kUsages = {"FAST_SINGLE_ANSWER", "SUSTAINED_SPEED",
                                                       "BALANCED"};
    for (size_t i = 0; i < kUsages.size(); ++i) {
      if (value == kUsages[i] || value == std::to_string(i)) return true;
    }
    return Status::Error(
        "delegate gpu: option inference_preference must be FAST_SINGLE_ANSWER, "
        "SUSTAINED_SPEED or BALANCED, got '" +
        value + "'");
  }
  return false;
}

Result<ClPrecision> ResolvePrecision(const GpuPrecisionOptions& options,
                                     bool device_supports_fp16) {
  std::array<Priority, 3> p = {Priority::kMaxPrecision, Priority::kAuto, Priority::kAuto};
  if (options.is_precision_loss_allowed == -1) {
    auto p1 = ParsePriority("inference_priority1", options.inference_priority1);
    auto p2 = ParsePriority("inference_priority2", options.inference_priority2);
    auto p3 = ParsePriority("inference_priority3", options.inference_priority3);
    for (auto* parsed : {&p1, &p2, &p3}) {
      if (!parsed->ok()) return parsed->status();
    }
    p = {*p1, *p2, *p3};
  } else if (options.is_precision_loss_allowed == 1) {
    p[0] = Priority::kMinLatency;
  }
  // IsValid of tflite/delegates/gpu/api.cc.
  const bool valid = p[0] != Priority::kAuto &&
                     !(p[1] == Priority::kAuto && p[2] != Priority::kAuto) && p[0] != p[1] &&
                     p[0] != p[2] && !(p[1] == p[2] && p[1] != Priority::kAuto);
  if (!valid) {
    return Status::Error("delegate gpu: inference priorities " + options.inference_priority1 +
                         ", " + options.inference_priority2 + ", " + options.inference_priority3 +
                         " are not a valid order");
  }
  // ResolveAutoPriority: an AUTO priority2 takes the defaults that follow priority1; an AUTO
  // priority3 the one priority left.
  if (p[1] == Priority::kAuto) {
    switch (p[0]) {
      case Priority::kMinLatency:
        p[1] = Priority::kMinMemoryUsage;
        p[2] = Priority::kMaxPrecision;
        break;
      case Priority::kMinMemoryUsage:
        p[1] = Priority::kMaxPrecision;
        p[2] = Priority::kMinLatency;
        break;
      default:
        p[1] = Priority::kMinLatency;
        p[2] = Priority::kMinMemoryUsage;
        break;
    }
  } else if (p[2] == Priority::kAuto) {
    for (Priority candidate :
         {Priority::kMaxPrecision, Priority::kMinLatency, Priority::kMinMemoryUsage}) {
      if (p[0] != candidate && p[1] != candidate) p[2] = candidate;
    }
  }
  const auto position = std::find(p.begin(), p.end(), Priority::kMaxPrecision) - p.begin();
  const ClPrecision wanted = position == 0   ? ClPrecision::kF32
                             : position == 1 ? ClPrecision::kF32F16
                                             : ClPrecision::kF16;
  // GetPrecision of cl/api.cc: raised when the device has no fp16.
  return device_supports_fp16 ? wanted : ClPrecision::kF32;
}

}  // namespace tfa::runtime
