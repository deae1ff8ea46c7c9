#include "libanalysis/model/graph_json.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "libanalysis/core/json_nesting.h"
#include "libanalysis/model/builtin_ops.h"
#include "libanalysis/model/graph_validation.h"

namespace tfa {
namespace {

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

Status Fail(const std::string& path, const std::string& reason) {
  return Status::Error(path + ": " + reason);
}

Status RangeError(const std::string& path, int64_t v, int64_t min, int64_t max) {
  return Fail(path, "value " + std::to_string(v) + " out of range [" + std::to_string(min) + ", " +
                        std::to_string(max) + "]");
}

Result<int64_t> Int(const Value& v, const std::string& path, int64_t min, int64_t max) {
  if (!v.is_integer()) return Fail(path, "expected an integer");
  int64_t i = v.integer;
  if (v.kind == Value::Kind::kUnsigned) {
    if (v.unsigned_integer > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Fail(path, "integer out of range");
    }
    i = static_cast<int64_t>(v.unsigned_integer);
  }
  if (i < min || i > max) return RangeError(path, i, min, max);
  return i;
}

// The list under `key` of the object at `path`, each element in [min, max] (min >= -1 and
// max <= INT32_MAX, so an element that did not fit in int32 is out of range too).
Result<std::vector<int32_t>> IntList(IntListValue& list, const char* key, const std::string& path,
                                     int64_t min, int64_t max, bool required) {
  if (list.kind == Value::Kind::kAbsent) {
    if (required) return Fail(path, std::string("missing \"") + key + "\"");
    return std::vector<int32_t>{};
  }
  const std::string list_path = path + "." + key;
  if (list.kind != Value::Kind::kArray) return Fail(list_path, "expected an array");
  for (size_t i = 0; i < list.values.size(); ++i) {
    if (list.values[i] < min || list.values[i] > max) {
      return RangeError(list_path + "[" + std::to_string(i) + "]", list.values[i], min, max);
    }
  }
  if (list.first_unfit) {
    auto v = Int(*list.first_unfit, list_path + "[" + std::to_string(list.values.size()) + "]", min,
                 max);
    return v.status();
  }
  return std::move(list.values);
}

// The members of one tensor object, kept until its end because checks run in a fixed order
// whatever the key order (a repeated key keeps its last value, as a JSON object does).
struct TensorMembers {
  Value name, bytes, alloc, type, variable;
  IntListValue shape, shape_signature;
};

// Fills `t` (a default Tensor) from the members; built in place, as a Tensor is not small.
Status ReadTensor(TensorMembers& m, const std::string& path, Tensor& t) {
  if (m.name.present()) {
    if (m.name.kind != Value::Kind::kString) return Fail(path + ".name", "expected a string");
    t.name = std::move(m.name.text);
  }
  if (!m.bytes.present()) return Fail(path, "missing \"bytes\"");
  if (m.bytes.kind != Value::Kind::kNull) {
    auto bytes = Int(m.bytes, path + ".bytes", 0, std::numeric_limits<int64_t>::max());
    if (!bytes.ok()) return bytes.status();
    t.bytes = static_cast<uint64_t>(*bytes);
  }
  if (m.alloc.present()) {
    if (m.alloc.kind != Value::Kind::kString) return Fail(path + ".alloc", "expected a string");
    auto alloc = AllocationTypeFromName(m.alloc.text);
    if (!alloc) return Fail(path + ".alloc", "unknown allocation \"" + m.alloc.text + "\"");
    t.allocation = *alloc;
  }
  if (m.type.present()) {
    if (m.type.kind != Value::Kind::kString) return Fail(path + ".type", "expected a string");
    auto type = TensorTypeFromName(m.type.text);
    if (!type) return Fail(path + ".type", "unknown type \"" + m.type.text + "\"");
    t.type = *type;
  }
  auto shape = IntList(m.shape, "shape", path, -1, std::numeric_limits<int32_t>::max(), false);
  if (!shape.ok()) return shape.status();
  t.shape = std::move(*shape);
  auto sig = IntList(m.shape_signature, "shape_signature", path, -1,
                     std::numeric_limits<int32_t>::max(), false);
  if (!sig.ok()) return sig.status();
  t.shape_signature = std::move(*sig);
  if (m.variable.kind == Value::Kind::kBool) t.is_variable = m.variable.boolean;
  return Status::Ok();
}

struct NodeMembers {
  Value op, inplace, version, side_effect;
  IntListValue inputs, outputs, temporaries, intermediates;
};

// Fills `n` (a default Node) from the members; built in place, as a Node is not small.
Status ReadNode(NodeMembers& m, const std::string& path, int64_t tensors, Node& n) {
  if (m.op.kind != Value::Kind::kString) return Fail(path, "missing string \"op\"");
  n.op = std::move(m.op.text);
  auto code = BuiltinCodeFromName(n.op);
  n.builtin_code = code.value_or(kBuiltinCustom);
  n.kind = code ? NodeKind::kBuiltin : NodeKind::kCustom;
  auto inputs = IntList(m.inputs, "inputs", path, -1, tensors - 1, true);
  if (!inputs.ok()) return inputs.status();
  n.inputs = std::move(*inputs);
  auto outputs = IntList(m.outputs, "outputs", path, 0, tensors - 1, true);
  if (!outputs.ok()) return outputs.status();
  n.outputs = std::move(*outputs);
  auto temps = IntList(m.temporaries, "temporaries", path, 0, tensors - 1, false);
  if (!temps.ok()) return temps.status();
  n.temporaries = std::move(*temps);
  auto inter = IntList(m.intermediates, "intermediates", path, 0, tensors - 1, false);
  if (!inter.ok()) return inter.status();
  n.intermediates = std::move(*inter);
  if (m.inplace.present()) {
    auto v = Int(m.inplace, path + ".inplace", 0, 0xFFFF);
    if (!v.ok()) return v.status();
    n.inplace = static_cast<uint32_t>(*v);
  }
  if (m.version.present()) {
    auto v = Int(m.version, path + ".version", 1, 1000);
    if (!v.ok()) return v.status();
    n.version = static_cast<int32_t>(*v);
  }
  if (m.side_effect.present()) {
    if (m.side_effect.kind != Value::Kind::kBool) {
      return Fail(path + ".side_effect", "expected a boolean");
    }
    n.side_effect = m.side_effect.boolean;
  }
  return Status::Ok();
}

// The lists grew by doubling as the elements streamed in; a model that keeps up to twice its
// size for its lifetime costs more than the one move that gives back a slack above an eighth.
template <typename T>
void ReleaseSlack(std::vector<T>& v) {
  if (v.capacity() - v.size() > v.size() / 8) v.shrink_to_fit();
}

// Members this reader looks at; every other key is skipped with its value.
enum class Member : uint8_t {
  kOther,
  kFormat,
  kTensors,
  kNodes,
  kInputs,
  kOutputs,
  kVariables,
  kName,
  kBytes,
  kAlloc,
  kType,
  kShape,
  kShapeSignature,
  kVariable,
  kOp,
  kInplace,
  kVersion,
  kSideEffect,
  kTemporaries,
  kIntermediates,
};

Member TopMember(const std::string& key) {
  if (key == "format") return Member::kFormat;
  if (key == "tensors") return Member::kTensors;
  if (key == "nodes") return Member::kNodes;
  if (key == "inputs") return Member::kInputs;
  if (key == "outputs") return Member::kOutputs;
  if (key == "variables") return Member::kVariables;
  return Member::kOther;
}

Member TensorMember(const std::string& key) {
  if (key == "name") return Member::kName;
  if (key == "bytes") return Member::kBytes;
  if (key == "alloc") return Member::kAlloc;
  if (key == "type") return Member::kType;
  if (key == "shape") return Member::kShape;
  if (key == "shape_signature") return Member::kShapeSignature;
  if (key == "variable") return Member::kVariable;
  return Member::kOther;
}

Member NodeMember(const std::string& key) {
  if (key == "op") return Member::kOp;
  if (key == "inputs") return Member::kInputs;
  if (key == "outputs") return Member::kOutputs;
  if (key == "temporaries") return Member::kTemporaries;
  if (key == "intermediates") return Member::kIntermediates;
  if (key == "inplace") return Member::kInplace;
  if (key == "version") return Member::kVersion;
  if (key == "side_effect") return Member::kSideEffect;
  return Member::kOther;
}

// Counts the elements of the document's (last) top-level "tensors" array: node indices are
// checked against it, and a file may list its nodes before its tensors.
class TensorCounter {
 public:
  size_t count() const { return count_; }

