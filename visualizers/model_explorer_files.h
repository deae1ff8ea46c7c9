// Writing the Model Explorer overlays (libanalysis/report/model_explorer_overlays.h) and the
// memory timeline (libanalysis/report/memory_timeline.h) to the files `report` was asked for.
#ifndef VISUALIZERS_MODEL_EXPLORER_FILES_H_
#define VISUALIZERS_MODEL_EXPLORER_FILES_H_

#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/report/memory_timeline.h"
#include "libanalysis/report/model_explorer_overlays.h"

namespace tfa::viz {

// One file per overlay in `dir`, created (with its parents) when missing; existing files of the
// same names are replaced. Errors name the directory or file and the system's reason.
Status WriteModelExplorerOverlays(const std::vector<ModelExplorerOverlay>& overlays,
                                  const std::string& dir);

// The timeline as a Chrome trace at `path`.
Status WriteMemoryTrace(const MemoryTimeline& timeline, const std::string& path);

}  // namespace tfa::viz

#endif  // VISUALIZERS_MODEL_EXPLORER_FILES_H_
