// Property test: BIDIRECTIONAL_SEQUENCE_LSTM is two UNIDIRECTIONAL_SEQUENCE_LSTMs, as upstream's
// kernel is two lstm_eval passes: the forward output is the unidirectional kernel's on the input,
// the backward output is its output on the time-reversed input, reversed again; merged outputs hold
// both side by side. Bit for bit, over random sizes, layouts, CIFG, peepholes and projection.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/kernels/cpu/kernel_test_util.h"

namespace tfa::runtime {
namespace {

using testing::KernelRunner;

struct Config {
  int32_t batch = 1, time = 1, input_size = 1, cells = 1, units = 1;
  bool time_major = false, merge = false, cifg = false, peephole = false, projection = false;
  std::vector<float> input;
};

std::vector<float> Reals(size_t count) {
  std::vector<float> v;
  for (int x : *rc::gen::container<std::vector<int>>(count, rc::gen::inRange(-500, 501)))
    v.push_back(static_cast<float>(x) / 1000.0f);
  return v;
}

// One direction's 17 tensors (lstm_shared.h's inputs 1 to 17), random.
struct DirectionWeights {
  std::vector<float> input[4], recurrent[4], peephole[3], bias[4], projection, projection_bias;

  explicit DirectionWeights(const Config& c) {
    const auto n = [](int32_t a, int32_t b) { return static_cast<size_t>(a) * b; };
    for (int g = 0; g < 4; ++g) {
      input[g] = Reals(n(c.cells, c.input_size));
      recurrent[g] = Reals(n(c.cells, c.units));
      bias[g] = Reals(static_cast<size_t>(c.cells));
    }
    for (auto& p : peephole) p = Reals(static_cast<size_t>(c.cells));
    projection = Reals(n(c.units, c.cells));
    projection_bias = Reals(static_cast<size_t>(c.units));
  }

  void Add(KernelRunner& k, const Config& c) const {
    for (int g = 0; g < 4; ++g) {
      if (c.cifg && g == 0) {
        k.AddAbsentInput();
      } else {
        k.AddFloatInput({c.cells, c.input_size}, input[g]);
      }
    }
    for (int g = 0; g < 4; ++g) {
      if (c.cifg && g == 0) {
        k.AddAbsentInput();
      } else {
        k.AddFloatInput({c.cells, c.units}, recurrent[g]);
      }
    }
    for (int p = 0; p < 3; ++p) {
      if (!c.peephole || (c.cifg && p == 0)) {
        k.AddAbsentInput();
      } else {
        k.AddFloatInput({c.cells}, peephole[p]);
      }
    }
    for (int g = 0; g < 4; ++g) {
      if (c.cifg && g == 0) {
        k.AddAbsentInput();
      } else {
        k.AddFloatInput({c.cells}, bias[g]);
      }
    }
    if (c.projection) {
      k.AddFloatInput({c.units, c.cells}, projection);
      k.AddFloatInput({c.units}, projection_bias);
    } else {
      k.AddAbsentInput();
      k.AddAbsentInput();
    }
  }
};

std::vector<int32_t> SequenceShape(const Config& c, int32_t depth) {
  return c.time_major ? std::vector<int32_t>{c.time, c.batch, depth}
                      : std::vector<int32_t>{c.batch, c.time, depth};
}

// Row (t, b) of a [time, batch] or [batch, time] sequence.
size_t Row(const Config& c, int32_t t, int32_t b) {
  return static_cast<size_t>(c.time_major ? t * c.batch + b : b * c.time + t);
}

std::vector<float> ReverseTime(const Config& c, const std::vector<float>& values, int32_t depth) {
  std::vector<float> reversed(values.size());
  for (int32_t t = 0; t < c.time; ++t) {
    for (int32_t b = 0; b < c.batch; ++b) {
      for (int32_t d = 0; d < depth; ++d)
        reversed[Row(c, c.time - 1 - t, b) * depth + d] = values[Row(c, t, b) * depth + d];
    }
  }
  return reversed;
}

void AddStates(KernelRunner& k, const Config& c) {
  k.AddFloatInput({c.batch, c.units}, std::vector<float>(static_cast<size_t>(c.batch) * c.units));
  k.AddFloatInput({c.batch, c.cells}, std::vector<float>(static_cast<size_t>(c.batch) * c.cells));
}

std::vector<float> Unidirectional(const Config& c, const DirectionWeights& w,
                                  const std::vector<float>& input) {
  KernelRunner k("UNIDIRECTIONAL_SEQUENCE_LSTM");
  k.options().fused_activation = Activation::kTanh;
  k.options().time_major = c.time_major;
  k.AddFloatInput(SequenceShape(c, c.input_size), input);
  w.Add(k, c);
  AddStates(k, c);
  k.AddOutput(TensorType::kFloat32, SequenceShape(c, c.units));
  RC_ASSERT(k.Run().ok());
  return k.Output();
}

RC_GTEST_PROP(BidirectionalSequenceLstmProperty, IsTwoUnidirectionalPasses, ()) {
  Config c;
  c.batch = *rc::gen::inRange(1, 4);
  c.time = *rc::gen::inRange(1, 5);
  c.input_size = *rc::gen::inRange(1, 5);
  c.cells = *rc::gen::inRange(1, 5);
  c.projection = *rc::gen::arbitrary<bool>();
  c.units = c.projection ? *rc::gen::inRange(1, 5) : c.cells;
  c.time_major = *rc::gen::arbitrary<bool>();
  c.merge = *rc::gen::arbitrary<bool>();
  if (c.merge && !c.time_major) c.batch = 1;  // upstream's pass would read past its state
  c.cifg = *rc::gen::arbitrary<bool>();
  c.peephole = *rc::gen::arbitrary<bool>();
  c.input = Reals(static_cast<size_t>(c.batch) * c.time * c.input_size);
  const DirectionWeights fw(c), bw(c);

  KernelRunner k("BIDIRECTIONAL_SEQUENCE_LSTM");
  k.options().fused_activation = Activation::kTanh;
  k.options().time_major = c.time_major;
  k.options().merge_outputs = c.merge;
  k.AddFloatInput(SequenceShape(c, c.input_size), c.input);
  fw.Add(k, c);
  bw.Add(k, c);
  AddStates(k, c);
  AddStates(k, c);
  for (int i = 0; i < 9; ++i) k.AddAbsentInput();
  k.AddOutput(TensorType::kFloat32, SequenceShape(c, c.merge ? 2 * c.units : c.units));
  if (!c.merge) k.AddOutput(TensorType::kFloat32, SequenceShape(c, c.units));
  RC_ASSERT(k.Run().ok());

  const std::vector<float> want_fw = Unidirectional(c, fw, c.input);
  const std::vector<float> want_bw =
      ReverseTime(c, Unidirectional(c, bw, ReverseTime(c, c.input, c.input_size)), c.units);
  if (!c.merge) {
    RC_ASSERT(k.Output(0) == want_fw);
    RC_ASSERT(k.Output(1) == want_bw);
    return;
  }
  std::vector<float> want;
  for (size_t row = 0; row < static_cast<size_t>(c.batch) * c.time; ++row) {
    const size_t units = static_cast<size_t>(c.units);
    want.insert(want.end(), want_fw.begin() + row * units, want_fw.begin() + (row + 1) * units);
    want.insert(want.end(), want_bw.begin() + row * units, want_bw.begin() + (row + 1) * units);
  }
  RC_ASSERT(k.Output(0) == want);
}

}  // namespace
}  // namespace tfa::runtime
