#include "libanalysis/plan/accelerator_request.h"

#include <gtest/gtest.h>

namespace tfa {
namespace {

std::vector<std::string> Specs(std::string_view list) {
  auto requests = AcceleratorRequests(list);
  EXPECT_TRUE(requests.ok()) << requests.status().message();
  std::vector<std::string> specs;
  for (const DelegateRequest& r : *requests) specs.push_back(r.spec);
  return specs;
}

TEST(AcceleratorRequest, KnowsTheFourPluginProfiles) {
  EXPECT_EQ(NpuVendors(),
            (std::vector<std::string>{"example", "google_tensor", "mediatek", "qualcomm"}));
}

TEST(AcceleratorRequest, AppliesNpuThenGpuThenCpuWhateverTheOrderGiven) {
  EXPECT_EQ(Specs("npu:qualcomm"), std::vector<std::string>{"npu-qualcomm"});
  EXPECT_EQ(Specs("cpu,gpu,npu:mediatek"),
            (std::vector<std::string>{"npu-mediatek", "gpu", "xnnpack"}));
  EXPECT_EQ(Specs("gpu,npu:google_tensor"), (std::vector<std::string>{"npu-google_tensor", "gpu"}));
}

TEST(AcceleratorRequest, EveryRequestResolvesToABuiltinProfile) {
  auto requests = AcceleratorRequests("npu:example,gpu,cpu");
  ASSERT_TRUE(requests.ok());
  for (const DelegateRequest& r : *requests) {
    auto profile = ResolveDelegateRequest(r);
    ASSERT_TRUE(profile.ok()) << profile.status().message();
  }
}

TEST(AcceleratorRequest, BadListsAreOneLineErrors) {
  EXPECT_EQ(AcceleratorRequests("npu:acme").status().message(),
            "--accelerator npu:acme: unknown NPU vendor 'acme' (known: example, google_tensor, "
            "mediatek, qualcomm)");
  EXPECT_EQ(AcceleratorRequests("tpu").status().message(),
            "--accelerator tpu: expected npu:VENDOR, gpu or cpu");
  EXPECT_EQ(AcceleratorRequests("gpu,,cpu").status().message(),
            "--accelerator gpu,,cpu: empty item in the list");
  EXPECT_EQ(AcceleratorRequests("gpu,gpu").status().message(),
            "--accelerator gpu,gpu: named twice");
  EXPECT_EQ(AcceleratorRequests("npu:qualcomm,npu:mediatek").status().message(),
            "--accelerator npu:qualcomm,npu:mediatek: more than one NPU");
  EXPECT_FALSE(AcceleratorRequests("").ok());
}

}  // namespace
}  // namespace tfa
