#include "runtime/npy.h"

#include <array>
#include <cctype>
#include <cstring>
#include <optional>
#include <string_view>

#include "libanalysis/core/checked_math.h"

namespace tfa::runtime {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr size_t kMaxHeaderBytes = 1 << 16;  // numpy itself refuses headers above 10,000 bytes
constexpr size_t kMaxRank = 32;              // numpy's NPY_MAXDIMS

struct DtypeCode {
  TensorType type;
  char kind;  // numpy's kind character
  int bytes;
};

constexpr std::array<DtypeCode, 14> kCodes = {{
    {TensorType::kFloat32, 'f', 4},
    {TensorType::kFloat16, 'f', 2},
    {TensorType::kFloat64, 'f', 8},
    {TensorType::kInt8, 'i', 1},
    {TensorType::kInt16, 'i', 2},
    {TensorType::kInt32, 'i', 4},
    {TensorType::kInt64, 'i', 8},
    {TensorType::kUInt8, 'u', 1},
    {TensorType::kUInt16, 'u', 2},
    {TensorType::kUInt32, 'u', 4},
    {TensorType::kUInt64, 'u', 8},
    {TensorType::kBool, 'b', 1},
    {TensorType::kComplex64, 'c', 8},
    {TensorType::kComplex128, 'c', 16},
}};

// "<f4" → float32. Byte order: '<' little, '=' native (little on every host the runtime builds
// for), '|' not applicable (1-byte types only), '>' big: refused, the tensors are little-endian.
Result<TensorType> TypeOfDescr(const std::string& descr) {
  if (descr.size() < 3) return Status::Error("dtype '" + descr + "' is not a numpy dtype code");
  const char order = descr[0];
  const char kind = descr[1];
  int bytes = 0;
  for (size_t i = 2; i < descr.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(descr[i])) || bytes > 1000)
      return Status::Error("dtype '" + descr + "' is not a numpy dtype code");
    bytes = bytes * 10 + (descr[i] - '0');
  }
  for (const DtypeCode& code : kCodes) {
    if (code.kind != kind || code.bytes != bytes) continue;
    if (order == '>' && bytes > 1) {
      return Status::Error("dtype '" + descr +
                           "' is big-endian; the tensors are little-endian (save with "
                           "array.astype('<" +
                           std::string(1, kind) + std::to_string(bytes) + "'))");
    }
    if (order != '<' && order != '=' && order != '|' && order != '>')
      return Status::Error("dtype '" + descr + "' has no byte order");
    if (order == '|' && bytes > 1)
      return Status::Error("dtype '" + descr + "' has no byte order for a multi-byte type");
    return code.type;
  }
  return Status::Error("dtype '" + descr + "' has no tensor type");
}

