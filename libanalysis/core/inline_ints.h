// InlineInts: a list of int32 values that keeps up to kInline of them inside itself.
//
// Node tensor lists and tensor shapes are short (two inputs, one output, four dimensions) and
// there are a million of each in a large graph. As std::vector each was 24 bytes plus a 32-byte
// heap block for the few values, about half of the Graph IR (issue 18). Here a list of up to
// kInline values takes 4 * (kInline + 1) bytes and no allocation; a longer one moves to the heap
// and keeps its capacity there, as a vector does.
//
// The interface is std::vector's for what the graph code does with these lists: size, indexing,
// contiguous iteration (so it converts to std::span<const int32_t>), push_back, insert, erase,
// resize, assign and comparison. It converts to std::vector only explicitly.
#ifndef LIBANALYSIS_CORE_INLINE_INTS_H_
#define LIBANALYSIS_CORE_INLINE_INTS_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

namespace tfa {

template <size_t kInline>
class InlineInts {
  // On the heap, the words hold the capacity and the pointer, so three words are the least.
  static_assert(kInline >= 3, "the heap form needs three words");

 public:
  using value_type = int32_t;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = int32_t&;
  using const_reference = const int32_t&;
  using pointer = int32_t*;
  using const_pointer = const int32_t*;
  using iterator = int32_t*;
  using const_iterator = const int32_t*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  InlineInts() = default;
  InlineInts(std::initializer_list<int32_t> values) { assign(values.begin(), values.end()); }
  // NOLINTNEXTLINE(google-explicit-constructor): a list from the vector the loaders build
  InlineInts(const std::vector<int32_t>& values) { assign(values.begin(), values.end()); }
  InlineInts(size_t count, int32_t value) { assign(count, value); }
  template <std::input_iterator It>
  InlineInts(It first, It last) {
    assign(first, last);
  }
  InlineInts(const InlineInts& other) { assign(other.begin(), other.end()); }
  InlineInts(InlineInts&& other) noexcept { StealFrom(other); }
  InlineInts& operator=(const InlineInts& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  InlineInts& operator=(InlineInts&& other) noexcept {
    if (this != &other) {
      FreeHeap();
      StealFrom(other);
    }
    return *this;
  }
  InlineInts& operator=(std::initializer_list<int32_t> values) {
    assign(values.begin(), values.end());
    return *this;
  }
  ~InlineInts() { FreeHeap(); }

  explicit operator std::vector<int32_t>() const { return std::vector<int32_t>(begin(), end()); }

  size_t size() const { return size_ & ~kHeapBit; }
  bool empty() const { return size() == 0; }
  size_t capacity() const { return on_heap() ? static_cast<uint32_t>(words_[0]) : kInline; }
  static constexpr size_t max_size() { return kHeapBit - 1; }

  int32_t* data() { return on_heap() ? HeapData() : words_; }
  const int32_t* data() const { return on_heap() ? HeapData() : words_; }
  iterator begin() { return data(); }
  iterator end() { return data() + size(); }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size(); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  int32_t& operator[](size_t i) {
    assert(i < size() && "InlineInts index out of range");
    return data()[i];
  }
  const int32_t& operator[](size_t i) const {
    assert(i < size() && "InlineInts index out of range");
    return data()[i];
  }
  int32_t& at(size_t i) {
    if (i >= size()) throw std::out_of_range("InlineInts::at");
    return data()[i];
  }
  const int32_t& at(size_t i) const {
    if (i >= size()) throw std::out_of_range("InlineInts::at");
    return data()[i];
  }
  int32_t& front() { return (*this)[0]; }
  const int32_t& front() const { return (*this)[0]; }
  int32_t& back() { return (*this)[size() - 1]; }
  const int32_t& back() const { return (*this)[size() - 1]; }

  void reserve(size_t count) {
    if (count > capacity()) Grow(count);
  }
  void clear() { SetSize(0); }
  void push_back(int32_t value) {
    if (size() == capacity()) Grow(GrownCapacity(size() + 1));
    data()[size()] = value;
    SetSize(size() + 1);
  }
  int32_t& emplace_back(int32_t value) {
    push_back(value);
    return back();
  }
  void pop_back() {
    assert(!empty() && "pop_back on an empty InlineInts");
    SetSize(size() - 1);
  }
  void resize(size_t count, int32_t value = 0) {
    reserve(count);
    if (count > size()) std::fill(data() + size(), data() + count, value);
    SetSize(count);
  }
  void assign(size_t count, int32_t value) {
    clear();
    resize(count, value);
  }
  template <std::input_iterator It>
  void assign(It first, It last) {
    clear();
    if constexpr (std::forward_iterator<It>)
      reserve(static_cast<size_t>(std::distance(first, last)));
    for (; first != last; ++first) push_back(static_cast<int32_t>(*first));
  }
  void assign(std::initializer_list<int32_t> values) { assign(values.begin(), values.end()); }

  iterator insert(const_iterator position, int32_t value) {
    return insert(position, &value, &value + 1);
  }
  iterator insert(const_iterator position, size_t count, int32_t value) {
    const size_t at = Offset(position);
    OpenGap(at, count);
    std::fill(data() + at, data() + at + count, value);
    return data() + at;
  }
  // The inserted values may not come from this list (a vector's rule too, for reallocation).
  template <std::forward_iterator It>
  iterator insert(const_iterator position, It first, It last) {
    const size_t at = Offset(position);
    const auto count = static_cast<size_t>(std::distance(first, last));
    OpenGap(at, count);
    std::copy(first, last, data() + at);
    return data() + at;
  }
  iterator insert(const_iterator position, std::initializer_list<int32_t> values) {
    return insert(position, values.begin(), values.end());
  }
  iterator erase(const_iterator position) { return erase(position, position + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const size_t at = Offset(first);
    const size_t count = static_cast<size_t>(last - first);
    std::copy(data() + at + count, end(), data() + at);
    SetSize(size() - count);
    return data() + at;
  }
  void swap(InlineInts& other) noexcept {
    InlineInts held(std::move(other));
    other = std::move(*this);
    *this = std::move(held);
  }

  friend bool operator==(const InlineInts& a, const InlineInts& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const InlineInts& a, const std::vector<int32_t>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend auto operator<=>(const InlineInts& a, const InlineInts& b) {
    return std::lexicographical_compare_three_way(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  static constexpr uint32_t kHeapBit = 0x80000000u;

  bool on_heap() const { return (size_ & kHeapBit) != 0; }
  int32_t* HeapData() const {
    int32_t* heap;
    std::memcpy(&heap, &words_[1], sizeof(heap));
    return heap;
  }
  void SetSize(size_t count) {
    assert(count <= capacity());
    size_ = static_cast<uint32_t>(count) | (size_ & kHeapBit);
  }
  size_t Offset(const_iterator position) const {
    assert(position >= begin() && position <= end() && "iterator from another list");
    return static_cast<size_t>(position - begin());
  }
  // Doubles as a vector does, but never past max_size(), so a list that fits is never refused
  // for its doubling.
  size_t GrownCapacity(size_t needed) const {
    return std::max(needed, std::min(2 * capacity(), max_size()));
  }
  // Moves the values to a heap block of `count` values or more (count > capacity()).
  void Grow(size_t count) {
    if (count > max_size()) throw std::length_error("InlineInts longer than 2^31 - 1 values");
    const size_t held = size();
    auto* heap = new int32_t[count];
    std::copy(begin(), end(), heap);
    FreeHeap();
    words_[0] = static_cast<int32_t>(count);
    std::memcpy(&words_[1], &heap, sizeof(heap));
    size_ = static_cast<uint32_t>(held) | kHeapBit;
  }
  // Shifts the values from `at` on by `count`, growing as a vector does.
  void OpenGap(size_t at, size_t count) {
    const size_t held = size();
    if (held + count > capacity()) Grow(GrownCapacity(held + count));
    std::copy_backward(data() + at, data() + held, data() + held + count);
    SetSize(held + count);
  }
  void FreeHeap() {
    if (on_heap()) delete[] HeapData();
    size_ = 0;
  }
  // Takes `other`'s values (its heap block, or a copy of its inline values) and empties it.
  void StealFrom(InlineInts& other) {
    size_ = other.size_;
    std::memcpy(words_, other.words_, sizeof(words_));
    other.size_ = 0;
  }

  uint32_t size_ = 0;         // the count, and kHeapBit when the values are on the heap
  int32_t words_[kInline]{};  // the values; on the heap: the capacity, then the pointer's bytes
};

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_INLINE_INTS_H_
