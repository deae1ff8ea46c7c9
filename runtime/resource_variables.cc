#include "runtime/resource_variables.h"

#include <cstring>

namespace tfa::runtime {

Status ResourceVariables::WriteHandle(const std::string& container, const std::string& shared_name,
                                      RuntimeTensor& handle) {
  if (!handle.data || handle.bytes < sizeof(int32_t))
    return Status::Error("VAR_HANDLE: the handle tensor has no 4-byte buffer");
  const auto [it, added] =
      ids_.emplace(std::make_pair(container, shared_name), static_cast<int32_t>(values_.size()));
  if (added) values_.emplace_back();
  std::memcpy(handle.data, &it->second, sizeof(int32_t));
  return Status::Ok();
}

Result<int32_t> ResourceVariables::IdOf(const RuntimeTensor& handle) const {
  if (!handle.data || handle.bytes < sizeof(int32_t))
    return Status::Error("the resource handle tensor has no 4-byte buffer");
  int32_t id = 0;
  std::memcpy(&id, handle.data, sizeof(int32_t));
  if (id < 0 || static_cast<size_t>(id) >= values_.size())
    return Status::Error("resource handle " + std::to_string(id) + " names no variable");
  return id;
}

Status ResourceVariables::Assign(const RuntimeTensor& handle, const RuntimeTensor& value) {
  auto id = IdOf(handle);
  if (!id.ok()) return id.status().WithContext("ASSIGN_VARIABLE");
  if (value.bytes > 0 && !value.data)
    return Status::Error("ASSIGN_VARIABLE: the value tensor has no buffer");
  Value& v = values_[static_cast<size_t>(*id)];
  v.assigned = true;
  v.type = value.type;
  v.shape = value.shape;
  v.bytes.assign(value.data, value.data + value.bytes);
  return Status::Ok();
}

Status ResourceVariables::Read(const RuntimeTensor& handle, RuntimeTensor& output) const {
  auto id = IdOf(handle);
  if (!id.ok()) return id.status().WithContext("READ_VARIABLE");
  const Value& v = values_[static_cast<size_t>(*id)];
  if (!v.assigned)
    return Status::Error("READ_VARIABLE: variable " + std::to_string(*id) +
                         " is read before any ASSIGN_VARIABLE");
  if (v.type != output.type || v.bytes.size() != output.bytes) {
    return Status::Error("READ_VARIABLE: the variable holds " + std::to_string(v.bytes.size()) +
                         " bytes of " + TensorTypeName(v.type) + ", the output takes " +
                         std::to_string(output.bytes) + " bytes of " + TensorTypeName(output.type));
  }
  if (!v.bytes.empty()) std::memcpy(output.data, v.bytes.data(), v.bytes.size());
  return Status::Ok();
}

}  // namespace tfa::runtime
