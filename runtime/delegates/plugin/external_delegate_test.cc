#include "runtime/delegates/plugin/external_delegate.h"

#include <gtest/gtest.h>

#include "runtime/delegates/plugin/delegate_registry.h"
#include "runtime/delegates/testing/delegate_run_checks.h"
#include "tests/support/test_paths.h"

namespace tfa::runtime {
namespace {

using testing::ExpectPredictionMatches;
using testing::MaxOutputError;
using testing::Measure;
using testing::PredictDelegation;
using testing::RunModel;

TEST(ExternalDelegateTest, AddSubPluginRunsAsPredicted) {
  auto delegate = LoadExternalDelegate(TFA_ADD_SUB_PLUGIN);
  ASSERT_TRUE(delegate.ok()) << delegate.status().message();
  EXPECT_EQ((*delegate)->Name(), "add-sub");
  const std::string path =
      tfa::testing::CorpusModelPath("face_detection__face_detection_short_range");
  auto delegated = RunModel(path, {delegate->get()});
  auto cpu = RunModel(path, {});
  ASSERT_TRUE(delegated && cpu);
  const auto measured = Measure(*delegated);
  ExpectPredictionMatches(PredictDelegation(path, {"add-sub"}), measured);
  EXPECT_EQ(measured.delegated_partitions, 16);
  EXPECT_EQ(MaxOutputError(*delegated, *cpu), 0.0);
}

TEST(ExternalDelegateTest, SinPluginLoads) {
  auto delegate = LoadExternalDelegate(TFA_SIN_PLUGIN);
  ASSERT_TRUE(delegate.ok()) << delegate.status().message();
  EXPECT_EQ((*delegate)->Name(), "sin");
}

TEST(ExternalDelegateTest, PluginErrorsComeBackWithThePath) {
  auto delegate = LoadExternalDelegate(TFA_ADD_SUB_PLUGIN, {{"precision", "fp16"}});
  ASSERT_FALSE(delegate.ok());
  const std::string& message = delegate.status().message();
  EXPECT_NE(message.find(TFA_ADD_SUB_PLUGIN), std::string::npos) << message;
  EXPECT_NE(message.find("precision"), std::string::npos) << message;
}

TEST(ExternalDelegateTest, MissingLibraryIsAnError) {
  auto delegate = LoadExternalDelegate("/nonexistent/libnothing.so");
  ASSERT_FALSE(delegate.ok());
  EXPECT_NE(delegate.status().message().find("/nonexistent/libnothing.so"), std::string::npos);
}

TEST(ExternalDelegateTest, LibraryWithoutTheAbiIsAnError) {
  auto delegate = LoadExternalDelegate("libm.so.6");
  ASSERT_FALSE(delegate.ok());
  EXPECT_NE(delegate.status().message().find("tfa_plugin_create_delegate"), std::string::npos)
      << delegate.status().message();
}

TEST(DelegateRegistryTest, EveryDelegateHasAFlagAndAFactory) {
  std::vector<std::string> names;
  for (const RegisteredDelegate& delegate : RegisteredDelegates()) {
    names.push_back(delegate.name);
    EXPECT_EQ(delegate.flag, "--use-" + delegate.name + "-delegate");
    EXPECT_NE(delegate.create, nullptr);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"add-sub", "sin", "gpu", "xnnpack"}));
  ASSERT_NE(FindRegisteredDelegate("sin"), nullptr);
  auto sin = FindRegisteredDelegate("sin")->create({});
  ASSERT_TRUE(sin.ok());
  EXPECT_EQ((*sin)->Name(), "sin");
  EXPECT_EQ(FindRegisteredDelegate("nnapi"), nullptr);
}

}  // namespace
}  // namespace tfa::runtime
