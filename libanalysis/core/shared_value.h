// SharedValue: a value held out of line and shared by copies until one of them changes it.
//
// Most nodes keep the default builtin options and most tensors carry no quantization, shape
// signature or constant values, yet each graph element held all of them inline, and a million-
// node graph is copied by delegation and the Prepare replay (issue 18). A SharedValue holding the
// default is a null pointer (no allocation); a copy costs a pointer and a reference count.
//
// Read through `*v`, `v->field` or the implicit `const T&`; change through `v.Mutable()`, which
// first copies a value another holder still shares. Copies in different threads are safe, as for
// shared_ptr: a shared value is never changed.
#ifndef LIBANALYSIS_CORE_SHARED_VALUE_H_
#define LIBANALYSIS_CORE_SHARED_VALUE_H_

#include <atomic>
#include <initializer_list>
#include <memory>
#include <utility>

namespace tfa {

template <typename T>
class SharedValue {
 public:
  SharedValue() = default;
  SharedValue(T value) {  // NOLINT(google-explicit-constructor): stands for a T
    if (!(value == Default())) data_ = std::make_shared<T>(std::move(value));
  }
  // A list value from its elements: `tensor.shape_signature = {-1, 16}`.
  template <typename U = T>
  SharedValue(std::initializer_list<typename U::value_type> items) : SharedValue(T(items)) {}

  const T& operator*() const { return data_ ? *data_ : Default(); }
  const T* operator->() const { return &**this; }
  operator const T&() const { return **this; }  // NOLINT(google-explicit-constructor)
  // The value to change, copied first when another holder still shares it.
  T& Mutable() {
    if (!data_) {
      data_ = std::make_shared<T>();
    } else if (data_.use_count() > 1) {
      data_ = std::make_shared<T>(*data_);
    } else {
      // Orders this change after the last reads of the holder that let go (as SharedList does).
      std::atomic_thread_fence(std::memory_order_acquire);
    }
    return *data_;
  }

  friend bool operator==(const SharedValue& a, const SharedValue& b) { return *a == *b; }

 private:
  static const T& Default() {
    static const T value{};
    return value;
  }

  std::shared_ptr<T> data_;  // null: the default
};

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_SHARED_VALUE_H_
