// Writing a rendered picture to the path the caller asked for.
#ifndef VISUALIZERS_OUTPUT_FILE_H_
#define VISUALIZERS_OUTPUT_FILE_H_

#include <string>
#include <string_view>

#include "libanalysis/core/status.h"

namespace tfa::viz {

// Writes `content` byte for byte (binary mode: PNG data passes through unchanged). The error names
// the path and the system's reason.
Status WriteOutputFile(const std::string& path, std::string_view content);

}  // namespace tfa::viz

#endif  // VISUALIZERS_OUTPUT_FILE_H_
