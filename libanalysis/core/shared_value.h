// SharedValue: a value held out of line and shared by copies until one of them changes it.
//
// Most nodes keep the default builtin options and most tensors carry no quantization, shape
// signature or constant values, yet each graph element held all of them inline, and a million-
// node graph is copied by delegation and the Prepare replay (issue 18). A SharedValue holding the
// default is a null pointer (no allocation); a copy costs a pointer and a count
// held beside the value.
//
// Read through `*v`, `v->field` or the implicit `const T&`; change through `v.Mutable()`, which
// first copies a value another holder still shares. Copies in different threads are safe, as for
// shared_ptr: a shared value is never changed.
#ifndef LIBANALYSIS_CORE_SHARED_VALUE_H_
#define LIBANALYSIS_CORE_SHARED_VALUE_H_

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <utility>

namespace tfa {

template <typename T>
class SharedValue {
 public:
  SharedValue() = default;
  SharedValue(T value) {  // NOLINT(google-explicit-constructor): stands for a T
    if (!(value == Default())) box_ = new Box{std::move(value)};
  }
  // A list value from its elements: `tensor.shape_signature = {-1, 16}`.
  template <typename U = T>
  SharedValue(std::initializer_list<typename U::value_type> items) : SharedValue(T(items)) {}
  SharedValue(const SharedValue& other) : box_(other.box_) {
    if (box_) box_->holders.fetch_add(1, std::memory_order_relaxed);
  }
  SharedValue(SharedValue&& other) noexcept : box_(std::exchange(other.box_, nullptr)) {}
  SharedValue& operator=(const SharedValue& other) {
    SharedValue(other).Swap(*this);
    return *this;
  }
  SharedValue& operator=(SharedValue&& other) noexcept {
    SharedValue(std::move(other)).Swap(*this);
    return *this;
  }
  ~SharedValue() { Release(); }

  const T& operator*() const { return box_ ? box_->value : Default(); }
  const T* operator->() const { return &**this; }
  operator const T&() const { return **this; }  // NOLINT(google-explicit-constructor)
  // The value to change, copied first when another holder still shares it.
  T& Mutable() {
    if (!box_) {
      box_ = new Box{T{}};
    } else if (box_->holders.load(std::memory_order_acquire) > 1) {
      // The acquire orders this copy after the other holders' changes, which they made before
      // sharing; a shared value is never changed, so reading it here is safe.
      Box* own = new Box{box_->value};
      Release();
      box_ = own;
    }
    return box_->value;
  }

  friend bool operator==(const SharedValue& a, const SharedValue& b) { return *a == *b; }

 private:
  // The value and its holder count in one allocation, so a SharedValue is one pointer: a tensor
  // holds three of them and a node one, a million of each in a large graph (issue 18).
  struct Box {
    T value;
    std::atomic<uint32_t> holders{1};
  };

  static const T& Default() {
    static const T value{};
    return value;
  }
  void Swap(SharedValue& other) noexcept { std::swap(box_, other.box_); }
  // Drops this holder; the last one frees the box. acq_rel orders every holder's reads before
  // the delete, as shared_ptr does.
  void Release() {
    if (box_ && box_->holders.fetch_sub(1, std::memory_order_acq_rel) == 1) delete box_;
    box_ = nullptr;
  }

  Box* box_ = nullptr;  // null: the default
};

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_SHARED_VALUE_H_
