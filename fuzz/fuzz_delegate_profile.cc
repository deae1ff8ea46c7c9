// Any text given to the delegate-profile parser (a user's --delegate FILE) yields a profile or a
// one-line error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "libanalysis/profiles/delegate_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto profile = tfa::ParseDelegateProfileJson(
      std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
  (void)profile.ok();
  return 0;
}