// A reader of the header's Python dict literal.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  Status Parse(NpyArray& array) {
    bool has_descr = false, has_order = false, has_shape = false;
    SkipSpaces();
    if (!Eat('{')) return Error("does not start with '{'");
    for (;;) {
      SkipSpaces();
      if (Eat('}')) break;
      auto key = String();
      if (!key) return Error("expected a quoted key");
      SkipSpaces();
      if (!Eat(':')) return Error("expected ':' after '" + *key + "'");
      SkipSpaces();
      if (*key == "descr") {
        auto descr = String();
        if (!descr) return Error("'descr' is not a string");
        array.descr = *descr;
        has_descr = true;
      } else if (*key == "fortran_order") {
        if (Word("True")) {
          return Status::Error(
              "the array is in Fortran order; save it in C order (numpy.ascontiguousarray)");
        }
        if (!Word("False")) return Error("'fortran_order' is not True or False");
        has_order = true;
      } else if (*key == "shape") {
        TFA_RETURN_IF_ERROR(Shape(array.shape));
        has_shape = true;
      } else {
        return Error("unexpected key '" + *key + "'");
      }
      SkipSpaces();
      if (Eat(',')) continue;
      SkipSpaces();
      if (!Eat('}')) return Error("expected ',' or '}'");
      break;
    }
    SkipSpaces();
    if (pos_ != text_.size()) return Error("has text after the dict");
    if (!has_descr || !has_order || !has_shape)
      return Error("lacks one of 'descr', 'fortran_order', 'shape'");
    return Status::Ok();
  }

 private:
  Status Error(const std::string& what) const {
    return Status::Error("the .npy header " + what + " (at byte " + std::to_string(pos_) + ")");
  }
  void SkipSpaces() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Eat(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  bool Word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  std::optional<std::string> String() {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) return std::nullopt;
    const char quote = text_[pos_++];
    const size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) return std::nullopt;
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
  }
  Status Shape(std::vector<int64_t>& shape) {
    if (!Eat('(')) return Error("'shape' is not a tuple");
    for (;;) {
      SkipSpaces();
      if (Eat(')')) return Status::Ok();
      if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
        return Error("'shape' holds something other than non-negative integers");
      int64_t dim = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        if (dim > (INT32_MAX - 9) / 10) return Error("'shape' has a dimension above 2^31");
        dim = dim * 10 + (text_[pos_++] - '0');
      }
      if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;  // Python 2 longs
      if (shape.size() == kMaxRank) return Error("'shape' has more than 32 dimensions");
      shape.push_back(dim);
      SkipSpaces();
      if (Eat(')')) return Status::Ok();
      if (!Eat(',')) return Error("'shape' is not a tuple of integers");
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

std::string NpyDescr(TensorType type) {
  for (const DtypeCode& code : kCodes) {
    if (code.type == type)
      return std::string(1, code.bytes == 1 ? '|' : '<') + code.kind + std::to_string(code.bytes);
  }
  return "";
}

Result<NpyArray> ParseNpy(std::span<const uint8_t> file) {
  const size_t fixed = kMagic.size() + 2;
  if (file.size() < fixed || std::memcmp(file.data(), kMagic.data(), kMagic.size()) != 0)
    return Status::Error("not a .npy file (no \\x93NUMPY magic)");
  const uint8_t major = file[kMagic.size()];
  if (major < 1 || major > 3) {
    return Status::Error("unknown .npy format version " + std::to_string(major) + "." +
                         std::to_string(file[kMagic.size() + 1]));
  }
  const size_t length_bytes = major == 1 ? 2 : 4;
  if (file.size() < fixed + length_bytes) return Status::Error("the .npy file is truncated");
  uint64_t header_bytes = 0;
  for (size_t i = 0; i < length_bytes; ++i)
    header_bytes |= static_cast<uint64_t>(file[fixed + i]) << (8 * i);
  const size_t header_start = fixed + length_bytes;
  if (header_bytes > kMaxHeaderBytes) {
    return Status::Error("the .npy header claims " + std::to_string(header_bytes) +
                         " bytes (at most 65536)");
  }
  if (file.size() - header_start < header_bytes) return Status::Error("the .npy file is truncated");
  const std::string_view header(reinterpret_cast<const char*>(file.data() + header_start),
                                header_bytes);
  NpyArray array;
  TFA_RETURN_IF_ERROR(HeaderParser(header).Parse(array));
  auto type = TypeOfDescr(array.descr);
  if (!type.ok()) return type.status();
  array.type = *type;
  uint64_t bytes = ElementSize(array.type).value_or(0);
  for (int64_t dim : array.shape) {
    const auto product = CheckedMul(bytes, static_cast<uint64_t>(dim));
    if (!product) return Status::Error("the .npy shape's byte size overflows");
    bytes = *product;
  }
  const size_t data_start = header_start + header_bytes;
  const uint64_t available = file.size() - data_start;
  if (available < bytes) {
    return Status::Error("the .npy file is truncated: its shape needs " + std::to_string(bytes) +
                         " data bytes, it has " + std::to_string(available));
  }
  if (available > bytes) {
    return Status::Error("the .npy file has " + std::to_string(available - bytes) +
                         " bytes after its data");
  }
  array.data = file.subspan(data_start, bytes);
  return array;
}

Result<std::vector<uint8_t>> EncodeNpy(TensorType type, const std::vector<int32_t>& shape,
                                       std::span<const uint8_t> data) {
  const std::string descr = NpyDescr(type);
  if (descr.empty()) return Status::Error(std::string(TensorTypeName(type)) + " has no .npy dtype");
  std::string dims;
  for (int32_t d : shape) dims += std::to_string(d) + ", ";
  if (shape.size() > 1) dims.resize(dims.size() - 2);  // (3,) for one dimension, (2, 3) else
  if (shape.size() == 1) dims.resize(dims.size() - 1);
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // The header, its length field, the magic and version end on a 64-byte boundary, '\n' last.
  const size_t prefix = kMagic.size() + 2 + 2;
  const size_t padded = (prefix + header.size() + 1 + 63) / 64 * 64;
  header.append(padded - prefix - header.size() - 1, ' ');
  header.push_back('\n');
  std::vector<uint8_t> out(kMagic.begin(), kMagic.end());
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<uint8_t>(header.size() & 0xff));
  out.push_back(static_cast<uint8_t>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

}  // namespace tfa::runtime
