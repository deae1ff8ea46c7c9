// How the TFLite library that runs the model was built, where that changes what builtin kernels
// do in Prepare (docs/kernel-temporaries.md, "Build- and platform-dependent Prepare"):
// - mobile platforms (upstream's IsMobilePlatform(): Android, iOS) cap CONV_2D's and CONV_3D's
//   im2col at 1 GiB (tflite/kernels/conv.cc, conv3d.cc kMaxIm2colBufferSizeMobile): a larger one
//   is never added, and the reference kernel runs instead;
// - builds without ruy register CONV_2D's multithreaded Eigen kernel, which with more than one
//   thread keeps a persistent transposed copy of constant float weights instead of im2col;
// - the packed 4-bit FULLY_CONNECTED kernel works on up to 4 rows at once with SSSE3 or NEON on
//   64-bit ARM (Bazel builds), 1 otherwise (fully_connected_4bit.h GetMaxSupportedRows).
// The default, x86-64 with one thread, is the build upstream's reference figures come from.
#ifndef LIBANALYSIS_PREPARE_KERNEL_BUILD_H_
#define LIBANALYSIS_PREPARE_KERNEL_BUILD_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libanalysis/core/status.h"

namespace tfa {

struct KernelBuild {
  std::string platform = "x86-64";
  bool mobile = false;           // IsMobilePlatform()
  bool ruy = false;              // TFLITE_WITH_RUY
  int32_t num_threads = 1;       // the interpreter's thread count; -1 = left unset
  int32_t fc_4bit_max_rows = 1;  // the packed 4-bit kernel's GetMaxSupportedRows()

  // CONV_2D's multithreaded Eigen kernel (no ruy) with other than exactly one thread.
  bool multithreaded_conv() const { return !ruy && num_threads != 1; }
};

// The names --platform takes, the default first.
std::vector<std::string_view> KernelBuildPlatforms();

// `platform` is one of KernelBuildPlatforms(); `num_threads` >= 1, or -1 for "unset" (upstream's
// default, which is not 1). Errors say what is accepted.
[[nodiscard]] Result<KernelBuild> KernelBuildFor(std::string_view platform, int32_t num_threads);

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_KERNEL_BUILD_H_
