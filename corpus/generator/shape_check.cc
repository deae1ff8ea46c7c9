#include "corpus/generator/shape_check.h"

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "corpus/generator/layers.h"

namespace tfa {
namespace {

using Shape = Dims;

std::string ToString(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

int64_t Elements(const Shape& shape) {
  int64_t n = 1;
  for (int32_t d : shape) n *= d;
  return n;
}

// Numpy broadcasting of two shapes into `out`; false when they do not broadcast.
bool Broadcast(const Shape& a, const Shape& b, Shape& out) {
  const size_t rank = std::max(a.size(), b.size());
  out.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int32_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int32_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    out[i] = da == 1 ? db : da;
  }
  return true;
}

class SubgraphShapeCheck {
 public:
  SubgraphShapeCheck(const Model& model, size_t index)
      : model_(model), sg_(model.subgraphs[index]), index_(index) {}

  Status Run() {
    for (size_t n = 0; n < sg_.nodes.size(); ++n) {
      const Node& node = sg_.nodes[n];
      const std::string error = CheckNode(node);
      if (!error.empty()) {
        return Status::Error("subgraph " + std::to_string(index_) + ": node " + std::to_string(n) +
                             " (" + node.op + "): " + error);
      }
    }
    return Status::Ok();
  }

 private:
  const Shape& In(const Node& node, size_t i) const {
    return sg_.tensors[static_cast<size_t>(node.inputs[i])].shape;
  }
  const Shape& Out(const Node& node, size_t i) const {
    return sg_.tensors[static_cast<size_t>(node.outputs[i])].shape;
  }

  static std::string Expect(const Shape& actual, const Shape& expected, const char* what) {
    if (actual == expected) return {};
    return std::string(what) + " shape is " + ToString(actual) + ", expected " + ToString(expected);
  }

  std::string Window(const Node& node, int32_t kernel_h, int32_t kernel_w, int32_t channels) const {
    const Shape& in = In(node, 0);
    if (in.size() != 4) return "input is not NHWC: " + ToString(in);
    const OpOptions& o = node.options;
    return Expect(
        Out(node, 0),
        {in[0], WindowOutputSize(in[1], kernel_h, o.stride_h, o.dilation_h, o.padding),
         WindowOutputSize(in[2], kernel_w, o.stride_w, o.dilation_w, o.padding), channels},
        "output");
  }

