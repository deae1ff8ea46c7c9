#include "visualizers/model_explorer_files.h"

#include <filesystem>
#include <system_error>

#include "visualizers/output_file.h"

namespace tfa::viz {

Status WriteModelExplorerOverlays(const std::vector<ModelExplorerOverlay>& overlays,
                                  const std::string& dir) {
  const std::filesystem::path folder(dir);
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) return Status::Error(dir + ": cannot create the directory: " + error.message());
  if (!std::filesystem::is_directory(folder, error)) {
    return Status::Error(dir + ": not a directory");
  }
  for (const ModelExplorerOverlay& overlay : overlays) {
    Status written =
        WriteOutputFile((folder / overlay.file_name).string(), ModelNodeDataJson(overlay.data));
    if (!written.ok()) return written;
  }
  return Status::Ok();
}

Status WriteMemoryTrace(const MemoryTimeline& timeline, const std::string& path) {
  return WriteOutputFile(path, MemoryTimelineTraceJson(timeline));
}

}  // namespace tfa::viz
