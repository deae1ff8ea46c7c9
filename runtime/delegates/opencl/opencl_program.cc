#include "runtime/delegates/opencl/opencl_program.h"

#include <algorithm>
#include <chrono>

#include "runtime/delegates/opencl/op_kernels_source.h"

namespace tfa::runtime {

Result<std::unique_ptr<OpenClProgram>> OpenClProgram::Build(const OpenClDevice& device,
                                                            ClPrecision precision,
                                                            const char* source) {
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<OpenClProgram> built(new OpenClProgram());
  built->precision_ = precision;
  cl_int code = CL_SUCCESS;
  built->program_ = clCreateProgramWithSource(device.context(), 1, &source, nullptr, &code);
  TFA_RETURN_IF_ERROR(CheckCl(code, "clCreateProgramWithSource"));
  cl_device_id id = device.device();
  const std::string options = ClPrecisionBuildOptions(precision);
  code = clBuildProgram(built->program_, 1, &id, options.c_str(), nullptr, nullptr);
  if (code != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(built->program_, id, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(built->program_, id, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    return Status::Error("building the OpenCL op kernels for " + device.info().device_name + ": " +
                         OpenClErrorName(code) + ": " + log);
  }
  built->build_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return built;
}

OpenClProgram::~OpenClProgram() {
  if (program_) clReleaseProgram(program_);
}

Result<ClKernel> OpenClProgram::CreateKernel(const char* name) const {
  cl_int code = CL_SUCCESS;
  ClKernel kernel(clCreateKernel(program_, name, &code));
  TFA_RETURN_IF_ERROR(CheckCl(code, std::string("clCreateKernel ") + name));
  return kernel;
}

Result<const OpenClProgram*> OpenClProgramCache::Get() {
  if (!program_) {
    auto built = OpenClProgram::Build(device_, precision_, source_.c_str());
    if (!built.ok()) return built.status();
    program_ = std::move(*built);
    ++builds_;
  }
  return program_.get();
}

Result<ClMem> CreateBuffer(const OpenClDevice& device, size_t bytes) {
  cl_int code = CL_SUCCESS;
  ClMem buffer(clCreateBuffer(device.context(), CL_MEM_READ_WRITE, std::max<size_t>(bytes, 4),
                              nullptr, &code));
  TFA_RETURN_IF_ERROR(CheckCl(code, "clCreateBuffer of " + std::to_string(bytes) + " bytes"));
  return buffer;
}

Result<ClMem> CreateSubBuffer(cl_mem parent, size_t offset, size_t bytes) {
  const cl_buffer_region region{offset, std::max<size_t>(bytes, 4)};
  cl_int code = CL_SUCCESS;
  ClMem buffer(
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &code));
  std::string what = "clCreateSubBuffer at ";
  what += std::to_string(offset);
  TFA_RETURN_IF_ERROR(CheckCl(code, what));
  return buffer;
}

}  // namespace tfa::runtime
