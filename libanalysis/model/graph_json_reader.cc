#include "libanalysis/model/graph_json_reader.h"

#include <algorithm>
#include <limits>
#include <unordered_set>
#include <utility>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/core/json_nesting.h"
#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/graph_validation.h"

namespace tfa::graph_json {

GraphJsonReader::GraphJsonReader(size_t text_size, size_t object_count,
                                 std::optional<std::vector<size_t>> tensor_counts)
    : text_size_(text_size), object_count_(object_count), tensor_counts_(std::move(tensor_counts)) {
  AddSubgraph("");
}

GraphJsonReader::GraphJsonReader(const ListPart& part)
    : text_size_(0), object_count_(0), tensor_counts_(std::nullopt), part_(&part) {
  AddSubgraph(part.path);
}

bool GraphJsonReader::ReadPartWhole() const {
  const SubgraphMembers& s = subgraphs_[0];
  const size_t size = part_->tensors.empty() ? part_->nodes.size() : part_->tensors.size();
  const size_t seen = part_->tensors.empty() ? s.node_count_seen : s.tensor_count_seen;
  return syntax_error_.empty() && s.tensor_error.ok() && s.node_error.ok() &&
         seen == part_->first + size;
}

Result<Model> GraphJsonReader::Finish(const std::string& source_name) {
  auto fail = [&](const Status& s) { return s.WithContext(source_name); };
  if (!syntax_error_.empty()) {
    return Status::Error(source_name + ": not valid JSON: " + syntax_error_);
  }
  if (!is_object_) return fail(Fail("document", "expected a JSON object"));
  if (format_.kind != Value::Kind::kString || format_.text != kGraphJsonFormat) {
    return fail(Fail("format", "expected \"" + std::string(kGraphJsonFormat) + "\""));
  }
  for (size_t k = 0; k < subgraphs_.size(); ++k) {
    if (k == 1 && !subgraphs_error_.ok()) break;
    if (Status s = FinishSubgraph(subgraphs_[k], k); !s.ok()) return fail(s);
  }
  if (!subgraphs_error_.ok()) return fail(subgraphs_error_);
  if (Status s = FinishModel(); !s.ok()) return fail(s);
  model_.path = source_name;
  model_.format = "graph-json";
  return std::move(model_);
}

bool GraphJsonReader::InSubgraphObject() const {
  return frames_.back() == Frame::kTop || frames_.back() == Frame::kSubgraph;
}

void GraphJsonReader::AddSubgraph(std::string path) {
  const size_t index = subgraphs_.size();
  SubgraphMembers& s = subgraphs_.emplace_back();
  s.path = std::move(path);
  if (tensor_counts_) {
    s.tensor_count = index < tensor_counts_->size() ? (*tensor_counts_)[index] : 0;
  }
}

Status GraphJsonReader::FinishSubgraph(SubgraphMembers& m, size_t index) {
  const std::string lists_path =
      m.path.empty() ? std::string("graph") : m.path.substr(0, m.path.size() - 1);
  if (m.tensors_kind != Value::Kind::kArray) return Fail(m.path + "tensors", "missing array");
  if (m.nodes_kind != Value::Kind::kArray) return Fail(m.path + "nodes", "missing array");
  TFA_RETURN_IF_ERROR(m.tensor_error);
  TFA_RETURN_IF_ERROR(m.node_error);
  Subgraph& sg = model_.subgraphs.emplace_back();
  if (m.name.present()) {
    if (m.name.kind != Value::Kind::kString) return Fail(m.path + "name", "expected a string");
    sg.name = std::move(m.name.text);
  }
  sg.tensors = std::move(m.tensors);
  sg.nodes = std::move(m.nodes);
  const int64_t n_tensors = static_cast<int64_t>(sg.tensors.size());
  auto inputs = IntList(m.inputs, "inputs", lists_path, 0, n_tensors - 1, false);
  if (!inputs.ok()) return inputs.status();
  sg.inputs.assign(inputs->begin(), inputs->end());
  auto outputs = IntList(m.outputs, "outputs", lists_path, 0, n_tensors - 1, false);
  if (!outputs.ok()) return outputs.status();
  sg.outputs.assign(outputs->begin(), outputs->end());
  auto variables = IntList(m.variables, "variables", lists_path, 0, n_tensors - 1, false);
  if (!variables.ok()) return variables.status();
  sg.variables.assign(variables->begin(), variables->end());
  for (int32_t v : sg.variables) sg.tensors[static_cast<size_t>(v)].is_variable = true;
  sg.execution_plan = IdentityExecutionPlan(sg);
  return ValidateSubgraph(sg, static_cast<int>(index));
}

Status GraphJsonReader::FinishModel() {
  if (kernel_prepare_.present()) {
    if (kernel_prepare_.kind != Value::Kind::kBool) {
      return Fail("kernel_prepare", "expected a boolean");
    }
    model_.kernel_prepare = kernel_prepare_.boolean;
  }
  // The Prepare replay adds the kernels' temporaries; stated ones would count twice.
  for (size_t k = 0; model_.kernel_prepare && k < model_.subgraphs.size(); ++k) {
    const SharedList<Node>& nodes = model_.subgraphs[k].nodes;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].temporaries.empty()) continue;
      return Fail(subgraphs_[k].path + "nodes[" + std::to_string(i) + "].temporaries",
                  "a kernel_prepare model leaves temporaries to the kernels' Prepare");
    }
  }
  if (schema_version_.present()) {
    auto v = Int(schema_version_, "schema_version", "", 0, std::numeric_limits<uint32_t>::max());
    if (!v.ok()) return v.status();
    model_.schema_version = static_cast<uint32_t>(*v);
  }
  if (description_.present()) {
    if (description_.kind != Value::Kind::kString) {
      return Fail("description", "expected a string");
    }
    model_.description = std::move(description_.text);
  }
  if (metadata_names_)
    TFA_RETURN_IF_ERROR(ReadMetadataNames(*metadata_names_, model_.metadata_names));
  if (signatures_) TFA_RETURN_IF_ERROR(ReadSignatures(*signatures_, model_));
  TFA_RETURN_IF_ERROR(ValidateSubgraphCalls(model_));
  // Tensors that name one weight buffer (several signatures sharing weights) count it once, as
  // the .tflite loader does; planner-level constants without a buffer count their bytes.
  std::unordered_set<int32_t> counted_buffers;
  for (const Subgraph& sg : model_.subgraphs) {
    for (const Tensor& t : sg.tensors) {
      model_.has_sparse_tensors |= t.is_sparse;
      uint64_t bytes = 0;
      if (t.constant_bytes > 0) {
        if (t.buffer == 0 || counted_buffers.insert(t.buffer).second) bytes = t.constant_bytes;
      } else if (t.is_constant()) {
        bytes = t.bytes_or_zero();
      }
      auto sum = CheckedAdd(model_.constant_bytes, bytes);
      if (!sum) return Fail("tensors", "constant bytes overflow 64 bits");
      model_.constant_bytes = *sum;
    }
  }
  return Status::Ok();
}

