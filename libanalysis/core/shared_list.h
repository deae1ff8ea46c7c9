// SharedList: a list whose copies share the elements they were copied with.
//
// A graph's tensor and node lists are copied whole by every delegate that claims nodes (the
// delegated graph is the model's plus one kernel node per subset) and by the Prepare replay (plus
// the kernels' temporaries). For a million-node graph each copy was hundreds of megabytes written
// for elements no one changes (issue 18). Here a copy shares the elements it started with (the
// `base`) and appends to its own `tail`, so copying costs the other list's tail; a copy takes its
// own base only when one of the shared elements is changed through it.
//
// The list keeps std::vector's interface for what the graph code does with it: size, indexing,
// iteration, push_back / emplace_back, reserve, resize, clear, insert. It is not contiguous (no
// data()). Mutable access is what decides: a non-const operator[], begin() or back() on a list
// whose base another copy still holds copies the base first, as a vector copy would have; read a
// shared list through a const reference. Copies in different threads are safe, as for
// shared_ptr: a base is never changed while two lists hold it.
#ifndef LIBANALYSIS_CORE_SHARED_LIST_H_
#define LIBANALYSIS_CORE_SHARED_LIST_H_

#include <atomic>
#include <cassert>
#include <compare>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace tfa {

template <typename T>
class SharedList {
  template <bool kConst>
  class Iterator;

 public:
  using value_type = T;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = Iterator<false>;
  using const_iterator = Iterator<true>;

  SharedList() = default;
  SharedList(std::vector<T> items) {  // NOLINT(google-explicit-constructor): a list from a vector
    if (!items.empty()) Adopt(std::make_shared<std::vector<T>>(std::move(items)));
  }
  SharedList(std::initializer_list<T> items) : SharedList(std::vector<T>(items)) {}
  SharedList(const SharedList& other)
      : base_(other.base_),
        base_data_(other.base_data_),
        base_size_(other.base_size_),
        tail_(other.tail_) {}
  SharedList(SharedList&& other) noexcept
      : base_(std::move(other.base_)),
        base_data_(std::exchange(other.base_data_, nullptr)),
        base_size_(std::exchange(other.base_size_, 0)),
        tail_(std::move(other.tail_)) {
    other.tail_.clear();
  }
  SharedList& operator=(const SharedList& other) {
    if (this != &other) *this = SharedList(other);
    return *this;
  }
  SharedList& operator=(SharedList&& other) noexcept {
    base_ = std::move(other.base_);
    base_data_ = std::exchange(other.base_data_, nullptr);
    base_size_ = std::exchange(other.base_size_, 0);
    tail_ = std::move(other.tail_);
    other.tail_.clear();
    return *this;
  }
  ~SharedList() = default;

  size_t size() const { return base_size_ + tail_.size(); }
  bool empty() const { return size() == 0; }

  const T& operator[](size_t i) const {
    assert(i < size() && "SharedList index out of range");
    return i < base_size_ ? base_data_[i] : tail_[i - base_size_];
  }
  T& operator[](size_t i) {
    assert(i < size() && "SharedList index out of range");
    if (i >= base_size_) return tail_[i - base_size_];
    return OwnBase()[i];
  }
  const T& at(size_t i) const {
    if (i >= size()) throw std::out_of_range("SharedList::at");
    return (*this)[i];
  }
  T& at(size_t i) {
    if (i >= size()) throw std::out_of_range("SharedList::at");
    return (*this)[i];
  }
  const T& front() const { return (*this)[0]; }
  const T& back() const { return (*this)[size() - 1]; }
  T& front() { return (*this)[0]; }
  T& back() { return (*this)[size() - 1]; }

  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  iterator begin() { return iterator(this, 0); }
  iterator end() { return iterator(this, size()); }

