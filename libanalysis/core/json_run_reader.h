// A fast reader of a run of JSON array elements (the text between two element starts of a list)
// that gives a SAX handler the events nlohmann::json::sax_parse gives for '[' run ']'.
//
// nlohmann's lexer reads about 160 MB/s: it counts lines and keeps every token's text for its
// error messages. The reader in parts of a large Graph JSON file (issue 18) needs neither, since
// any error sends the whole text to the reference reader, which names it. This reader reads plain
// strings, integers and literals itself and hands the rare forms to nlohmann (strings with
// escapes or non-ASCII bytes), so that what it accepts, it reads as nlohmann does. It declines
// (returns false) wherever nlohmann would fail, and also on integers that overflow 64 bits (which
// nlohmann reads as floats): a caller that gets false reads the text with nlohmann instead.
#ifndef LIBANALYSIS_CORE_JSON_RUN_READER_H_
#define LIBANALYSIS_CORE_JSON_RUN_READER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tfa {

// The string token `quoted` (quotes included) with escapes or non-ASCII bytes, unescaped by
// nlohmann into `out`; false where nlohmann refuses it.
bool ReadJsonStringWithNlohmann(std::string_view quoted, std::string& out);

// The number token `token` with a fraction or an exponent, as nlohmann reads it (a correctly
// rounded double); false when it is not finite (nlohmann refuses those).
bool ReadJsonFloat(std::string_view token, double& out);

// Reads `run` as the elements of a JSON array, giving `handler` (nlohmann's SAX interface) the
// events of '[' run ']'. False on a syntax error, a form it leaves to nlohmann, or when the
// handler returns false; the events given before that are to be discarded.
template <typename Handler>
bool ReadJsonRun(std::string_view run, Handler& handler);

namespace json_run_detail {

enum class Token : uint8_t {
  kBeginObject,
  kEndObject,
  kBeginArray,
  kEndArray,
  kColon,
  kComma,
  kString,
  kInteger,
  kUnsigned,
  kFloat,
  kTrue,
  kFalse,
  kNull,
  kEnd,
  kDeclined,
};

// What a byte inside a string means: most are plain; a quote ends it; a backslash, a control
// character or a non-ASCII byte sends the string to nlohmann.
inline constexpr std::array<uint8_t, 256> kStringBytes = [] {
  std::array<uint8_t, 256> kinds{};
  for (int c = 0; c < 0x20; ++c) kinds[c] = 2;
  for (int c = 0x80; c < 0x100; ++c) kinds[c] = 2;
  kinds['\\'] = 2;
  kinds['"'] = 1;
  return kinds;
}();

class Lexer {
 public:
  explicit Lexer(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  // The next token; its value is in text() (strings, floats), integer() or unsigned_integer().
  Token Next() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    if (p_ == end_) return Token::kEnd;
    switch (*p_) {
      case '{':
        ++p_;
        return Token::kBeginObject;
      case '}':
        ++p_;
        return Token::kEndObject;
      case '[':
        ++p_;
        return Token::kBeginArray;
      case ']':
        ++p_;
        return Token::kEndArray;
      case ':':
        ++p_;
        return Token::kColon;
      case ',':
        ++p_;
        return Token::kComma;
      case '"':
        return String();
      case 't':
        return Literal("true", Token::kTrue);
      case 'f':
        return Literal("false", Token::kFalse);
      case 'n':
        return Literal("null", Token::kNull);
      default:
        return Number();
    }
  }

  std::string& text() { return text_; }
  int64_t integer() const { return integer_; }
  uint64_t unsigned_integer() const { return unsigned_; }
  double number() const { return number_; }