  bool null() { return Scalar(); }
  bool boolean(bool) { return Scalar(); }
  bool number_integer(int64_t) { return Scalar(); }
  bool number_unsigned(uint64_t) { return Scalar(); }
  bool number_float(double, const std::string&) { return Scalar(); }
  bool string(std::string&) { return Scalar(); }
  bool binary(json::binary_t&) { return Scalar(); }
  bool start_object(size_t) { return Open(false); }
  bool start_array(size_t) { return Open(true); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(std::string& key) {
    if (depth_ == 1) tensors_key_ = key == "tensors";
    return true;
  }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

 private:
  bool Scalar() {
    if (depth_ == 1 && tensors_key_) count_ = 0;
    if (in_tensors_ && depth_ == 2) ++count_;
    return true;
  }
  bool Open(bool is_array) {
    if (depth_ == 1 && tensors_key_) {
      count_ = 0;
      in_tensors_ = is_array;
    } else if (in_tensors_ && depth_ == 2) {
      ++count_;
    }
    ++depth_;
    return true;
  }
  bool Close() {
    --depth_;
    if (depth_ == 1) in_tensors_ = false;
    return true;
  }

  int depth_ = 0;
  bool tensors_key_ = false;
  bool in_tensors_ = false;
  size_t count_ = 0;
};

// Builds the subgraph as the SAX events arrive, never holding the document. Errors are kept,
// not returned at once, so that the one reported is the one a whole-document check would name
// first: syntax, then the document's shape, the format, each tensor in order, each node, then
// the graph's lists.
class GraphJsonReader {
 public:
  GraphJsonReader(size_t text_size, std::optional<size_t> tensor_count)
      : text_size_(text_size), tensor_count_(tensor_count) {}

