#include "cli/model_failures.h"

#include <iostream>

namespace tfa::cli {

std::string ErrorNamingModel(const std::string& path, const std::string& error) {
  if (error.starts_with(path)) return error;
  return path + ": " + error;
}

void EndWithModelErrors(const std::vector<std::string>& errors) {
  if (errors.empty()) return;
  std::cout.flush();
  for (const std::string& e : errors) std::cerr << "tflite-analyze: error: " << e << "\n";
  throw CommandError{"", kExitBadInput};
}

}  // namespace tfa::cli