  std::string CheckNode(const Node& node) const {
    const std::string& op = node.op;
    if (op == "CONV_2D") {
      const Shape& w = In(node, 1);
      if (w.size() != 4 || In(node, 0).size() != 4 || w[3] != In(node, 0)[3]) {
        return "filter " + ToString(w) + " does not match input " + ToString(In(node, 0));
      }
      if (node.inputs.size() > 2 && node.inputs[2] >= 0 && In(node, 2) != Shape{w[0]}) {
        return Expect(In(node, 2), {w[0]}, "bias");
      }
      return Window(node, w[1], w[2], w[0]);
    }
    if (op == "DEPTHWISE_CONV_2D") {
      const Shape& w = In(node, 1);
      const Shape& in = In(node, 0);
      if (w.size() != 4 || in.size() != 4 || w[3] != in[3] * node.options->depth_multiplier) {
        return "filter " + ToString(w) + " does not match input " + ToString(in) +
               " times depth multiplier";
      }
      return Window(node, w[1], w[2], w[3]);
    }
    if (op == "AVERAGE_POOL_2D" || op == "MAX_POOL_2D" || op == "L2_POOL_2D") {
      if (In(node, 0).size() != 4) return "input is not NHWC";
      return Window(node, node.options->filter_h, node.options->filter_w, In(node, 0)[3]);
    }
    if (op == "FULLY_CONNECTED") {
      const Shape& w = In(node, 1);
      if (w.size() != 2 || w[1] <= 0 || Elements(In(node, 0)) % w[1] != 0) {
        return "weights " + ToString(w) + " do not divide input " + ToString(In(node, 0));
      }
      return Expect(Out(node, 0), {static_cast<int32_t>(Elements(In(node, 0)) / w[1]), w[0]},
                    "output");
    }
    if (op == "CONCATENATION") {
      Shape expected = In(node, 0);
      const int32_t rank = static_cast<int32_t>(expected.size());
      const int32_t axis = node.options->axis < 0 ? node.options->axis + rank : node.options->axis;
      if (axis < 0 || axis >= rank)
        return "axis " + std::to_string(node.options->axis) + " out of range";
      for (size_t i = 1; i < node.inputs.size(); ++i) {
        Shape other = In(node, i);
        if (other.size() != expected.size()) return "inputs differ in rank";
        expected[static_cast<size_t>(axis)] += other[static_cast<size_t>(axis)];
        other[static_cast<size_t>(axis)] = expected[static_cast<size_t>(axis)];
        if (other != expected) return "inputs differ outside the axis";
      }
      return Expect(Out(node, 0), expected, "output");
    }
    if (op == "RESHAPE") {
      if (Elements(In(node, 0)) != Elements(Out(node, 0))) {
        return "reshapes " + ToString(In(node, 0)) + " into " + ToString(Out(node, 0));
      }
      return {};
    }
    if (op == "ADD" || op == "SUB" || op == "MUL" || op == "DIV" || op == "LESS" ||
        op == "GREATER" || op == "MAXIMUM" || op == "MINIMUM") {
      Shape expected;
      if (!Broadcast(In(node, 0), In(node, 1), expected)) {
        return "inputs " + ToString(In(node, 0)) + " and " + ToString(In(node, 1)) +
               " do not broadcast";
      }
      return Expect(Out(node, 0), expected, "output");
    }
    if (op == "RELU" || op == "RELU6" || op == "TANH" || op == "LOGISTIC" || op == "SOFTMAX" ||
        op == "QUANTIZE" || op == "DEQUANTIZE" || op == "HARD_SWISH" || op == "LEAKY_RELU") {
      return Expect(Out(node, 0), In(node, 0), "output");
    }
    if (op == "WHILE") {
      if (node.inputs.size() != node.outputs.size()) return "inputs and outputs differ in count";
      for (size_t i = 0; i < node.inputs.size(); ++i) {
        if (std::string e = Expect(Out(node, i), In(node, i), "output"); !e.empty()) return e;
      }
      for (int32_t callee : {node.options->cond_subgraph, node.options->body_subgraph}) {
        if (std::string e = CheckCall(node.inputs, callee, true); !e.empty()) return e;
      }
      return CheckCall(node.outputs, node.options->body_subgraph, false);
    }
    if (op == "IF") {
      const std::vector<int32_t> operands(node.inputs.begin() + 1, node.inputs.end());
      for (int32_t callee : {node.options->then_subgraph, node.options->else_subgraph}) {
        if (std::string e = CheckCall(operands, callee, true); !e.empty()) return e;
        if (std::string e = CheckCall(node.outputs, callee, false); !e.empty()) return e;
      }
    }
    return {};
  }

  // `tensors` of this subgraph against the inputs (or outputs) of subgraph `callee`.
  std::string CheckCall(std::span<const int32_t> tensors, int32_t callee, bool inputs) const {
    if (callee < 0 || static_cast<size_t>(callee) >= model_.subgraphs.size()) {
      return "names missing subgraph " + std::to_string(callee);
    }
    const Subgraph& called = model_.subgraphs[static_cast<size_t>(callee)];
    const IdList& theirs = inputs ? called.inputs : called.outputs;
    const char* what = inputs ? "inputs" : "outputs";
    if (theirs.size() != tensors.size()) {
      return "subgraph " + std::to_string(callee) + " has " + std::to_string(theirs.size()) + " " +
             what + ", the node passes " + std::to_string(tensors.size());
    }
    for (size_t i = 0; i < theirs.size(); ++i) {
      const Shape& mine = sg_.tensors[static_cast<size_t>(tensors[i])].shape;
      const Shape& other = called.tensors[static_cast<size_t>(theirs[i])].shape;
      if (mine != other) {
        return std::string(what) + "[" + std::to_string(i) + "] of subgraph " +
               std::to_string(callee) + " is " + ToString(other) + ", the node has " +
               ToString(mine);
      }
    }
    return {};
  }

  const Model& model_;
  const Subgraph& sg_;
  size_t index_;
};

}  // namespace

Status CheckShapes(const Model& model) {
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    TFA_RETURN_IF_ERROR(SubgraphShapeCheck(model, s).Run());
  }
  return Status::Ok();
}

}  // namespace tfa