  // Set when the nodes came before the tensors: read again, with the tensors counted first.
  bool needs_tensor_count() const { return needs_tensor_count_; }

  Result<Model> Finish(const std::string& source_name) {
    auto fail = [&](const Status& s) { return s.WithContext(source_name); };
    if (!syntax_error_.empty()) {
      return Status::Error(source_name + ": not valid JSON: " + syntax_error_);
    }
    if (!is_object_) return fail(Fail("document", "expected a JSON object"));
    if (format_.kind != Value::Kind::kString || format_.text != kGraphJsonFormat) {
      return fail(Fail("format", "expected \"" + std::string(kGraphJsonFormat) + "\""));
    }
    if (tensors_kind_ != Value::Kind::kArray) return fail(Fail("tensors", "missing array"));
    if (nodes_kind_ != Value::Kind::kArray) return fail(Fail("nodes", "missing array"));
    if (!tensor_error_.ok()) return fail(tensor_error_);
    if (!node_error_.ok()) return fail(node_error_);
    Subgraph& sg = model_.subgraphs.emplace_back();
    ReleaseSlack(tensors_);
    ReleaseSlack(nodes_);
    sg.tensors = std::move(tensors_);
    sg.nodes = std::move(nodes_);
    const int64_t n_tensors = static_cast<int64_t>(sg.tensors.size());
    auto inputs = IntList(inputs_, "inputs", "graph", 0, n_tensors - 1, false);
    if (!inputs.ok()) return fail(inputs.status());
    sg.inputs = std::move(*inputs);
    auto outputs = IntList(outputs_, "outputs", "graph", 0, n_tensors - 1, false);
    if (!outputs.ok()) return fail(outputs.status());
    sg.outputs = std::move(*outputs);
    auto variables = IntList(variables_, "variables", "graph", 0, n_tensors - 1, false);
    if (!variables.ok()) return fail(variables.status());
    sg.variables = std::move(*variables);
    for (int32_t v : sg.variables) sg.tensors[static_cast<size_t>(v)].is_variable = true;
    for (const Tensor& t : sg.tensors) {
      if (t.is_constant()) model_.constant_bytes += t.bytes_or_zero();
    }
    sg.execution_plan = IdentityExecutionPlan(sg);
    if (Status s = ValidateSubgraph(sg, 0); !s.ok()) return fail(s);
    model_.path = source_name;
    model_.format = "graph-json";
    return std::move(model_);
  }