  void push_back(T item) { emplace_back(std::move(item)); }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (!AppendsToBase()) return tail_.emplace_back(std::forward<Args>(args)...);
    if (!base_) Adopt(std::make_shared<std::vector<T>>());
    T& item = base_->emplace_back(std::forward<Args>(args)...);
    Sync();
    return item;
  }
  // Room for `count` elements in all; appends up to it move no element.
  void reserve(size_t count) {
    if (count <= size()) return;
    if (!AppendsToBase()) {
      tail_.reserve(count - base_size_);
      return;
    }
    if (!base_) Adopt(std::make_shared<std::vector<T>>());
    base_->reserve(count);
    Sync();
  }
  void resize(size_t count) { resize(count, T()); }
  void resize(size_t count, const T& fill) {
    if (count < base_size_) {
      Flatten().resize(count, fill);
      Sync();
    } else if (AppendsToBase()) {
      if (!base_) Adopt(std::make_shared<std::vector<T>>());
      base_->resize(count, fill);
      Sync();
    } else {
      tail_.resize(count - base_size_, fill);
    }
  }
  void clear() {
    base_.reset();
    base_data_ = nullptr;
    base_size_ = 0;
    tail_.clear();
  }
  template <typename InputIt>
  iterator insert(const_iterator position, InputIt first, InputIt last) {
    const size_t index = position.index_;
    std::vector<T>& items = Flatten();
    items.insert(items.begin() + static_cast<difference_type>(index), first, last);
    Sync();
    return iterator(this, index);
  }
  iterator insert(const_iterator position, T item) {
    const size_t index = position.index_;
    std::vector<T>& items = Flatten();
    items.insert(items.begin() + static_cast<difference_type>(index), std::move(item));
    Sync();
    return iterator(this, index);
  }

  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

  friend bool operator==(const SharedList& a, const SharedList& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!(a[i] == b[i])) return false;
    }
    return true;
  }

 private:
  // Random access by index: valid across appends to the tail, like an index into a vector.
  template <bool kConst>
  class Iterator {
    using List = std::conditional_t<kConst, const SharedList, SharedList>;

   public:
    using iterator_category = std::random_access_iterator_tag;
    using iterator_concept = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using reference = std::conditional_t<kConst, const T&, T&>;
    using pointer = std::conditional_t<kConst, const T*, T*>;

    Iterator() = default;
    Iterator(List* list, size_t index) : list_(list), index_(index) {}
    operator Iterator<true>() const {  // NOLINT(google-explicit-constructor): as vector's
      return Iterator<true>(list_, index_);
    }

    reference operator*() const { return (*list_)[index_]; }
    pointer operator->() const { return &**this; }
    reference operator[](difference_type n) const { return *(*this + n); }
    Iterator& operator++() {
      ++index_;
      return *this;
    }
    Iterator operator++(int) { return Iterator(list_, index_++); }
    Iterator& operator--() {
      --index_;
      return *this;
    }
    Iterator operator--(int) { return Iterator(list_, index_--); }
    Iterator& operator+=(difference_type n) {
      index_ = static_cast<size_t>(static_cast<difference_type>(index_) + n);
      return *this;
    }
    Iterator& operator-=(difference_type n) { return *this += -n; }
    friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
    friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
    friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const Iterator& a, const Iterator& b) {
      return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
    }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.index_ == b.index_; }
    friend auto operator<=>(const Iterator& a, const Iterator& b) { return a.index_ <=> b.index_; }

   private:
    friend class SharedList;
    List* list_ = nullptr;
    size_t index_ = 0;
  };

  // Whether the base is this list's alone. The acquire fence orders this list's later writes to
  // the base after the last reads of the copy that released it (as shared_ptr's own uniqueness
  // check would need).
  bool OwnsBase() const {
    if (base_.use_count() != 1) return false;
    std::atomic_thread_fence(std::memory_order_acquire);
    return true;
  }
  // Appends go to the base while it is this list's alone and nothing follows it.
  bool AppendsToBase() const { return tail_.empty() && (!base_ || OwnsBase()); }
  // The base, copied first when another list still holds it.
  std::vector<T>& OwnBase() {
    if (!OwnsBase()) Adopt(std::make_shared<std::vector<T>>(*base_));
    return *base_;
  }
  // All elements in a base of this list's own, the tail moved in after it.
  std::vector<T>& Flatten() {
    if (!base_) {
      Adopt(std::make_shared<std::vector<T>>(std::move(tail_)));
    } else {
      std::vector<T>& items = OwnBase();
      items.insert(items.end(), std::make_move_iterator(tail_.begin()),
                   std::make_move_iterator(tail_.end()));
    }
    tail_.clear();
    Sync();
    return *base_;
  }
  void Adopt(std::shared_ptr<std::vector<T>> base) {
    base_ = std::move(base);
    Sync();
  }
  // The cached view of the base, after a change to it.
  void Sync() {
    base_data_ = base_ ? base_->data() : nullptr;
    base_size_ = base_ ? base_->size() : 0;
  }

  std::shared_ptr<std::vector<T>> base_;  // null: no base
  // base_->data() and base_->size(), cached: indexing reads them on every access.
  T* base_data_ = nullptr;
  size_t base_size_ = 0;
  std::vector<T> tail_;  // appended while the base was shared
};

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_SHARED_LIST_H_
