// How the Graph JSON reader sees values: scalars and int lists as they stream in as SAX events,
// the small members it takes whole as documents, and the checked reads of both that name the
// value's path in their errors. Internal to libanalysis/model.
#ifndef LIBANALYSIS_MODEL_GRAPH_JSON_VALUES_H_
#define LIBANALYSIS_MODEL_GRAPH_JSON_VALUES_H_

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libanalysis/core/status.h"

namespace tfa::graph_json {

using json = nlohmann::json;

// Graph JSON is a handful of levels deep; anything beyond this is not a graph.
constexpr int kMaxJsonDepth = 64;

// A JSON value as the checks need it: its kind and, for scalars, the value.
struct Value {
  enum class Kind : uint8_t {
    kAbsent,
    kNull,
    kBool,
    kInt,
    kUnsigned,
    kFloat,
    kString,
    kArray,
    kObject
  };
  Value() = default;
  explicit Value(Kind k) : kind(k) {}

  Kind kind = Kind::kAbsent;
  bool boolean = false;
  int64_t integer = 0;
  uint64_t unsigned_integer = 0;
  double number = 0;
  std::string text;

  bool present() const { return kind != Kind::kAbsent; }
  bool is_integer() const { return kind == Kind::kInt || kind == Kind::kUnsigned; }
};

// An integer list as it streams in: the elements that fit in int32, up to the first that does
// not (not an integer, or out of int32's range), which is kept aside. Range checks wait for the
// end, when the tensor count is known.
struct IntListValue {
  Value::Kind kind = Value::Kind::kAbsent;
  std::vector<int32_t> values;
  std::optional<Value> first_unfit;

  void Reset(Value::Kind new_kind) {
    kind = new_kind;
    values.clear();
    first_unfit.reset();
  }
  void Add(Value&& element) {
    if (first_unfit) return;
    if (element.kind == Value::Kind::kInt &&
        element.integer >= std::numeric_limits<int32_t>::min() &&
        element.integer <= std::numeric_limits<int32_t>::max()) {
      values.push_back(static_cast<int32_t>(element.integer));
    } else if (element.kind == Value::Kind::kUnsigned &&
               element.unsigned_integer <= std::numeric_limits<int32_t>::max()) {
      values.push_back(static_cast<int32_t>(element.unsigned_integer));
    } else {
      first_unfit = std::move(element);
    }
  }
};

Status Fail(const std::string& path, const std::string& reason);

// The value at `path` + `member` as an integer in [min, max] (graph_json_values.cc).
Result<int64_t> Int(const Value& v, const std::string& path, std::string_view member, int64_t min,
                    int64_t max);

// The list under `key` of the object at `path`, each element in [min, max]: a view of `list`'s
// values, which the caller copies (graph_json_values.cc).
Result<std::span<const int32_t>> IntList(const IntListValue& list, const char* key,
                                         const std::string& path, int64_t min, int64_t max,
                                         bool required);

// A member this reader takes whole (node options, quantization, int_values, signatures): small,
// so built as a document from the SAX events. nullopt when absent.
using CollectedValue = std::optional<json>;

json ToJson(Value&& v);

// Builds one collected member from the SAX events inside it.
class JsonCollector {
 public:
  void Start(json& target, Value::Kind kind) {
    target = Container(kind);
    stack_.assign(1, &target);
  }
  void Key(std::string& key) { key_ = std::move(key); }
  void Add(Value&& value) { Insert(ToJson(std::move(value))); }
  void Open(Value::Kind kind) { stack_.push_back(&Insert(Container(kind))); }
  void Close() { stack_.pop_back(); }

 private:
  static json Container(Value::Kind kind) {
    return kind == Value::Kind::kArray ? json::array() : json::object();
  }
  // Only the innermost open container grows, so the pointers on the stack stay valid.
  json& Insert(json&& value) {
    json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(value));
      return top.back();
    }
    json& slot = top[key_];
    slot = std::move(value);
    return slot;
  }

  std::vector<json*> stack_;
  std::string key_;
};

Result<int64_t> JsonInt(const json& v, const std::string& path, int64_t min, int64_t max);

Status JsonFloat(const json& v, const std::string& path, float& out);

Status JsonBool(const json& v, const std::string& path, bool& out);

Status JsonString(const json& v, const std::string& path, std::string& out);

}  // namespace tfa::graph_json

#endif  // LIBANALYSIS_MODEL_GRAPH_JSON_VALUES_H_
