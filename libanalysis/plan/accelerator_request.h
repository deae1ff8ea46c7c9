// `--accelerator npu:VENDOR,gpu,cpu` as LiteRT's CompiledModel takes a set of hardware
// accelerators: the compiler plugin of the NPU first, then the GPU delegate on what it left, then
// the CPU (XNNPACK) on the rest, whatever order the list names them in
// (litert/compiler/plugin/compiler_plugin.cc SortPlugins and ApplyPlugins, then
// litert/runtime/compiled_model.cc's accelerators in NPU, GPU, CPU order).
#ifndef LIBANALYSIS_PLAN_ACCELERATOR_REQUEST_H_
#define LIBANALYSIS_PLAN_ACCELERATOR_REQUEST_H_

#include <string>
#include <string_view>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/plan/delegate_request.h"

namespace tfa {

// The NPU vendors with a built-in compiler-plugin profile (profiles/builtin/npu-VENDOR.json),
// sorted: "example", "google_tensor", "mediatek", "qualcomm".
std::vector<std::string> NpuVendors();

// The delegate requests a comma-separated accelerator list stands for, in the order CompiledModel
// applies them: `npu:VENDOR` -> the plugin profile npu-VENDOR, `gpu` -> gpu, `cpu` -> xnnpack.
// Errors: an empty item, an unknown accelerator or vendor (naming the known ones), the same
// accelerator twice, two NPU vendors.
[[nodiscard]] Result<std::vector<DelegateRequest>> AcceleratorRequests(std::string_view list);

}  // namespace tfa

#endif  // LIBANALYSIS_PLAN_ACCELERATOR_REQUEST_H_
