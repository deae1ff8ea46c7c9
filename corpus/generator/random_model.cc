#include "corpus/generator/random_model.h"

#include <algorithm>
#include <string>

#include "corpus/generator/layers.h"

namespace tfa {
namespace {

constexpr int32_t kSpatial = 8;
constexpr int32_t kMaxChannels = 64;
constexpr int32_t kChannelChoices[] = {4, 8, 16};

class RandomModelWriter {
 public:
  explicit RandomModelWriter(uint64_t seed)
      : builder_("random_" + std::to_string(seed) + ".tflite", "random float model"),
        subgraph_(builder_.AddSubgraph("main")),
        layers_(builder_, subgraph_, NumericFlavour::kFloat, seed),
        rng_(seed ^ 0x9e3779b97f4a7c15ull) {}

  SyntheticModel Build(int node_count) {
    const int32_t inputs = rng_.Chance(0.3) ? 2 : 1;
    std::vector<int32_t> graph_inputs;
    for (int32_t i = 0; i < inputs; ++i) {
      const int32_t t = layers_.ActivationTensor("input" + std::to_string(i),
                                                 {1, kSpatial, kSpatial, Pick(kChannelChoices)});
      graph_inputs.push_back(t);
      Produced(t);
    }
    for (int n = 0; n < node_count; ++n) AddRandomNode(std::string("n").append(std::to_string(n)));
    std::vector<int32_t> outputs;
    for (int32_t t : available_) {
      if (!read_[static_cast<size_t>(t)]) outputs.push_back(t);
    }
    builder_.SetInputs(subgraph_, graph_inputs);
    builder_.SetOutputs(subgraph_, outputs);
    return std::move(builder_).Finish();
  }

 private:
  template <size_t N>
  int32_t Pick(const int32_t (&choices)[N]) {
    return choices[rng_.Next() % N];
  }

  // Recent tensors are picked more often: half the time one of the last three.
  int32_t PickTensor() {
    const int32_t n = static_cast<int32_t>(available_.size());
    const int32_t index =
        rng_.Chance(0.5) ? rng_.Int(std::max(0, n - 3), n - 1) : rng_.Int(0, n - 1);
    const int32_t t = available_[static_cast<size_t>(index)];
    read_[static_cast<size_t>(t)] = true;
    return t;
  }

  int32_t Channels(int32_t t) const { return layers_.Shape(t)[3]; }

  void Produced(int32_t t) {
    available_.push_back(t);
    if (read_.size() <= static_cast<size_t>(t)) read_.resize(static_cast<size_t>(t) + 1, false);
  }

  void AddRandomNode(const std::string& name) {
    static constexpr Activation kActivations[] = {Activation::kNone, Activation::kRelu,
                                                  Activation::kRelu6};
    const Activation act = kActivations[rng_.Next() % 3];
    const int32_t a = PickTensor();
    int32_t out = -1;
    switch (rng_.Next() % 7) {
      case 0:
        out = layers_.Conv2D(a, Pick(kChannelChoices), rng_.Chance(0.5) ? 1 : 3, 1, Padding::kSame,
                             act, name);
        break;
      case 1:
        out = layers_.DepthwiseConv2D(a, 1, 3, 1, Padding::kSame, act, name);
        break;
      case 2:
        out = layers_.Pool2D(rng_.Chance(0.5) ? "MAX_POOL_2D" : "AVERAGE_POOL_2D", a, 3, 1,
                             Padding::kSame, name);
        break;
      case 3: {
        static constexpr const char* kUnary[] = {"RELU", "RELU6", "TANH", "LOGISTIC"};
        out = layers_.Unary(kUnary[rng_.Next() % 4], a, name);
        break;
      }
      case 4:
      case 5: {
        static constexpr const char* kBinary[] = {"ADD", "MUL", "SUB"};
        const int32_t b = PartnerWithChannels(a, Channels(a));
        out = layers_.Binary(kBinary[rng_.Next() % 3], a, b, act, name);
        break;
      }
      default: {
        const int32_t b = PickTensor();
        if (Channels(a) + Channels(b) > kMaxChannels) {
          out = layers_.Conv2D(a, Pick(kChannelChoices), 1, 1, Padding::kSame, act, name);
        } else {
          out = layers_.Concatenation({a, b}, 3, name);
        }
        break;
      }
    }
    Produced(out);
  }

  // Another available tensor with `channels` channels, or `a` itself when there is none.
  int32_t PartnerWithChannels(int32_t a, int32_t channels) {
    std::vector<int32_t> candidates;
    for (int32_t t : available_) {
      if (t != a && Channels(t) == channels) candidates.push_back(t);
    }
    if (candidates.empty()) return a;
    const int32_t t = candidates[rng_.Next() % candidates.size()];
    read_[static_cast<size_t>(t)] = true;
    return t;
  }

  ModelBuilder builder_;
  int32_t subgraph_;
  LayerBuilder layers_;
  Lcg rng_;
  std::vector<int32_t> available_;  // activation tensors nodes may read
  std::vector<bool> read_;          // by tensor index: read by some node
};

}  // namespace

SyntheticModel BuildRandomModel(uint64_t seed, int node_count) {
  return RandomModelWriter(seed).Build(std::max(node_count, 1));
}

}  // namespace tfa
