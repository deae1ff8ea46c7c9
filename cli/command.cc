#include "cli/command.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "libanalysis/model/model_loader.h"

namespace tfa::cli {

Model LoadModelOrThrow(const std::string& path) {
  auto model = LoadModelFile(path);
  if (!model.ok()) throw CommandError{model.status().message(), kExitBadInput};
  return std::move(model).value();
}

void WriteOutput(const std::string& path, const std::string& text) {
  if (path == "-" || path.empty()) {
    std::cout << text;
    if (!text.empty() && text.back() != '\n') std::cout << '\n';
    return;
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) throw CommandError{path + ": cannot write: " + std::strerror(errno), kExitBadInput};
  out << text;
  if (!text.empty() && text.back() != '\n') out << '\n';
  if (!out) throw CommandError{path + ": write error", kExitBadInput};
}

}  // namespace tfa::cli