Value* GraphJsonReader::ScalarSlot() {
  switch (frames_.back()) {
    case Frame::kTop:
    case Frame::kSubgraph: {
      const bool top = frames_.back() == Frame::kTop;
      switch (member_) {
        case Member::kName:
          return &Current().name;
        case Member::kFormat:
          return top ? &format_ : nullptr;
        case Member::kKernelPrepare:
          return top ? &kernel_prepare_ : nullptr;
        case Member::kSchemaVersion:
          return top ? &schema_version_ : nullptr;
        case Member::kDescription:
          return top ? &description_ : nullptr;
        default:
          return nullptr;
      }
    }
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
        case Member::kBuffer:
          return &tensor_.buffer;
        case Member::kConstantBytes:
          return &tensor_.constant_bytes;
        case Member::kSparse:
          return &tensor_.sparse;
        case Member::kSparseLedgerBytes:
          return &tensor_.sparse_ledger_bytes;
        default:
          return nullptr;
      }
    case Frame::kNode:
      switch (member_) {
        case Member::kOp:
          return &node_.op;
        case Member::kBuiltinCode:
          return &node_.builtin_code;
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

IntListValue* GraphJsonReader::ListSlot() {
  switch (frames_.back()) {
    case Frame::kTop:
    case Frame::kSubgraph:
      if (member_ == Member::kInputs) return &Current().inputs;
      if (member_ == Member::kOutputs) return &Current().outputs;
      if (member_ == Member::kVariables) return &Current().variables;
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

CollectedValue* GraphJsonReader::CollectSlot() {
  switch (frames_.back()) {
    case Frame::kTop:
      if (member_ == Member::kMetadataNames) return &metadata_names_;
      if (member_ == Member::kSignatures) return &signatures_;
      return nullptr;
    case Frame::kTensor:
      if (member_ == Member::kQuantization) return &tensor_.quantization;
      if (member_ == Member::kIntValues) return &tensor_.int_values;
      return nullptr;
    case Frame::kNode:
      return member_ == Member::kOptions ? &node_.options : nullptr;
    default:
      return nullptr;
  }
}

bool GraphJsonReader::Scalar(Value&& v) {
  if (frames_.empty()) return true;  // a document that is not an object
  switch (frames_.back()) {
    case Frame::kSkipped:
      return true;
    case Frame::kList:
      list_->Add(std::move(v));
      return true;
    case Frame::kCollect:
      collector_.Add(std::move(v));
      return true;
    case Frame::kSubgraphs:
      NotAnObject("subgraphs", subgraph_count_seen_++, subgraphs_error_);
      return true;
    case Frame::kTensors:
      NotAnObject(Current().path + "tensors", Current().tensor_count_seen++,
                  Current().tensor_error);
      return true;
    case Frame::kNodes:
      NotAnObject(Current().path + "nodes", Current().node_count_seen++, Current().node_error);
      return true;
    default:
      break;
  }
  if (InSubgraphObject()) {
    if (member_ == Member::kTensors) StartTensors(v.kind);
    if (member_ == Member::kNodes) Current().nodes_kind = v.kind;
    if (member_ == Member::kSubgraphs && frames_.back() == Frame::kTop) NotAnArray();
  }
  const Value::Kind kind = v.kind;
  if (IntListValue* list = ListSlot()) list->Reset(kind);
  if (CollectedValue* slot = CollectSlot()) *slot = ToJson(std::move(v));
  if (Value* slot = ScalarSlot()) *slot = std::move(v);
  return true;
}

bool GraphJsonReader::Open(Value::Kind kind) {
  objects_opened_ += kind == Value::Kind::kObject;
  if (frames_.empty() && part_) {
    SubgraphMembers& s = Current();
    const bool nodes = part_->tensors.empty();
    s.tensor_count = part_->tensor_count;
    (nodes ? s.nodes_kind : s.tensors_kind) = kind;
    (nodes ? s.node_count_seen : s.tensor_count_seen) = part_->first;
    frames_.push_back(kind != Value::Kind::kArray ? Frame::kSkipped
                      : nodes                     ? Frame::kNodes
                                                  : Frame::kTensors);
    return true;
  }
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
    case Frame::kCollect:
      collector_.Open(kind);
      frames_.push_back(Frame::kCollect);
      return true;
    case Frame::kSubgraphs:
      if (kind == Value::Kind::kObject) {
        AddSubgraph("subgraphs[" + std::to_string(subgraph_count_seen_++) + "].");
        current_ = subgraphs_.size() - 1;
        frames_.push_back(Frame::kSubgraph);
      } else {
        NotAnObject("subgraphs", subgraph_count_seen_++, subgraphs_error_);
        frames_.push_back(Frame::kSkipped);
      }
      return true;
    case Frame::kTensors:
      if (kind == Value::Kind::kObject) {
        tensor_.Clear();
        frames_.push_back(Frame::kTensor);
      } else {
        NotAnObject(Current().path + "tensors", Current().tensor_count_seen++,
                    Current().tensor_error);
        frames_.push_back(Frame::kSkipped);
      }
      return true;
    case Frame::kNodes:
      if (kind == Value::Kind::kObject) {
        node_.Clear();
        frames_.push_back(Frame::kNode);
      } else {
        NotAnObject(Current().path + "nodes", Current().node_count_seen++, Current().node_error);
        frames_.push_back(Frame::kSkipped);
      }
      return true;
    default:
      break;
  }
  if (InSubgraphObject() && kind == Value::Kind::kArray) {
    SubgraphMembers& s = Current();
    if (member_ == Member::kTensors) {
      if (s.nodes_started && !s.tensor_count) return NeedTensorCount();
      StartTensors(kind);
      s.tensors.reserve(ListCapacity(kMinTensorJsonBytes));
      frames_.push_back(Frame::kTensors);
      return true;
    }
    if (member_ == Member::kNodes) {
      if (!s.tensor_count && !s.tensors_done) return NeedTensorCount();
      s.nodes_kind = kind;
      s.nodes_started = true;
      s.nodes.clear();
      s.nodes.reserve(ListCapacity(kMinNodeJsonBytes));
      s.node_error = Status::Ok();
      s.node_count_seen = 0;
      frames_.push_back(Frame::kNodes);
      return true;
    }
    if (member_ == Member::kSubgraphs && frames_.back() == Frame::kTop) {
      // A repeated key keeps its last value.
      subgraphs_.resize(1);
      subgraphs_error_ = Status::Ok();
      subgraph_count_seen_ = 0;
      frames_.push_back(Frame::kSubgraphs);
      return true;
    }
  }
  if (InSubgraphObject()) {
    if (member_ == Member::kTensors) StartTensors(kind);
    if (member_ == Member::kNodes) Current().nodes_kind = kind;
    if (member_ == Member::kSubgraphs && frames_.back() == Frame::kTop) NotAnArray();
  }
  if (Value* slot = ScalarSlot()) *slot = Value{kind};
  if (CollectedValue* slot = CollectSlot()) {
    collector_.Start(slot->emplace(), kind);
    frames_.push_back(Frame::kCollect);
    return true;
  }
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

bool GraphJsonReader::Close() {
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
      Current().tensors_done = true;
      break;
    case Frame::kSubgraph:
      current_ = 0;
      break;
    case Frame::kCollect:
      collector_.Close();
      break;
    default:
      break;
  }
  return true;
}

size_t GraphJsonReader::ListCapacity(size_t min_element_bytes) const {
  return std::min(object_count_ - std::min(object_count_, objects_opened_),
                  text_size_ / min_element_bytes);
}

bool GraphJsonReader::NeedTensorCount() {
  needs_tensor_count_ = true;
  return false;
}

void GraphJsonReader::NotAnArray() {
  subgraphs_.resize(1);
  subgraph_count_seen_ = 0;
  subgraphs_error_ = Fail("subgraphs", "expected an array");
}

void GraphJsonReader::StartTensors(Value::Kind kind) {
  SubgraphMembers& s = Current();
  s.tensors_kind = kind;
  s.tensors.clear();
  s.tensor_error = Status::Ok();
  s.tensor_count_seen = 0;
}

void GraphJsonReader::NotAnObject(const std::string& what, size_t index, Status& first_error) {
  if (first_error.ok()) {
    first_error = Fail(what + "[" + std::to_string(index) + "]", "expected an object");
  }
}

void GraphJsonReader::FinishTensor() {
  SubgraphMembers& s = Current();
  const size_t index = s.tensor_count_seen++;
  if (!s.tensor_error.ok()) return;
  Tensor* t =
      part_ ? PartElement(part_->tensors, index, s.tensor_error) : &s.tensors.emplace_back();
  if (!t) return;
  s.tensor_error = ReadTensor(tensor_, s.path + "tensors[" + std::to_string(index) + "]", *t);
  if (!s.tensor_error.ok() && !part_) s.tensors.pop_back();
}

void GraphJsonReader::FinishNode() {
  SubgraphMembers& s = Current();
  const size_t index = s.node_count_seen++;
  if (!s.node_error.ok()) return;
  const int64_t tensors =
      static_cast<int64_t>(s.tensor_count ? *s.tensor_count : s.tensor_count_seen);
  Node* n = part_ ? PartElement(part_->nodes, index, s.node_error) : &s.nodes.emplace_back();
  if (!n) return;
  s.node_error = ReadNode(node_, s.path + "nodes[" + std::to_string(index) + "]", tensors, *n);
  if (!s.node_error.ok() && !part_) s.nodes.pop_back();
}

}  // namespace tfa::graph_json
