// The whole report pipeline (profiles, delegation, kernel Prepare replay, arena planning) on any
// model the loaders accept: a Report or an error, never a crash, a hang or runaway memory.
// The first byte picks the delegate configuration; the rest is a .tflite or Graph JSON file.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "libanalysis/model/graph_json.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/report/report_builder.h"
#include "libanalysis/report/report_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  static const std::array<const char*, 6> kDelegates = {"", "gpu", "xnnpack", "ops=ADD,CONV_2D",
                                                        "nodes=0,2,4", "add-sub"};
  const char* delegate = kDelegates[data[0] % kDelegates.size()];
  const std::span<const uint8_t> file(data + 1, size - 1);
  auto model = file[0] == '{'
                   ? tfa::ParseGraphJson(std::string_view(reinterpret_cast<const char*>(file.data()), file.size()),
                                         "fuzz.json")
                   : tfa::ParseTflite(file, "fuzz.tflite");
  if (!model.ok()) return 0;
  tfa::ReportOptions options;
  if (*delegate != '\0') {
    tfa::DelegateRequest request;
    request.spec = delegate;
    request.max_partitions = data[0] % 3 == 0 ? 2 : 1;
    options.delegates.push_back(request);
  }
  auto report = tfa::BuildReport(*model, options);
  if (report.ok()) (void)tfa::ReportToJson(*report);
  return 0;
}