  bool null() { return Scalar(Value{Value::Kind::kNull}); }
  bool boolean(bool b) {
    Value v{Value::Kind::kBool};
    v.boolean = b;
    return Scalar(std::move(v));
  }
  bool number_integer(int64_t i) {
    Value v{Value::Kind::kInt};
    v.integer = i;
    return Scalar(std::move(v));
  }
  bool number_unsigned(uint64_t u) {
    Value v{Value::Kind::kUnsigned};
    v.unsigned_integer = u;
    return Scalar(std::move(v));
  }
  bool number_float(double, const std::string&) { return Scalar(Value{Value::Kind::kFloat}); }
  bool string(std::string& s) {
    Value v{Value::Kind::kString};
    v.text = std::move(s);
    return Scalar(std::move(v));
  }
  bool binary(json::binary_t&) { return Scalar(Value{Value::Kind::kObject}); }
  bool start_object(size_t) { return Open(Value::Kind::kObject); }
  bool start_array(size_t) { return Open(Value::Kind::kArray); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(std::string& key) {
    switch (frames_.back()) {
      case Frame::kTop:
        member_ = TopMember(key);
        break;
      case Frame::kTensor:
        member_ = TensorMember(key);
        break;
      case Frame::kNode:
        member_ = NodeMember(key);
        break;
      default:
        break;
    }
    return true;
  }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception& e) {
    syntax_error_ = e.what();
    return false;
  }

 private:
  enum class Frame : uint8_t { kTop, kTensors, kTensor, kNodes, kNode, kList, kSkipped };

  // Where a scalar value of the current member of a top-level, tensor or node object goes.
  Value* ScalarSlot() {
    switch (frames_.back()) {
      case Frame::kTop:
        return member_ == Member::kFormat ? &format_ : nullptr;
      case Frame::kTensor:
        switch (member_) {
          case Member::kName:
            return &tensor_.name;
          case Member::kBytes:
            return &tensor_.bytes;
          case Member::kAlloc:
            return &tensor_.alloc;
          case Member::kType:
            return &tensor_.type;
          case Member::kVariable:
            return &tensor_.variable;
          default:
            return nullptr;
        }
      case Frame::kNode:
        switch (member_) {
          case Member::kOp:
            return &node_.op;
          case Member::kInplace:
            return &node_.inplace;
          case Member::kVersion:
            return &node_.version;
          case Member::kSideEffect:
            return &node_.side_effect;
          default:
            return nullptr;
        }
      default:
        return nullptr;
    }
  }

  IntListValue* ListSlot() {
    switch (frames_.back()) {
      case Frame::kTop:
        if (member_ == Member::kInputs) return &inputs_;
        if (member_ == Member::kOutputs) return &outputs_;
        if (member_ == Member::kVariables) return &variables_;
        return nullptr;
      case Frame::kTensor:
        if (member_ == Member::kShape) return &tensor_.shape;
        if (member_ == Member::kShapeSignature) return &tensor_.shape_signature;
        return nullptr;
      case Frame::kNode:
        if (member_ == Member::kInputs) return &node_.inputs;
        if (member_ == Member::kOutputs) return &node_.outputs;
        if (member_ == Member::kTemporaries) return &node_.temporaries;
        if (member_ == Member::kIntermediates) return &node_.intermediates;
        return nullptr;
      default:
        return nullptr;
    }
  }

