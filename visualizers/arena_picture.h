// The arena as a picture (SVG text, no Graphviz): execution steps on x, arena offsets on y (0 at
// the bottom), one rectangle per allocation spanning its lifetime, coloured by tensor (an in-place
// alias takes its owner's colour, drawn translucent and dashed over it). The peak step is a
// vertical line, the lower bound (the most bytes live at any one step) a dashed horizontal line,
// and the arena size is the top of the y axis. Persistent-arena allocations, which live in a
// separate buffer, get their own band above the main plot. Axis ticks fall on round values (1, 2
// or 5 times a power of ten), blocks are named inside themselves where the name fits (a block of
// a tenth of the arena or more, too narrow for it, beside itself), never two names overlapping
// whatever the model's size (every block's name is in its tooltip), and a legend tells own-bytes
// blocks from in-place (shared, translucent) ones.
#ifndef VISUALIZERS_ARENA_PICTURE_H_
#define VISUALIZERS_ARENA_PICTURE_H_

#include <string>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "libanalysis/report/report.h"

namespace tfa::viz {

struct ArenaPictureOptions {
  int width = 960;  // pixels, whole picture
  int height = 440;
  std::string title;  // drawn above the plot when not empty
};

// `subgraph` supplies tensor names for the tooltips; tensor indices past its tensors are kernel
// temporaries (numbered after the model's tensors, as in the report).
std::string RenderArenaSvg(const ArenaReport& arena, const Subgraph& subgraph,
                           const ArenaPictureOptions& options = {});

Status WriteArenaSvg(const ArenaReport& arena, const Subgraph& subgraph,
                     const ArenaPictureOptions& options, const std::string& path);

}  // namespace tfa::viz

#endif  // VISUALIZERS_ARENA_PICTURE_H_
