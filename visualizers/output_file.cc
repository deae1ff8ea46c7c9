#include "visualizers/output_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace tfa::viz {

Status WriteOutputFile(const std::string& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error(path + ": cannot open for writing: " + std::strerror(errno));
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) return Status::Error(path + ": write failed: " + std::strerror(errno));
  return Status::Ok();
}

}  // namespace tfa::viz
