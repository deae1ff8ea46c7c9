#include "libanalysis/plan/input_names.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/small_graphs.h"

namespace tfa {
namespace {

using testing::AddNode;
using testing::AddTensor;

// Inputs b (tensor 2) and a (tensor 1), in that order; tensor 0 is an output. A signature names
// them "second" and "first".
struct TwoInputs {
  Model model;
  const Subgraph& graph() const { return model.subgraphs[0]; }
  std::vector<const SignatureDef*> signatures() const {
    return SignaturesNamingInputs(model, 0, "");
  }
};

TwoInputs MakeTwoInputs() {
  TwoInputs m;
  Subgraph& g = m.model.subgraphs.emplace_back();
  const int32_t out = AddTensor(g, TensorType::kFloat32, {4});
  const int32_t a = AddTensor(g, TensorType::kFloat32, {4});
  const int32_t b = AddTensor(g, TensorType::kFloat32, {4});
  g.tensors[static_cast<size_t>(out)].name = "out";
  g.tensors[static_cast<size_t>(a)].name = "a";
  g.tensors[static_cast<size_t>(b)].name = "b";
  AddNode(g, "ADD", {a, b}, {out});
  g.inputs = {b, a};
  g.outputs = {out};
  m.model.signatures.push_back({"serve", 0, {{"first", a}, {"second", b}}, {{"out", out}}});
  return m;
}

int32_t TensorOf(const TwoInputs& m, const std::string& key) {
  auto found = FindNamedInput(m.graph(), m.signatures(), key);
  EXPECT_TRUE(found.ok()) << key << ": " << found.status().message();
  return found.ok() ? found->tensor : -1;
}

std::string Error(const TwoInputs& m, const std::string& key) {
  return FindNamedInput(m.graph(), m.signatures(), key).status().message();
}

TEST(InputNamesTest, ANameAPositionOrATensorIndex) {
  const TwoInputs m = MakeTwoInputs();
  EXPECT_EQ(TensorOf(m, "a"), 1);
  EXPECT_EQ(TensorOf(m, "first"), 1);  // the signature's key, as the report shows it
  EXPECT_EQ(TensorOf(m, "#2"), 2);
  EXPECT_EQ(TensorOf(m, "0"), 2);  // position 0 of the subgraph's inputs: b
  auto shown = FindNamedInput(m.graph(), m.signatures(), "b");
  ASSERT_TRUE(shown.ok());
  EXPECT_EQ(shown->name, "second");
}

TEST(InputNamesTest, ANumberThatIsAlsoAnotherInputsTensorIndexIsAmbiguous) {
  const TwoInputs m = MakeTwoInputs();
  // Position 1 is tensor 1 (a): both meanings agree.
  EXPECT_EQ(TensorOf(m, "1"), 1);
  // There is no position 2, and #2 says the tensor.
  EXPECT_EQ(Error(m, "2"),
            "input \"2\": position 2 is out of range (2 inputs: 0 'second' (#2), 1 'first' (#1); "
            "#T names tensor T)");
  TwoInputs swapped = MakeTwoInputs();
  swapped.model.subgraphs[0].inputs = {1, 2};
  // Position 1 is now b, while tensor 1 (a) is position 0: refused, not guessed.
  EXPECT_EQ(Error(swapped, "1")
                .rfind("input \"1\" is ambiguous: position 1 is #2 'second', but "
                       "another input is tensor #1; write #T",
                       0),
            0u)
      << Error(swapped, "1");
}

TEST(InputNamesTest, RefusalsSayWhyAndListTheInputs) {
  const TwoInputs m = MakeTwoInputs();
  EXPECT_EQ(Error(m, "A"),
            "no input \"A\" (did you mean a?) (inputs: 0 'second' (#2), 1 'first' (#1))");
  EXPECT_EQ(Error(m, "#0"),
            "input \"#0\": tensor 0 is not an input (inputs: 0 'second' (#2), 1 'first' (#1))");
  EXPECT_EQ(Error(m, "#x"), "input \"#x\": # takes a tensor index");
  TwoInputs clash = MakeTwoInputs();
  clash.model.signatures[0].inputs = {{"b", 1}, {"second", 2}};  // key b names tensor a
  EXPECT_EQ(Error(clash, "b"),
            "input \"b\" is ambiguous: it names tensors #1 and #2 (a tensor name and a signature "
            "key); write #T for the one meant");
}

}  // namespace
}  // namespace tfa