  // A value that is a member of the current object (or, in a list frame, an element).
  bool Scalar(Value&& v) {
    if (frames_.empty()) return true;  // a document that is not an object
    switch (frames_.back()) {
      case Frame::kSkipped:
        return true;
      case Frame::kList:
        list_->Add(std::move(v));
        return true;
      case Frame::kTensors:
        NotAnObject("tensors", tensor_count_seen_++, tensor_error_);
        return true;
      case Frame::kNodes:
        NotAnObject("nodes", node_count_seen_++, node_error_);
        return true;
      default:
        break;
    }
    if (frames_.back() == Frame::kTop) {
      if (member_ == Member::kTensors) StartTensors(v.kind);
      if (member_ == Member::kNodes) nodes_kind_ = v.kind;
    }
    const Value::Kind kind = v.kind;
    if (Value* slot = ScalarSlot()) *slot = std::move(v);
    if (IntListValue* list = ListSlot()) list->Reset(kind);
    return true;
  }

  bool Open(Value::Kind kind) {
    if (frames_.empty()) {
      is_object_ = kind == Value::Kind::kObject;
      frames_.push_back(is_object_ ? Frame::kTop : Frame::kSkipped);
      return true;
    }
    switch (frames_.back()) {
      case Frame::kSkipped:
        frames_.push_back(Frame::kSkipped);
        return true;
      case Frame::kList:
        list_->Add(Value{kind});
        frames_.push_back(Frame::kSkipped);
        return true;
      case Frame::kTensors:
        if (kind == Value::Kind::kObject) {
          tensor_ = TensorMembers{};
          frames_.push_back(Frame::kTensor);
        } else {
          NotAnObject("tensors", tensor_count_seen_++, tensor_error_);
          frames_.push_back(Frame::kSkipped);
        }
        return true;
      case Frame::kNodes:
        if (kind == Value::Kind::kObject) {
          node_ = NodeMembers{};
          frames_.push_back(Frame::kNode);
        } else {
          NotAnObject("nodes", node_count_seen_++, node_error_);
          frames_.push_back(Frame::kSkipped);
        }
        return true;
      default:
        break;
    }
    if (frames_.back() == Frame::kTop && kind == Value::Kind::kArray) {
      if (member_ == Member::kTensors) {
        if (nodes_started_ && !tensor_count_) return NeedTensorCount();
        StartTensors(kind);
        frames_.push_back(Frame::kTensors);
        return true;
      }
      if (member_ == Member::kNodes) {
        if (!tensor_count_ && !tensors_done_) return NeedTensorCount();
        nodes_kind_ = kind;
        nodes_started_ = true;
        nodes_.clear();
        // Most graphs have about as many nodes as tensors; bounded by what the text can hold
        // (a node is at least 30 bytes of JSON), so a hostile file cannot make it huge.
        nodes_.reserve(std::min(tensors_.size(), text_size_ / 30));
        node_error_ = Status::Ok();
        node_count_seen_ = 0;
        frames_.push_back(Frame::kNodes);
        return true;
      }
    }
    if (frames_.back() == Frame::kTop) {
      if (member_ == Member::kTensors) StartTensors(kind);
      if (member_ == Member::kNodes) nodes_kind_ = kind;
    }
    if (Value* slot = ScalarSlot()) *slot = Value{kind};
    if (IntListValue* list = ListSlot()) {
      list->Reset(kind);
      if (kind == Value::Kind::kArray) {
        list_ = list;
        frames_.push_back(Frame::kList);
        return true;
      }
    }
    frames_.push_back(Frame::kSkipped);
    return true;
  }

  bool Close() {
    const Frame closed = frames_.back();
    frames_.pop_back();
    switch (closed) {
      case Frame::kTensor:
        FinishTensor();
        break;
      case Frame::kNode:
        FinishNode();
        break;
      case Frame::kTensors:
        tensors_done_ = true;
        break;
      default:
        break;
    }
    return true;
  }

  bool NeedTensorCount() {
    needs_tensor_count_ = true;
    return false;
  }

  void StartTensors(Value::Kind kind) {
    tensors_kind_ = kind;
    tensors_.clear();
    tensor_error_ = Status::Ok();
    tensor_count_seen_ = 0;
  }

