// Reads Graph JSON as SAX events into a Model, never holding the document: the whole text (the
// reference), or one run of a list on its own, or the text around the lists (graph_json.cc reads
// a large file in parts). Internal to libanalysis/model.
#ifndef LIBANALYSIS_MODEL_GRAPH_JSON_READER_H_
#define LIBANALYSIS_MODEL_GRAPH_JSON_READER_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/model/graph_json_elements.h"
#include "libanalysis/model/graph_json_values.h"

namespace tfa::graph_json {

// Counts the elements of each subgraph's (last) "tensors" array: at 0 the top level's, at k the
// k-th object of the (last) "subgraphs" array. Node indices are checked against it, and a file
// may list its nodes before its tensors.
class TensorCounter {
 public:
  const std::vector<size_t>& counts() const { return counts_; }

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
    if (depth_ == 1) {
      top_key_ = TopMember(key);
    } else if (depth_ == 3 && in_subgraph_) {
      subgraph_tensors_key_ = std::string_view(key) == "tensors";
    }
    return true;
  }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

 private:
  // Whether the value starting now is a subgraph's "tensors" member.
  bool AtTensors() const {
    return (depth_ == 1 && top_key_ == Member::kTensors) ||
           (depth_ == 3 && in_subgraph_ && subgraph_tensors_key_);
  }
  size_t Current() const { return depth_ == 1 ? 0 : counts_.size() - 1; }

  bool Scalar() {
    if (AtTensors()) {
      counts_[Current()] = 0;
    } else if (counting_ && depth_ == counting_depth_) {
      ++counts_[counting_index_];
    }
    return true;
  }
  bool Open(bool is_array) {
    if (AtTensors()) {
      counts_[Current()] = 0;
      counting_ = is_array;
      counting_depth_ = depth_ + 1;
      counting_index_ = Current();
    } else if (counting_ && depth_ == counting_depth_) {
      ++counts_[counting_index_];
    } else if (depth_ == 1 && top_key_ == Member::kSubgraphs && is_array) {
      in_subgraphs_ = true;
      counts_.resize(1);
    } else if (depth_ == 2 && in_subgraphs_ && !is_array) {
      counts_.push_back(0);
      in_subgraph_ = true;
      subgraph_tensors_key_ = false;
    }
    ++depth_;
    return true;
  }
  bool Close() {
    --depth_;
    if (counting_ && depth_ + 1 == counting_depth_) counting_ = false;
    if (depth_ == 2) in_subgraph_ = false;
    if (depth_ == 1) in_subgraphs_ = false;
    return true;
  }

  int depth_ = 0;
  Member top_key_ = Member::kOther;
  bool in_subgraphs_ = false;
  bool in_subgraph_ = false;
  bool subgraph_tensors_key_ = false;
  bool counting_ = false;
  int counting_depth_ = 0;
  size_t counting_index_ = 0;
  std::vector<size_t> counts_ = {0};
};

// One subgraph as its members stream in: the top level's (subgraph 0) or one of "subgraphs".
struct SubgraphMembers {
  std::string path;  // prefix of error paths: "" at the top level, else "subgraphs[k]."
  std::optional<size_t> tensor_count;
  Value name;
  Value::Kind tensors_kind = Value::Kind::kAbsent;
  Value::Kind nodes_kind = Value::Kind::kAbsent;
  bool tensors_done = false;
  bool nodes_started = false;
  size_t tensor_count_seen = 0;
  size_t node_count_seen = 0;
  Status tensor_error = Status::Ok();
  Status node_error = Status::Ok();
  std::vector<Tensor> tensors;
  std::vector<Node> nodes;
  IntListValue inputs, outputs, variables;
};

// One run of a subgraph's tensor (or node) list, read on its own: the elements numbered from
// `first` go to `tensors` (or `nodes`), in place; nodes are checked against `tensor_count`.
struct ListPart {
  std::string path;  // the subgraph's prefix of error paths
  size_t first = 0;
  size_t tensor_count = 0;
  std::span<Tensor> tensors;
  std::span<Node> nodes;
};

// Builds the model as the SAX events arrive, never holding the document. Errors are kept, not
// returned at once, so that the one reported is the one a whole-document check would name first:
// syntax, then the document's shape, the format, then each subgraph (each tensor in order, each
// node, the graph's lists), then the model's own members.
class GraphJsonReader {
 public:
  GraphJsonReader(size_t text_size, size_t object_count,
                  std::optional<std::vector<size_t>> tensor_counts);

