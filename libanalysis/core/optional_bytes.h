// OptionalBytes: a byte count that may be unknown, in 8 bytes.
//
// std::optional<uint64_t> takes 16 bytes for its flag, and a tensor holds two such counts (its
// data and its sparse ledger), a million tensors in a large graph (issue 18). Here "unknown" is
// the one count no tensor can have: 2^64 - 1 bytes, beyond any address space, which the byte
// arithmetic reports as an overflow (unknown) anyway.
//
// The interface is std::optional's for what the graph code does with these counts, and it
// converts to and from std::optional<uint64_t>.
#ifndef LIBANALYSIS_CORE_OPTIONAL_BYTES_H_
#define LIBANALYSIS_CORE_OPTIONAL_BYTES_H_

#include <cstdint>
#include <limits>
#include <optional>

namespace tfa {

class OptionalBytes {
 public:
  constexpr OptionalBytes() = default;
  constexpr OptionalBytes(std::nullopt_t) {}  // NOLINT(google-explicit-constructor)
  // NOLINTNEXTLINE(google-explicit-constructor): a known count
  constexpr OptionalBytes(uint64_t bytes) : bytes_(bytes) {}
  // NOLINTNEXTLINE(google-explicit-constructor): the same count as a std::optional
  constexpr OptionalBytes(std::optional<uint64_t> bytes) : bytes_(bytes.value_or(kUnknown)) {}
  // NOLINTNEXTLINE(google-explicit-constructor): reads as the std::optional it stands for
  constexpr operator std::optional<uint64_t>() const {
    return has_value() ? std::optional<uint64_t>(bytes_) : std::nullopt;
  }

  constexpr bool has_value() const { return bytes_ != kUnknown; }
  constexpr explicit operator bool() const { return has_value(); }
  constexpr uint64_t operator*() const { return bytes_; }
  constexpr uint64_t value() const {
    if (!has_value()) throw std::bad_optional_access();
    return bytes_;
  }
  constexpr uint64_t value_or(uint64_t fallback) const { return has_value() ? bytes_ : fallback; }
  constexpr void reset() { bytes_ = kUnknown; }

  // One overload per operand kind, so that no comparison goes through std::optional's templates
  // (which take an unknown count for a value) or needs a conversion.
  friend constexpr bool operator==(const OptionalBytes&, const OptionalBytes&) = default;
  friend constexpr bool operator==(OptionalBytes a, std::nullopt_t) { return !a.has_value(); }
  friend constexpr bool operator==(OptionalBytes a, uint64_t b) { return a.has_value() && *a == b; }
  friend constexpr bool operator==(OptionalBytes a, const std::optional<uint64_t>& b) {
    return a == OptionalBytes(b);
  }

 private:
  static constexpr uint64_t kUnknown = std::numeric_limits<uint64_t>::max();

  uint64_t bytes_ = kUnknown;
};

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_OPTIONAL_BYTES_H_
