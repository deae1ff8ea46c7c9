// OpenCL platforms and devices through the C API and the ICD loader: listing them (for
// `tflite-analyze devices`), opening one (context + in-order queue) and turning OpenCL error
// codes into Status messages. Any OpenCL 1.2 platform works: PoCL on the CPU, GPU drivers.
#ifndef RUNTIME_DELEGATES_OPENCL_OPENCL_DEVICE_H_
#define RUNTIME_DELEGATES_OPENCL_OPENCL_DEVICE_H_

#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"

namespace tfa::runtime {

struct OpenClDeviceInfo {
  int32_t platform_index = 0;
  int32_t device_index = 0;
  std::string platform_name;
  std::string device_name;
  std::string device_type;  // "gpu", "cpu", "accelerator", "other"
  std::string version;      // CL_DEVICE_VERSION, e.g. "OpenCL 3.0 PoCL ..."
  uint32_t compute_units = 0;
  uint64_t global_memory_bytes = 0;
  uint64_t base_alignment_bytes = 1;  // CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes: sub-buffer offsets
  bool supports_fp16 = false;         // cl_khr_fp16: upstream's precondition for fp16 precisions
};

// Every device of every platform, in platform then device order. No platform (no ICD installed,
// or the loader finds none) is an error saying so.
[[nodiscard]] Result<std::vector<OpenClDeviceInfo>> ListOpenClDevices();

// "CL_INVALID_VALUE (-30)" for known codes, the number otherwise.
std::string OpenClErrorName(cl_int code);

// Ok for CL_SUCCESS, else an error "`what`: <code name>".
[[nodiscard]] Status CheckCl(cl_int code, const std::string& what);

// One opened device: its context and an in-order command queue, released together.
class OpenClDevice {
 public:
  // Device `device_index` of platform `platform_index` (ListOpenClDevices' numbering).
  [[nodiscard]] static Result<std::unique_ptr<OpenClDevice>> Open(int32_t platform_index,
                                                                  int32_t device_index);
  ~OpenClDevice();
  OpenClDevice(const OpenClDevice&) = delete;
  OpenClDevice& operator=(const OpenClDevice&) = delete;

  cl_device_id device() const { return device_; }
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }
  const OpenClDeviceInfo& info() const { return info_; }

 private:
  OpenClDevice() = default;

  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  OpenClDeviceInfo info_;
};

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_OPENCL_OPENCL_DEVICE_H_
