// Any text given to the run reader of the Graph JSON reading in parts (ReadJsonRun) is declined or
// read into the very events nlohmann's SAX parser gives for '[' text ']': it never accepts what
// nlohmann refuses, nor reads a value differently.
#include <cstddef>
#include <cstdint>
#include <string>

#include "libanalysis/core/json_run_reader.h"
#include "tests/support/json_event_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string run(reinterpret_cast<const char*>(data), size);
  tfa::testing::JsonEventLog read;
  if (!tfa::ReadJsonRun(run, read)) return 0;
  if (tfa::testing::NlohmannRunEvents(run) != read.events) __builtin_trap();
  return 0;
}
