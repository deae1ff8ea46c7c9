// The names `gate` records a TFLite Micro build under in a baseline ("target"): the --target, and
// for a CMSIS-NN build compiled for a core its --cpu, as the command line reads ("tflm-32",
// "tflm-cmsis-nn --cpu cortex-m4"). The gate records the default builds only: AAPCS, without
// TF_LITE_STATIC_MEMORY or the recording allocator.
#ifndef LIBANALYSIS_TFLM_GATED_BUILD_NAME_H_
#define LIBANALYSIS_TFLM_GATED_BUILD_NAME_H_

#include <optional>
#include <string>
#include <string_view>

#include "libanalysis/tflm/tflm_target.h"

namespace tfa::tflm {

std::string GatedBuildName(const Build& build);
// nullopt for a name GatedBuildName does not write.
std::optional<Build> GatedBuildFromName(std::string_view name);

}  // namespace tfa::tflm

#endif  // LIBANALYSIS_TFLM_GATED_BUILD_NAME_H_
