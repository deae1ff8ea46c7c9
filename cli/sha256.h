// SHA-256 of a file's bytes: how gate baselines recognise a model whatever its file is called.
// Written out here (FIPS 180-4) rather than pulling in a crypto library for one hash.
#ifndef CLI_SHA256_H_
#define CLI_SHA256_H_

#include <string>
#include <string_view>

namespace tfa::cli {

// Lower-case hex digest, 64 characters.
std::string Sha256Hex(std::string_view bytes);

}  // namespace tfa::cli

#endif  // CLI_SHA256_H_
