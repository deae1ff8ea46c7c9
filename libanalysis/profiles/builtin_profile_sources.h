// The built-in delegate profiles: libanalysis/profiles/builtin/NAME.json, compiled into the library
// at build time (embed_profiles.cmake generates the definition into the build directory).
#ifndef LIBANALYSIS_PROFILES_BUILTIN_PROFILE_SOURCES_H_
#define LIBANALYSIS_PROFILES_BUILTIN_PROFILE_SOURCES_H_

#include <span>
#include <string_view>

namespace tfa {

struct BuiltinProfileSource {
  std::string_view name;  // the file name without ".json"
  std::string_view json;  // the file's text
};

// Sorted by name.
std::span<const BuiltinProfileSource> BuiltinProfileSources();

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_BUILTIN_PROFILE_SOURCES_H_
