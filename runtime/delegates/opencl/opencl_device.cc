#include "runtime/delegates/opencl/opencl_device.h"

#include <algorithm>

namespace tfa::runtime {
namespace {

// The ICD loader's "no platform" (cl_khr_icd), not in the core headers.
constexpr cl_int kPlatformNotFoundKhr = -1001;

std::string PlatformString(cl_platform_id platform, cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string text(size, '\0');
  if (clGetPlatformInfo(platform, what, size, text.data(), nullptr) != CL_SUCCESS) return "";
  text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
  return text;
}

std::string DeviceString(cl_device_id device, cl_device_info what) {
  size_t size = 0;
  if (clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string text(size, '\0');
  if (clGetDeviceInfo(device, what, size, text.data(), nullptr) != CL_SUCCESS) return "";
  text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
  return text;
}

template <typename T>
T DeviceValue(cl_device_id device, cl_device_info what) {
  T value{};
  if (clGetDeviceInfo(device, what, sizeof(value), &value, nullptr) != CL_SUCCESS) return T{};
  return value;
}

std::string DeviceTypeName(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "gpu";
  if (type & CL_DEVICE_TYPE_CPU) return "cpu";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

Result<std::vector<cl_platform_id>> Platforms() {
  cl_uint count = 0;
  const cl_int code = clGetPlatformIDs(0, nullptr, &count);
  if (code == kPlatformNotFoundKhr || (code == CL_SUCCESS && count == 0)) {
    return Status::Error(
        "no OpenCL platform found (install an OpenCL driver, e.g. pocl-opencl-icd, or a GPU "
        "vendor's ICD)");
  }
  TFA_RETURN_IF_ERROR(CheckCl(code, "clGetPlatformIDs"));
  std::vector<cl_platform_id> platforms(count);
  TFA_RETURN_IF_ERROR(
      CheckCl(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs"));
  return platforms;
}

// A platform without devices answers CL_DEVICE_NOT_FOUND: an empty list, not an error.
Result<std::vector<cl_device_id>> Devices(cl_platform_id platform) {
  cl_uint count = 0;
  const cl_int code = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (code == CL_DEVICE_NOT_FOUND) return std::vector<cl_device_id>();
  TFA_RETURN_IF_ERROR(CheckCl(code, "clGetDeviceIDs"));
  std::vector<cl_device_id> devices(count);
  TFA_RETURN_IF_ERROR(
      CheckCl(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr),
              "clGetDeviceIDs"));
  return devices;
}

OpenClDeviceInfo Describe(cl_platform_id platform, cl_device_id device, int32_t platform_index,
                          int32_t device_index) {
  OpenClDeviceInfo info;
  info.platform_index = platform_index;
  info.device_index = device_index;
  info.platform_name = PlatformString(platform, CL_PLATFORM_NAME);
  info.device_name = DeviceString(device, CL_DEVICE_NAME);
  info.device_type = DeviceTypeName(DeviceValue<cl_device_type>(device, CL_DEVICE_TYPE));
  info.version = DeviceString(device, CL_DEVICE_VERSION);
  info.compute_units = DeviceValue<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.global_memory_bytes = DeviceValue<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.base_alignment_bytes =
      std::max<uint64_t>(DeviceValue<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8, 1);
  info.supports_fp16 =
      DeviceString(device, CL_DEVICE_EXTENSIONS).find("cl_khr_fp16") != std::string::npos;
  return info;
}

}  // namespace

std::string OpenClErrorName(cl_int code) {
  switch (code) {
    case CL_DEVICE_NOT_FOUND:
      return "CL_DEVICE_NOT_FOUND (-1)";
    case CL_DEVICE_NOT_AVAILABLE:
      return "CL_DEVICE_NOT_AVAILABLE (-2)";
    case CL_COMPILER_NOT_AVAILABLE:
      return "CL_COMPILER_NOT_AVAILABLE (-3)";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
      return "CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)";
    case CL_OUT_OF_RESOURCES:
      return "CL_OUT_OF_RESOURCES (-5)";
    case CL_OUT_OF_HOST_MEMORY:
      return "CL_OUT_OF_HOST_MEMORY (-6)";
    case CL_BUILD_PROGRAM_FAILURE:
      return "CL_BUILD_PROGRAM_FAILURE (-11)";
    case CL_INVALID_VALUE:
      return "CL_INVALID_VALUE (-30)";
    case CL_INVALID_DEVICE:
      return "CL_INVALID_DEVICE (-33)";
    case CL_INVALID_CONTEXT:
      return "CL_INVALID_CONTEXT (-34)";
    case CL_INVALID_COMMAND_QUEUE:
      return "CL_INVALID_COMMAND_QUEUE (-36)";
    case CL_INVALID_MEM_OBJECT:
      return "CL_INVALID_MEM_OBJECT (-38)";
    case CL_INVALID_PROGRAM:
      return "CL_INVALID_PROGRAM (-44)";
    case CL_INVALID_KERNEL_NAME:
      return "CL_INVALID_KERNEL_NAME (-46)";
    case CL_INVALID_KERNEL:
      return "CL_INVALID_KERNEL (-48)";
    case CL_INVALID_ARG_INDEX:
      return "CL_INVALID_ARG_INDEX (-49)";
    case CL_INVALID_ARG_VALUE:
      return "CL_INVALID_ARG_VALUE (-50)";
    case CL_INVALID_ARG_SIZE:
      return "CL_INVALID_ARG_SIZE (-51)";
    case CL_INVALID_KERNEL_ARGS:
      return "CL_INVALID_KERNEL_ARGS (-52)";
    case CL_INVALID_WORK_GROUP_SIZE:
      return "CL_INVALID_WORK_GROUP_SIZE (-54)";
    case CL_INVALID_GLOBAL_WORK_SIZE:
      return "CL_INVALID_GLOBAL_WORK_SIZE (-63)";
    case CL_INVALID_BUFFER_SIZE:
      return "CL_INVALID_BUFFER_SIZE (-61)";
    case kPlatformNotFoundKhr:
      return "CL_PLATFORM_NOT_FOUND_KHR (-1001)";
    default:
      return "OpenCL error " + std::to_string(code);
  }
}

Status CheckCl(cl_int code, const std::string& what) {
  if (code == CL_SUCCESS) return Status::Ok();
  return Status::Error(what + ": " + OpenClErrorName(code));
}

Result<std::vector<OpenClDeviceInfo>> ListOpenClDevices() {
  auto platforms = Platforms();
  if (!platforms.ok()) return platforms.status();
  std::vector<OpenClDeviceInfo> devices;
  for (size_t p = 0; p < platforms->size(); ++p) {
    auto ids = Devices((*platforms)[p]);
    if (!ids.ok()) return ids.status();
    for (size_t d = 0; d < ids->size(); ++d) {
      devices.push_back(
          Describe((*platforms)[p], (*ids)[d], static_cast<int32_t>(p), static_cast<int32_t>(d)));
    }
  }
  return devices;
}

Result<std::unique_ptr<OpenClDevice>> OpenClDevice::Open(int32_t platform_index,
                                                         int32_t device_index) {
  auto platforms = Platforms();
  if (!platforms.ok()) return platforms.status();
  if (platform_index < 0 || static_cast<size_t>(platform_index) >= platforms->size()) {
    return Status::Error("OpenCL platform " + std::to_string(platform_index) + " does not exist (" +
                         std::to_string(platforms->size()) + " platforms)");
  }
  const cl_platform_id platform = (*platforms)[static_cast<size_t>(platform_index)];
  auto devices = Devices(platform);
  if (!devices.ok()) return devices.status();
  if (device_index < 0 || static_cast<size_t>(device_index) >= devices->size()) {
    return Status::Error("OpenCL platform " + std::to_string(platform_index) + " has no device " +
                         std::to_string(device_index) + " (" + std::to_string(devices->size()) +
                         " devices)");
  }
  std::unique_ptr<OpenClDevice> opened(new OpenClDevice());
  opened->device_ = (*devices)[static_cast<size_t>(device_index)];
  opened->info_ = Describe(platform, opened->device_, platform_index, device_index);
  cl_int code = CL_SUCCESS;
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                              reinterpret_cast<cl_context_properties>(platform), 0};
  opened->context_ = clCreateContext(properties, 1, &opened->device_, nullptr, nullptr, &code);
  TFA_RETURN_IF_ERROR(CheckCl(code, "clCreateContext on " + opened->info_.device_name));
  // clCreateCommandQueue is deprecated in OpenCL 2.0 but is the 1.2 entry point we target.
  opened->queue_ = clCreateCommandQueue(opened->context_, opened->device_, 0, &code);
  TFA_RETURN_IF_ERROR(CheckCl(code, "clCreateCommandQueue on " + opened->info_.device_name));
  return opened;
}

OpenClDevice::~OpenClDevice() {
  if (queue_) clReleaseCommandQueue(queue_);
  if (context_) clReleaseContext(context_);
}

}  // namespace tfa::runtime