  // A reader of one part of a list, given as a JSON array of its own.
  explicit GraphJsonReader(const ListPart& part);

  // Whether a part reader read its part whole, each element accepted.
  bool ReadPartWhole() const;

  // Gives subgraph `subgraph` the list its parts were read into, after the rest of the text was
  // read with that list left out (empty). False when the text holds no such subgraph.
  template <typename T>
  bool PlaceList(size_t subgraph, std::vector<T>&& elements) {
    if (subgraph >= subgraphs_.size()) return false;
    SubgraphMembers& s = subgraphs_[subgraph];
    if constexpr (std::is_same_v<T, Tensor>) {
      s.tensor_count_seen = elements.size();
      s.tensors = std::move(elements);
    } else {
      s.node_count_seen = elements.size();
      s.nodes = std::move(elements);
    }
    return true;
  }

  // Set when some subgraph's nodes came before its tensors: read again, with the tensors
  // counted first.
  bool needs_tensor_count() const { return needs_tensor_count_; }

  Result<Model> Finish(const std::string& source_name);

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
  bool number_float(double d, const std::string&) {
    Value v{Value::Kind::kFloat};
    v.number = d;
    return Scalar(std::move(v));
  }
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
      case Frame::kSubgraph:
        member_ = TopMember(key);
        break;
      case Frame::kTensor:
        member_ = TensorMember(key);
        break;
      case Frame::kNode:
        member_ = NodeMember(key);
        break;
      case Frame::kCollect:
        collector_.Key(key);
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
  enum class Frame : uint8_t {
    kTop,
    kSubgraphs,
    kSubgraph,
    kTensors,
    kTensor,
    kNodes,
    kNode,
    kList,
    kCollect,
    kSkipped
  };

  SubgraphMembers& Current() { return subgraphs_[current_]; }
  bool InSubgraphObject() const;

  void AddSubgraph(std::string path);
  Status FinishSubgraph(SubgraphMembers& m, size_t index);
  Status FinishModel();

  // Where a scalar value of the current member of a subgraph, tensor or node object goes.
  Value* ScalarSlot();
  IntListValue* ListSlot();

  // Where a member taken whole goes.
  CollectedValue* CollectSlot();

  // A value that is a member of the current object (or, in a list frame, an element).
  bool Scalar(Value&& v);
  bool Open(Value::Kind kind);
  bool Close();

  // What a tensor or node list opening now can hold: no more elements than objects left in the
  // text, nor than the text holds at the fewest bytes a real element takes. Reserved once, the
  // list is written in place; grown by doubling, it would touch twice its size and peak at one
  // and a half. A reservation beyond the elements is address space, never touched.
  size_t ListCapacity(size_t min_element_bytes) const;

  bool NeedTensorCount();
  void NotAnArray();
  void StartTensors(Value::Kind kind);
  static void NotAnObject(const std::string& what, size_t index, Status& first_error);
  void FinishTensor();
  void FinishNode();

  // Where element `index` of a part goes; null, with `error` set, past the part's end.
  template <typename T>
  T* PartElement(std::span<T> part, size_t index, Status& error) const {
    const size_t at = index - part_->first;
    if (at < part.size()) return &part[at];
    error = Status::Error("more elements than the layout scan found");
    return nullptr;
  }

  const size_t text_size_;
  const size_t object_count_;
  size_t objects_opened_ = 0;
  const std::optional<std::vector<size_t>> tensor_counts_;
  bool needs_tensor_count_ = false;
  std::string syntax_error_;
  bool is_object_ = false;
  std::vector<Frame> frames_;
  Member member_ = Member::kOther;
  IntListValue* list_ = nullptr;
  JsonCollector collector_;

  Value format_, kernel_prepare_, schema_version_, description_;
  CollectedValue metadata_names_, signatures_;
  std::vector<SubgraphMembers> subgraphs_;
  size_t current_ = 0;
  Status subgraphs_error_ = Status::Ok();
  size_t subgraph_count_seen_ = 0;
  TensorMembers tensor_;
  NodeMembers node_;
  Model model_;
  const ListPart* part_ = nullptr;  // set for a reader of one part of a list
};

}  // namespace tfa::graph_json

#endif  // LIBANALYSIS_MODEL_GRAPH_JSON_READER_H_
