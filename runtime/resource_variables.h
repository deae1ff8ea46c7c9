// Resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE): values that live outside every
// arena, shared by all subgraphs of one interpreter and kept between Invokes.
//
// As upstream (tflite/kernels/var_handle.cc, read_variable.cc, assign_variable.cc): VAR_HANDLE
// writes into its 4-byte RESOURCE output the id of the variable named by its (container,
// shared_name) options, one id per distinct pair; ASSIGN_VARIABLE copies a tensor's bytes into the
// variable the handle names; READ_VARIABLE copies them back out. A variable read before any
// assignment is an error.
#ifndef RUNTIME_RESOURCE_VARIABLES_H_
#define RUNTIME_RESOURCE_VARIABLES_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "libanalysis/core/status.h"
#include "runtime/kernel.h"

namespace tfa::runtime {

class ResourceVariables {
 public:
  // VAR_HANDLE: writes the id of (container, shared_name) into `handle` (4 bytes at least).
  [[nodiscard]] Status WriteHandle(const std::string& container, const std::string& shared_name,
                                   RuntimeTensor& handle);
  // ASSIGN_VARIABLE: the variable `handle` names takes `value`'s type, shape and bytes.
  [[nodiscard]] Status Assign(const RuntimeTensor& handle, const RuntimeTensor& value);
  // READ_VARIABLE: `output` (same byte size as the value) receives the variable's bytes.
  [[nodiscard]] Status Read(const RuntimeTensor& handle, RuntimeTensor& output) const;

 private:
  struct Value {
    bool assigned = false;
    TensorType type = TensorType::kFloat32;
    std::vector<int32_t> shape;
    std::vector<uint8_t> bytes;
  };
  [[nodiscard]] Result<int32_t> IdOf(const RuntimeTensor& handle) const;

  std::map<std::pair<std::string, std::string>, int32_t> ids_;
  std::vector<Value> values_;  // by id
};

}  // namespace tfa::runtime

#endif  // RUNTIME_RESOURCE_VARIABLES_H_
