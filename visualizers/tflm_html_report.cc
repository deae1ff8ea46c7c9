#include "visualizers/tflm_html_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "libanalysis/core/byte_units.h"
#include "visualizers/arena_picture.h"
#include "visualizers/markup_escape.h"
#include "visualizers/output_file.h"

namespace tfa::viz {
namespace {

constexpr const char* kStyle = R"css(
body { font-family: Helvetica, Arial, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
figure { margin: 0; overflow: auto; border: 1px solid #eee; max-height: 90vh; }
figure svg { max-width: 100%; height: auto; }
.meta { color: #666; }
)css";

std::string Cell(const std::string& text) { return "<td>" + EscapeMarkup(text) + "</td>"; }
std::string NumberCell(uint64_t value) { return fmt::format("<td class=\"num\">{}</td>", value); }
std::string IndexCell(int32_t index) { return index < 0 ? "<td></td>" : NumberCell(index); }

std::string BuildName(const tflm::TflmArena& arena) {
  std::string name = tflm::TargetName(arena.target);
  if (arena.target == tflm::Target::kMcu32)
    name += arena.abi == tflm::Abi::kI386 ? " (i386)" : " (AAPCS)";
  if (arena.static_memory) name += ", TF_LITE_STATIC_MEMORY";
  if (arena.recording_allocator) name += ", RecordingMicroAllocator";
  return name;
}

}  // namespace

TflmHeadPicture TflmHeadAsArena(const Model& model, const tflm::TflmArena& arena) {
  TflmHeadPicture picture;
  std::vector<size_t> first_tensor(model.subgraphs.size(), 0);
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    first_tensor[s] = picture.names.tensors.size();
    for (const Tensor& tensor : model.subgraphs[s].tensors) {
      Tensor named;
      named.name = s == 0 ? tensor.name : std::to_string(s) + ":" + tensor.name;
      picture.names.tensors.push_back(std::move(named));
    }
  }
  std::map<int32_t, uint64_t> live_at_step;
  for (const tflm::HeadBuffer& buffer : arena.head_buffers) {
    ArenaAllocation alloc;
    if (buffer.tensor >= 0) {
      alloc.tensor =
          static_cast<int32_t>(first_tensor[static_cast<size_t>(buffer.subgraph)]) + buffer.tensor;
    } else {
      alloc.tensor = static_cast<int32_t>(picture.names.tensors.size());
      Tensor named;
      named.name =
          fmt::format("scratch of {}node {} ({})",
                      buffer.subgraph == 0 ? "" : fmt::format("{}:", buffer.subgraph), buffer.node,
                      model.subgraphs[static_cast<size_t>(buffer.subgraph)]
                          .nodes[static_cast<size_t>(buffer.node)]
                          .op);
      picture.names.tensors.push_back(std::move(named));
    }
    if (buffer.offline) {
      picture.names.tensors[static_cast<size_t>(alloc.tensor)].name += " [offline plan]";
    }
    alloc.first_step = buffer.first_used + 1;
    alloc.last_step = std::max(buffer.first_used, buffer.last_used) + 1;
    alloc.offset = buffer.offset;
    alloc.size = buffer.size;
    for (int32_t step = alloc.first_step; step <= alloc.last_step; ++step) {
      live_at_step[step] += buffer.size;
    }
    picture.arena.allocs.push_back(std::move(alloc));
  }
  picture.arena.size = arena.head;
  for (const auto& [step, bytes] : live_at_step) {
    if (bytes > picture.arena.lower_bound) {
      picture.arena.lower_bound = bytes;
      picture.arena.peak_step = step;
    }
  }
  return picture;
}

std::string RenderTflmHtmlReport(const Model& model, const tflm::TflmArena& arena) {
  std::string html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>" +
                     EscapeMarkup(model.path) + " (TFLite Micro)</title>\n<style>" + kStyle +
                     "</style></head><body>\n";
  html += "<h1>" + EscapeMarkup(model.path) +
          "</h1>\n<p class=\"meta\">TFLite Micro's tensor "
          "arena, as MicroInterpreter::AllocateTensors fills it: " +
          EscapeMarkup(BuildName(arena)) + ", reference kernels (docs/tflm.md)</p>\n";
  html += "<h2>Figures</h2>\n<table>\n";
  const auto figure = [&](const std::string& name, uint64_t bytes) {
    html += "<tr><th>" + EscapeMarkup(name) + "</th>" + NumberCell(bytes) +
            Cell(HumanBytes(bytes)) + "</tr>\n";
  };
  figure("head (GetNonPersistentUsedBytes)", arena.head);
  figure("tail, the model's", arena.tail);
  figure("allocator objects", arena.allocator_objects);
  figure("arena_used_bytes", arena.arena_used_bytes);
  figure("AllocateTensors peak", arena.allocate_tensors_peak);
  figure("recommended kTensorArenaSize", arena.recommended_arena_size);
  html += "</table>\n";

  const TflmHeadPicture picture = TflmHeadAsArena(model, arena);
  html += fmt::format(
      "<h2>Head</h2>\n<p class=\"meta\">{} buffers placed by GreedyMemoryPlanner{}; x is the "
      "allocation scope (one per node, micro_allocation_info.cc), y the offset from the "
      "arena's start.</p>\n",
      arena.head_buffers.size(),
      arena.offline_plan ? ", around the tensors the model's OfflineMemoryAllocation plan fixes"
                         : "");
  ArenaPictureOptions options;
  options.title = "TFLite Micro head";
  html += "<figure>\n" + RenderArenaSvg(picture.arena, picture.names, options) + "</figure>\n";

  html +=
      "<h2>Tail</h2>\n<p class=\"meta\">What persists, in the order MicroAllocator puts it "
      "below the arena's end; \"used\" includes each item's alignment padding.</p>\n"
      "<table>\n<tr><th>kind</th><th>what</th><th>subgraph</th><th>node</th><th>tensor</th>"
      "<th>requested</th><th>used</th></tr>\n";
  for (const tflm::TailItem& item : arena.tail_items) {
    html += "<tr>" + Cell(tflm::TailItemKindName(item.kind)) + Cell(item.what) +
            IndexCell(item.subgraph) + IndexCell(item.node) + IndexCell(item.tensor) +
            NumberCell(item.requested) + NumberCell(item.used) + "</tr>\n";
  }
  html += "</table>\n</body></html>\n";
  return html;
}

Status WriteTflmHtmlReport(const Model& model, const tflm::TflmArena& arena,
                           const std::string& path) {
  return WriteOutputFile(path, RenderTflmHtmlReport(model, arena));
}

}  // namespace tfa::viz
