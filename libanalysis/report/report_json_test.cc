#include "libanalysis/report/report_json.h"

#include <gtest/gtest.h>

#include <string>

namespace tfa {
namespace {

// Names come from the model file unchecked (found by fuzz_report: a signature key that is not
// UTF-8 made the JSON writer throw); they are written with U+FFFD in place of the bad bytes.
TEST(ReportToJson, NamesThatAreNotUtf8AreReplacedNotFatal) {
  Report r;
  r.model = "m.tflite";
  r.signatures.push_back(
      SignatureReport{"pre\xff"
                      "fill",
                      0,
                      {{"tok\xc3", 0}},
                      {}});
  std::string json;
  EXPECT_NO_THROW(json = ReportToJson(r));
  EXPECT_NE(json.find("pre\xef\xbf\xbd"
                      "fill"),
            std::string::npos)
      << json;
}

}  // namespace
}  // namespace tfa