  static void NotAnObject(const char* what, size_t index, Status& first_error) {
    if (first_error.ok()) {
      first_error =
          Fail(std::string(what) + "[" + std::to_string(index) + "]", "expected an object");
    }
  }

  void FinishTensor() {
    const size_t index = tensor_count_seen_++;
    if (!tensor_error_.ok()) return;
    tensor_error_ =
        ReadTensor(tensor_, "tensors[" + std::to_string(index) + "]", tensors_.emplace_back());
    if (!tensor_error_.ok()) tensors_.pop_back();
  }

  void FinishNode() {
    const size_t index = node_count_seen_++;
    if (!node_error_.ok()) return;
    const int64_t tensors =
        static_cast<int64_t>(tensor_count_ ? *tensor_count_ : tensor_count_seen_);
    node_error_ =
        ReadNode(node_, "nodes[" + std::to_string(index) + "]", tensors, nodes_.emplace_back());
    if (!node_error_.ok()) nodes_.pop_back();
  }

  const size_t text_size_;
  const std::optional<size_t> tensor_count_;
  bool needs_tensor_count_ = false;
  std::string syntax_error_;
  bool is_object_ = false;
  std::vector<Frame> frames_;
  Member member_ = Member::kOther;
  IntListValue* list_ = nullptr;

  Value format_;
  Value::Kind tensors_kind_ = Value::Kind::kAbsent;
  Value::Kind nodes_kind_ = Value::Kind::kAbsent;
  bool tensors_done_ = false;
  bool nodes_started_ = false;
  size_t tensor_count_seen_ = 0;
  size_t node_count_seen_ = 0;
  TensorMembers tensor_;
  NodeMembers node_;
  Status tensor_error_ = Status::Ok();
  Status node_error_ = Status::Ok();
  std::vector<Tensor> tensors_;
  std::vector<Node> nodes_;
  IntListValue inputs_, outputs_, variables_;
  Model model_;
};

}  // namespace

Result<Model> ParseGraphJson(std::string_view text, const std::string& source_name) {
  if (Status depth = CheckJsonNesting(text, kMaxJsonDepth); !depth.ok())
    return depth.WithContext(source_name);
  GraphJsonReader reader(text.size(), std::nullopt);
  json::sax_parse(text.begin(), text.end(), &reader);
  if (!reader.needs_tensor_count()) return reader.Finish(source_name);
  TensorCounter counter;
  json::sax_parse(text.begin(), text.end(), &counter);
  GraphJsonReader second(text.size(), counter.count());
  json::sax_parse(text.begin(), text.end(), &second);
  return second.Finish(source_name);
}

std::string SubgraphToGraphJson(const Subgraph& sg, int indent) {
  json doc;
  doc["format"] = kGraphJsonFormat;
  json tensors = json::array();
  for (const Tensor& t : sg.tensors) {
    json jt;
    jt["name"] = t.name;
    jt["bytes"] = t.bytes ? json(*t.bytes) : json(nullptr);
    jt["alloc"] = AllocationTypeName(t.allocation);
    jt["type"] = TensorTypeName(t.type);
    jt["shape"] = t.shape;
    if (!t.shape_signature.empty()) jt["shape_signature"] = t.shape_signature;
    tensors.push_back(std::move(jt));
  }
  json nodes = json::array();
  for (const Node& n : sg.nodes) {
    json jn;
    jn["op"] = n.op;
    jn["version"] = n.version;
    jn["inputs"] = n.inputs;
    jn["outputs"] = n.outputs;
    jn["temporaries"] = n.temporaries;
    if (!n.intermediates.empty()) jn["intermediates"] = n.intermediates;
    jn["inplace"] = n.inplace;
    jn["side_effect"] = n.side_effect;
    nodes.push_back(std::move(jn));
  }
  doc["tensors"] = std::move(tensors);
  doc["nodes"] = std::move(nodes);
  doc["inputs"] = sg.inputs;
  doc["outputs"] = sg.outputs;
  doc["variables"] = sg.variables;
  return doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tfa
