#include "cli/model_failures.h"

#include <gtest/gtest.h>

namespace tfa::cli {
namespace {

TEST(MapModels, KeepsEveryResultAndTheErrorOfEachModelThatFailed) {
  const std::vector<std::string> paths = {"a.tflite", "missing.tflite", "c.tflite", "bad.json"};
  const auto outcomes = MapModels(paths, [&](size_t i) {
    if (i == 1) throw CommandError{"missing.tflite: cannot open file: No such file or directory"};
    if (i == 3) throw CommandError{"subgraph 0: node 2 (ADD): input 7 out of range"};
    return static_cast<int>(i) * 10;
  });
  ASSERT_EQ(outcomes.size(), 4u);
  EXPECT_EQ(outcomes[0].result, 0);
  EXPECT_EQ(outcomes[2].result, 20);
  EXPECT_FALSE(outcomes[1].result);
  // An error that does not name its model gets the path in front.
  EXPECT_EQ(ModelErrors(outcomes),
            (std::vector<std::string>{"missing.tflite: cannot open file: No such file or directory",
                                      "bad.json: subgraph 0: node 2 (ADD): input 7 out of range"}));
}

TEST(EndWithModelErrors, ExitsTwoOnlyWhenAModelFailed) {
  EXPECT_NO_THROW(EndWithModelErrors({}));
  try {
    EndWithModelErrors({"m.tflite: bad"});
    FAIL() << "no CommandError";
  } catch (const CommandError& e) {
    EXPECT_EQ(e.exit_code, kExitBadInput);
    EXPECT_EQ(e.message, "");
  }
}

}  // namespace
}  // namespace tfa::cli
