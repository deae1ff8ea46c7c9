#include "libanalysis/tflm/gated_build_name.h"

namespace tfa::tflm {
namespace {

constexpr std::string_view kCpuFlag = " --cpu ";

}  // namespace

std::string GatedBuildName(const Build& build) {
  if (!build.cmsis_nn) return TargetName(build.target);
  std::string name(kCmsisNnTargetName);
  if (*build.cmsis_nn != CmsisNnCpu::kPlainC) {
    name += std::string(kCpuFlag) + CmsisNnCpuName(*build.cmsis_nn);
  }
  return name;
}

std::optional<Build> GatedBuildFromName(std::string_view name) {
  if (name.substr(0, kCmsisNnTargetName.size()) != kCmsisNnTargetName) {
    const std::optional<Target> target = TargetFromName(name);
    if (!target) return std::nullopt;
    return Build{*target};
  }
  Build build{Target::kMcu32};
  build.cmsis_nn = CmsisNnCpu::kPlainC;
  const std::string_view rest = name.substr(kCmsisNnTargetName.size());
  if (rest.empty()) return build;
  if (rest.substr(0, kCpuFlag.size()) != kCpuFlag) return std::nullopt;
  build.cmsis_nn = CmsisNnCpuFromName(rest.substr(kCpuFlag.size()));
  if (!build.cmsis_nn || *build.cmsis_nn == CmsisNnCpu::kPlainC) return std::nullopt;
  return build;
}

}  // namespace tfa::tflm
