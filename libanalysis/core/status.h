// Errors as values. Library functions never throw across the boundary and never print: they
// return a Status (or a Result<T>) whose message names the object at fault, e.g.
// "model.tflite: subgraph 0: node 12 (CONV_2D): input 3 is out of range (87 tensors)".
#ifndef LIBANALYSIS_CORE_STATUS_H_
#define LIBANALYSIS_CORE_STATUS_H_

#include <cassert>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace tfa {

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(std::string message) {
    Status s;
    s.message_ = std::move(message);
    s.ok_ = false;
    return s;
  }

  bool ok() const { return ok_; }
  const std::string& message() const { return message_; }

  // Prefixes the message with the context it was found in ("file.tflite: " + message).
  Status WithContext(const std::string& context) const {
    if (ok_) return *this;
    return Error(context + ": " + message_);
  }

 private:
  bool ok_ = true;
  std::string message_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  Result(Status status) : status_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    assert(!status_.ok() && "a Result built from a Status must carry an error");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  // Checked in every build type: reading the value of an error is a bug, never undefined
  // behaviour.
  T& value() & {
    CheckHasValue();
    return *value_;
  }
  const T& value() const& {
    CheckHasValue();
    return *value_;
  }
  T&& value() && {
    CheckHasValue();
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  void CheckHasValue() const {
    if (!value_.has_value()) std::abort();
  }

  std::optional<T> value_;
  Status status_;
};

}  // namespace tfa

#define TFA_RETURN_IF_ERROR(expr)              \
  do {                                         \
    ::tfa::Status tfa_status_ = (expr);        \
    if (!tfa_status_.ok()) return tfa_status_; \
  } while (false)

#endif  // LIBANALYSIS_CORE_STATUS_H_
