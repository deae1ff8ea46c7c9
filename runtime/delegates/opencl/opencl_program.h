// The OpenCL delegate's op program (op_kernels_source.h) built for one device, and the RAII
// handles of the OpenCL objects the delegate creates. One program per delegate: a delegate
// builds it at its first kernel's Prepare and all its partitions' kernels are made from it.
#ifndef RUNTIME_DELEGATES_OPENCL_OPENCL_PROGRAM_H_
#define RUNTIME_DELEGATES_OPENCL_OPENCL_PROGRAM_H_

#include <CL/cl.h>

#include <memory>
#include <string>
#include <type_traits>

#include "libanalysis/core/status.h"
#include "runtime/delegates/opencl/op_kernels_source.h"
#include "runtime/delegates/opencl/opencl_device.h"
#include "runtime/delegates/opencl/opencl_precision.h"

namespace tfa::runtime {

struct ClMemRelease {
  void operator()(cl_mem mem) const { clReleaseMemObject(mem); }
};
using ClMem = std::unique_ptr<std::remove_pointer_t<cl_mem>, ClMemRelease>;

struct ClKernelRelease {
  void operator()(cl_kernel kernel) const { clReleaseKernel(kernel); }
};
using ClKernel = std::unique_ptr<std::remove_pointer_t<cl_kernel>, ClKernelRelease>;

class OpenClProgram {
 public:
  // Compiles `source` (the op kernels; tests plant bugs in a copy) for `device` at `precision`;
  // a build failure carries the compiler's log.
  [[nodiscard]] static Result<std::unique_ptr<OpenClProgram>> Build(
      const OpenClDevice& device, ClPrecision precision = ClPrecision::kF32,
      const char* source = kOpKernelsSource);
  ~OpenClProgram();
  OpenClProgram(const OpenClProgram&) = delete;
  OpenClProgram& operator=(const OpenClProgram&) = delete;

  // A fresh kernel object for the kernel function `name` (each node sets its own arguments).
  [[nodiscard]] Result<ClKernel> CreateKernel(const char* name) const;
  // Seconds the build took (PoCL compiles at run time: worth knowing).
  double build_seconds() const { return build_seconds_; }
  // The precision the program computes at (some ops' parameters depend on it).
  ClPrecision precision() const { return precision_; }

 private:
  OpenClProgram() = default;

  cl_program program_ = nullptr;
  ClPrecision precision_ = ClPrecision::kF32;
  double build_seconds_ = 0;
};

// The op program of one device, built on first use and kept: a delegate's partitions share it,
// so a model pays for one build however many partitions it has.
class OpenClProgramCache {
 public:
  OpenClProgramCache(const OpenClDevice& device, ClPrecision precision, std::string source)
      : device_(device), precision_(precision), source_(std::move(source)) {}

  [[nodiscard]] Result<const OpenClProgram*> Get();
  int builds() const { return builds_; }
  ClPrecision precision() const { return precision_; }

 private:
  const OpenClDevice& device_;
  ClPrecision precision_;
  std::string source_;
  std::unique_ptr<OpenClProgram> program_;
  int builds_ = 0;
};

// A device buffer of `bytes` (at least 4: OpenCL refuses empty buffers).
[[nodiscard]] Result<ClMem> CreateBuffer(const OpenClDevice& device, size_t bytes);
// A view of `bytes` at `offset` of `parent` (clCreateSubBuffer): no memory of its own. The offset
// must be a multiple of the device's base address alignment.
[[nodiscard]] Result<ClMem> CreateSubBuffer(cl_mem parent, size_t offset, size_t bytes);

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_OPENCL_OPENCL_PROGRAM_H_