 private:
  Token Literal(std::string_view word, Token token) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) {
      return Token::kDeclined;
    }
    p_ += word.size();
    return token;
  }

  Token String() {
    const char* begin = ++p_;
    while (p_ != end_) {
      const uint8_t kind = kStringBytes[static_cast<unsigned char>(*p_)];
      if (kind == 0) {
        ++p_;
        continue;
      }
      if (kind == 1) {
        text_.assign(begin, p_);
        ++p_;
        return Token::kString;
      }
      return EscapedString(begin - 1);
    }
    return Token::kDeclined;
  }

  // A string with escapes or non-ASCII bytes, from its opening quote: found to its closing quote
  // here, read by nlohmann.
  Token EscapedString(const char* quote) {
    while (p_ != end_ && *p_ != '"') {
      if (*p_ == '\\' && ++p_ == end_) break;  // a backslash skips the byte after it
      ++p_;
    }
    if (p_ == end_) return Token::kDeclined;
    ++p_;
    return ReadJsonStringWithNlohmann(std::string_view(quote, p_ - quote), text_)
               ? Token::kString
               : Token::kDeclined;
  }

  // JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  Token Number() {
    const char* begin = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_ || !IsDigit(*p_)) return Token::kDeclined;
    uint64_t magnitude = 0;
    bool overflow = false;
    if (*p_ == '0') {
      ++p_;
    } else {
      for (; p_ != end_ && IsDigit(*p_); ++p_) {
        const uint64_t digit = static_cast<uint64_t>(*p_ - '0');
        overflow |= magnitude > (UINT64_MAX - digit) / 10;
        magnitude = magnitude * 10 + digit;
      }
    }
    bool is_float = false;
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (!SkipDigits()) return Token::kDeclined;
      is_float = true;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!SkipDigits()) return Token::kDeclined;
      is_float = true;
    }
    if (is_float) {
      text_.assign(begin, p_);
      return ReadJsonFloat(text_, number_) ? Token::kFloat : Token::kDeclined;
    }
    if (overflow) return Token::kDeclined;
    if (!negative) {
      unsigned_ = magnitude;
      return Token::kUnsigned;
    }
    if (magnitude > static_cast<uint64_t>(INT64_MAX) + 1) return Token::kDeclined;
    integer_ = static_cast<int64_t>(0 - magnitude);
    return Token::kInteger;
  }

  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }
  bool SkipDigits() {
    const char* first = p_;
    while (p_ != end_ && IsDigit(*p_)) ++p_;
    return p_ != first;
  }

  const char* p_;
  const char* end_;
  std::string text_;
  int64_t integer_ = 0;
  uint64_t unsigned_ = 0;
  double number_ = 0;
};

}  // namespace json_run_detail

template <typename Handler>
bool ReadJsonRun(std::string_view run, Handler& handler) {
  using json_run_detail::Token;
  json_run_detail::Lexer lexer(run);
  // Open containers inside the run's own array: true for an object.
  std::vector<bool> objects;
  enum class Expect : uint8_t { kValue, kKey, kAfterValue };
  Expect expect = Expect::kValue;
  if (!handler.start_array(static_cast<size_t>(-1))) return false;
  Token token = lexer.Next();
  if (token == Token::kEnd) return handler.end_array();
  for (;;) {
    switch (expect) {
      case Expect::kValue:
        switch (token) {
          case Token::kBeginObject:
            if (!handler.start_object(static_cast<size_t>(-1))) return false;
            token = lexer.Next();
            if (token == Token::kEndObject) {
              if (!handler.end_object()) return false;
              token = lexer.Next();
              expect = Expect::kAfterValue;
            } else {
              objects.push_back(true);
              expect = Expect::kKey;
            }
            continue;
          case Token::kBeginArray:
            if (!handler.start_array(static_cast<size_t>(-1))) return false;
            token = lexer.Next();
            if (token == Token::kEndArray) {
              if (!handler.end_array()) return false;
              token = lexer.Next();
              expect = Expect::kAfterValue;
            } else {
              objects.push_back(false);
            }
            continue;
          case Token::kString:
            if (!handler.string(lexer.text())) return false;
            break;
          case Token::kUnsigned:
            if (!handler.number_unsigned(lexer.unsigned_integer())) return false;
            break;
          case Token::kInteger:
            if (!handler.number_integer(lexer.integer())) return false;
            break;
          case Token::kFloat:
            if (!handler.number_float(lexer.number(), lexer.text())) return false;
            break;
          case Token::kTrue:
          case Token::kFalse:
            if (!handler.boolean(token == Token::kTrue)) return false;
            break;
          case Token::kNull:
            if (!handler.null()) return false;
            break;
          default:
            return false;
        }
        expect = Expect::kAfterValue;
        token = lexer.Next();
        continue;
      case Expect::kKey:
        if (token != Token::kString || !handler.key(lexer.text())) return false;
        if (lexer.Next() != Token::kColon) return false;
        token = lexer.Next();
        expect = Expect::kValue;
        continue;
      case Expect::kAfterValue:
        if (objects.empty()) {
          if (token == Token::kEnd) return handler.end_array();
          if (token != Token::kComma) return false;
          token = lexer.Next();
          expect = Expect::kValue;
          continue;
        }
        if (token == Token::kComma) {
          token = lexer.Next();
          expect = objects.back() ? Expect::kKey : Expect::kValue;
          continue;
        }
        if (token != (objects.back() ? Token::kEndObject : Token::kEndArray)) return false;
        if (!(objects.back() ? handler.end_object() : handler.end_array())) return false;
        objects.pop_back();
        token = lexer.Next();
        continue;
    }
  }
}

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_JSON_RUN_READER_H_
