// The TFLite Micro answer (`report --target tflm --html`) as one self-contained HTML page: the
// figures (head, tail, arena_used_bytes, the recommended kTensorArenaSize), the head as the
// arena picture the TFLite report draws (allocation scopes on x, offsets on y; scratch buffers
// and offline-planned tensors named as such), and the tail, item by item, as a table.
#ifndef VISUALIZERS_TFLM_HTML_REPORT_H_
#define VISUALIZERS_TFLM_HTML_REPORT_H_

#include <string>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/report/report.h"
#include "libanalysis/tflm/micro_allocator_replay.h"

namespace tfa::viz {

// The head buffers as an ArenaReport the arena picture draws, and the one Subgraph that names
// them: every subgraph's tensors in turn (subgraph s > 0 prefixed "s:"), then a "scratch" entry
// per kernel scratch buffer. Steps are allocation scopes + 1 (a never-marked tensor, scope -1,
// at step 0).
struct TflmHeadPicture {
  ArenaReport arena;
  Subgraph names;
};
TflmHeadPicture TflmHeadAsArena(const Model& model, const tflm::TflmArena& arena);

std::string RenderTflmHtmlReport(const Model& model, const tflm::TflmArena& arena);

Status WriteTflmHtmlReport(const Model& model, const tflm::TflmArena& arena,
                           const std::string& path);

}  // namespace tfa::viz

#endif  // VISUALIZERS_TFLM_HTML_REPORT_H_
