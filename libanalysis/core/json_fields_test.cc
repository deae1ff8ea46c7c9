#include "libanalysis/core/json_fields.h"

#include <gtest/gtest.h>

namespace tfa {
namespace {

using Json = nlohmann::json;
using Presence = JsonFields::Presence;

TEST(JsonFieldsTest, ReadsTypedFieldsAndKeepsDefaultsOfAbsentOnes) {
  const Json j = Json::parse(R"({"name":"gpu","greedy":false,"max":3,"bytes":7,"rate":0.5,
                                 "ops":["ADD","MUL"]})");
  JsonFields fields(j, "profile");
  std::string name;
  bool greedy = true;
  int32_t max = 0;
  uint64_t bytes = 0;
  double rate = 0;
  std::vector<std::string> ops;
  std::string absent = "default";
  EXPECT_TRUE(fields.Read("name", &name).ok());
  EXPECT_TRUE(fields.Read("greedy", &greedy).ok());
  EXPECT_TRUE(fields.Read("max", &max, 0).ok());
  EXPECT_TRUE(fields.Read("bytes", &bytes).ok());
  EXPECT_TRUE(fields.Read("rate", &rate).ok());
  EXPECT_TRUE(fields.Read("ops", &ops).ok());
  EXPECT_TRUE(fields.Read("absent", &absent).ok());
  EXPECT_EQ(name, "gpu");
  EXPECT_FALSE(greedy);
  EXPECT_EQ(max, 3);
  EXPECT_EQ(bytes, 7u);
  EXPECT_EQ(rate, 0.5);
  EXPECT_EQ(ops, (std::vector<std::string>{"ADD", "MUL"}));
  EXPECT_EQ(absent, "default");
  EXPECT_TRUE(fields.CheckNoOtherFields().ok());
}

TEST(JsonFieldsTest, ErrorsNameTheFieldsPath) {
  const Json j = Json::parse(R"({"n":"x","big":99999999999,"neg":-2,"list":[1],"extra":1})");
  JsonFields fields(j, "models[1]");
  int32_t n = 0;
  EXPECT_EQ(fields.Read("n", &n, 0).message(), "models[1].n: expected an integer");
  EXPECT_EQ(fields.Read("big", &n, 0).message(), "models[1].big: out of range: 99999999999");
  EXPECT_EQ(fields.Read("neg", &n, 0).message(), "models[1].neg: out of range: -2");
  uint64_t u = 0;
  EXPECT_EQ(fields.Read("neg", &u).message(), "models[1].neg: expected a non-negative integer");
  std::vector<std::string> list;
  EXPECT_EQ(fields.Read("list", &list).message(), "models[1].list: expected an array of strings");
  std::string required;
  EXPECT_EQ(fields.Read("spec", &required, Presence::kRequired).message(),
            "models[1].spec: missing");
  EXPECT_EQ(fields.CheckNoOtherFields().message(), "models[1].extra: unknown field");
  EXPECT_EQ(fields.Path("configs", 2), "models[1].configs[2]");
}

TEST(JsonFieldsTest, TopLevelAndNonObjects) {
  const Json array = Json::parse("[1]");
  JsonFields fields(array, "");
  EXPECT_EQ(fields.CheckObject().message(), "top level: expected an object");
  EXPECT_EQ(fields.Find("x"), nullptr);
  EXPECT_EQ(fields.Array("models", Presence::kRequired).status().message(), "models: missing");
}

}  // namespace
}  // namespace tfa
