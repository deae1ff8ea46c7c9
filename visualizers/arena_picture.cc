#include "visualizers/arena_picture.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "libanalysis/core/byte_units.h"
#include "visualizers/markup_escape.h"
#include "visualizers/output_file.h"
#include "visualizers/palette.h"

namespace tfa::viz {
namespace {

constexpr double kMarginLeft = 80;
constexpr double kMarginRight = 200;  // room for the size / lower-bound / peak labels
constexpr double kMarginTop = 36;
constexpr double kMarginBottom = 48;
constexpr double kPersistentBandHeight = 56;
constexpr double kBandGap = 28;
constexpr double kMinRectExtent = 0.6;  // keeps one-byte or one-step allocations visible
constexpr int kTargetStepTicks = 10;
constexpr int kTargetByteTicks = 4;
// Allocations at least this share of the arena are labelled on the plot: a large block alive for
// one step (an im2col temporary) is a sliver a few pixels wide otherwise.
constexpr double kLabelledShare = 0.1;

// Where one arena (main or persistent) is drawn and how bytes and steps map onto it.
struct Panel {
  double left = 0, top = 0, width = 0, height = 0;
  int32_t steps = 1;
  uint64_t bytes = 1;  // the offset drawn at the top edge
  double X(double step) const { return left + step * width / steps; }
  double Y(double offset) const {
    return top + height - offset * height / static_cast<double>(bytes);
  }
  double bottom() const { return top + height; }
  double right() const { return left + width; }
};

// 1, 2 or 5 times a power of ten, so that about `ticks` ticks cover `range` (at least 1).
double RoundTickSpacing(double range, int ticks) {
  const double raw = std::max(1.0, range / ticks);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double factor : {1.0, 2.0, 5.0}) {
    if (factor * power >= raw) return factor * power;
  }
  return 10 * power;
}

std::string TensorName(const Subgraph& subgraph, int32_t tensor) {
  if (tensor >= 0 && static_cast<size_t>(tensor) < subgraph.tensors.size()) {
    return subgraph.tensors[tensor].name;
  }
  return "kernel temporary";
}

void DrawAlloc(std::string& svg, const Panel& panel, const ArenaAllocation& alloc,
               const Subgraph& subgraph) {
  const double x = panel.X(alloc.first_step);
  const double width = std::max(kMinRectExtent, panel.X(alloc.last_step + 1.0) - x);
  const double y_top = panel.Y(static_cast<double>(alloc.offset + alloc.size));
  const double height =
      std::max(kMinRectExtent, panel.Y(static_cast<double>(alloc.offset)) - y_top);
  const int32_t colour_tensor = alloc.shares_buffer_of.value_or(alloc.tensor);
  std::string tooltip =
      fmt::format("tensor {} {}\n{} ({} B) at offset {}\nsteps {}–{}", alloc.tensor,
                  TensorName(subgraph, alloc.tensor), HumanBytes(alloc.size), alloc.size,
                  alloc.offset, alloc.first_step, alloc.last_step);
  if (alloc.shares_buffer_of)
    tooltip += fmt::format("\nshares the buffer of tensor {}", *alloc.shares_buffer_of);
  if (alloc.persistent) tooltip += "\npersistent arena";
  const char* style =
      alloc.shares_buffer_of ? R"( fill-opacity="0.35" stroke-dasharray="3,2")" : "";
  svg += fmt::format(
      R"(<rect class="alloc" x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}" fill="{}" stroke="#333" stroke-width="0.5"{}><title>{}</title></rect>)"
      "\n",
      x, y_top, width, height, ColourForTensor(colour_tensor), style, EscapeMarkup(tooltip));
}

void DrawText(std::string& svg, double x, double y, const std::string& anchor,
              const std::string& text, const std::string& extra = "") {
  svg += fmt::format(R"(<text x="{:.2f}" y="{:.2f}" text-anchor="{}"{}>{}</text>)"
                     "\n",
                     x, y, anchor, extra, EscapeMarkup(text));
}

void DrawFrame(std::string& svg, const Panel& panel) {
  svg += fmt::format(
      R"(<rect class="frame" x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}" fill="#fafafa" stroke="#999"/>)"
      "\n",
      panel.left, panel.top, panel.width, panel.height);
}

// Ticks at round byte counts (1, 2 or 5 times a power of ten) up to the top of the axis; the
// arena size itself has its own line and label.
void DrawByteTicks(std::string& svg, const Panel& panel) {
  const auto spacing =
      static_cast<uint64_t>(RoundTickSpacing(static_cast<double>(panel.bytes), kTargetByteTicks));
  for (uint64_t bytes = 0; bytes <= panel.bytes; bytes += spacing) {
    const double y = panel.Y(static_cast<double>(bytes));
    svg += fmt::format(R"(<line x1="{:.2f}" y1="{:.2f}" x2="{:.2f}" y2="{:.2f}" stroke="#999"/>)"
                       "\n",
                       panel.left - 5, y, panel.left, y);
    DrawText(svg, panel.left - 8, y + 4, "end", HumanBytes(bytes));
  }
}

void DrawStepTicks(std::string& svg, const Panel& panel) {
  const auto spacing =
      static_cast<int32_t>(RoundTickSpacing(static_cast<double>(panel.steps), kTargetStepTicks));
  for (int32_t step = 0; step < panel.steps; step += spacing) {
    const double x = panel.X(step + 0.5);
    svg += fmt::format(R"(<line x1="{:.2f}" y1="{:.2f}" x2="{:.2f}" y2="{:.2f}" stroke="#999"/>)"
                       "\n",
                       x, panel.bottom(), x, panel.bottom() + 5);
    DrawText(svg, x, panel.bottom() + 18, "middle", std::to_string(step));
  }
  DrawText(svg, panel.left + panel.width / 2, panel.bottom() + 38, "middle", "execution step");
}

// A text's box, estimated from its length: Helvetica's characters average under 0.6 em, so a
// box of 0.66 em per character (wide enough for DejaVu Sans, the fallback) holds the text.
struct TextBox {
  double left = 0, top = 0, right = 0, bottom = 0;
  bool Overlaps(const TextBox& other) const {
    return left < other.right && other.left < right && top < other.bottom && other.top < bottom;
  }
};

double TextWidth(const std::string& text, double font_size) {
  size_t characters = 0;
  for (unsigned char c : text) characters += (c & 0xC0) != 0x80;  // UTF-8 lead bytes
  return static_cast<double>(characters) * font_size * 0.66;
}

// The box of a text drawn at (x, baseline y) with `anchor`.
TextBox BoxOf(const std::string& text, double x, double y, const std::string& anchor,
              double font_size) {
  const double width = TextWidth(text, font_size);
  const double left = anchor == "start" ? x : anchor == "end" ? x - width : x - width / 2;
  return {left, y - font_size, left + width, y + font_size * 0.25};
}

constexpr double kBlockLabelFontSize = 10;
// Blocks tried for a label, largest first: past these, a block's name is in its tooltip only.
constexpr size_t kMaxBlockLabelCandidates = 64;

// Names blocks on the plot without any two names overlapping, at any model size: a block wide and
// tall enough carries its name inside (blocks of one arena never overlap, so neither do names
// inside them); a large block too narrow for it (a tenth of the arena or more, such as an im2col
// temporary alive for one step) is named beside it, where that name fits in the plot and touches
// no other name. Every block has its name in its tooltip either way.
void LabelBlocks(std::string& svg, const Panel& panel,
                 const std::vector<const ArenaAllocation*>& allocs, const Subgraph& subgraph) {
  std::vector<const ArenaAllocation*> candidates;
  for (const ArenaAllocation* alloc : allocs) {
    if (!alloc->shares_buffer_of) candidates.push_back(alloc);
  }
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [](const ArenaAllocation* a, const ArenaAllocation* b) { return a->size > b->size; });
  if (candidates.size() > kMaxBlockLabelCandidates) candidates.resize(kMaxBlockLabelCandidates);
  std::vector<TextBox> placed;
  const auto fits = [&](const TextBox& box) {
    if (box.left < panel.left || box.right > panel.right() || box.top < panel.top ||
        box.bottom > panel.bottom()) {
      return false;
    }
    return std::none_of(placed.begin(), placed.end(),
                        [&](const TextBox& other) { return box.Overlaps(other); });
  };
  for (const ArenaAllocation* alloc : candidates) {
    const double left = panel.X(alloc->first_step);
    const double right = panel.X(alloc->last_step + 1.0);
    const double top = panel.Y(static_cast<double>(alloc->offset + alloc->size));
    const double bottom = panel.Y(static_cast<double>(alloc->offset));
    const double baseline = (top + bottom) / 2 + kBlockLabelFontSize * 0.35;
    const std::string full =
        fmt::format("tensor {} {} {}", alloc->tensor, TensorName(subgraph, alloc->tensor),
                    HumanBytes(alloc->size));
    const std::string brief = fmt::format("#{} {}", alloc->tensor, HumanBytes(alloc->size));
    bool labelled = false;
    for (const std::string* text : {&full, &brief}) {
      const TextBox inside =
          BoxOf(*text, (left + right) / 2, baseline, "middle", kBlockLabelFontSize);
      if (inside.left >= left + 2 && inside.right <= right - 2 && inside.top >= top &&
          inside.bottom <= bottom && fits(inside)) {
        placed.push_back(inside);
        DrawText(svg, (left + right) / 2, baseline, "middle", *text,
                 R"( class="block-label" font-size="10")");
        labelled = true;
        break;
      }
    }
    const bool large =
        static_cast<double>(alloc->size) >= kLabelledShare * static_cast<double>(panel.bytes);
    if (labelled || !large) continue;
    for (const bool on_right : {true, false}) {
      const double x = on_right ? right + 4 : left - 4;
      const std::string anchor = on_right ? "start" : "end";
      const TextBox beside = BoxOf(full, x, baseline, anchor, kBlockLabelFontSize);
      if (!fits(beside)) continue;
      placed.push_back(beside);
      // A halo keeps a name drawn over other blocks legible.
      DrawText(
          svg, x, baseline, anchor, full,
          R"( class="block-label" font-size="10" paint-order="stroke" stroke="#fafafa" stroke-width="3")");
      break;
    }
  }
}

// The right margin's texts (the markers' labels, then the legend), each wanted at a height:
// stacked at least a line apart in that order, and moved up together when the stack would leave
// the picture, so none overlaps another whatever the markers' heights.
struct MarginText {
  double wanted_y = 0;
  std::string text;
  std::string extra;
  const char* legend_style = nullptr;  // a legend entry: its swatch's style
};

void DrawMargin(std::string& svg, double x, double lowest_y, std::vector<MarginText> texts) {
  constexpr double kLine = 16;
  for (size_t i = 1; i < texts.size(); ++i)
    texts[i].wanted_y = std::max(texts[i].wanted_y, texts[i - 1].wanted_y + kLine);
  const double excess = texts.empty() ? 0 : texts.back().wanted_y - lowest_y;
  for (const MarginText& t : texts) {
    const double y = excess > 0 ? t.wanted_y - excess : t.wanted_y;
    if (t.legend_style == nullptr) {
      DrawText(svg, x, y, "start", t.text, t.extra);
      continue;
    }
    svg += fmt::format(
        R"(<rect class="legend" x="{:.2f}" y="{:.2f}" width="14" height="10" fill="#9ecae1" stroke="#333" stroke-width="0.5"{}/>)"
        "\n",
        x, y - 9, t.legend_style);
    DrawText(svg, x + 20, y, "start", t.text, R"( font-size="10")");
  }
}

}  // namespace

std::string RenderArenaSvg(const ArenaReport& arena, const Subgraph& subgraph,
                           const ArenaPictureOptions& options) {
  std::vector<const ArenaAllocation*> main_allocs, persistent_allocs;
  int32_t steps = std::max(arena.peak_step + 1, 1);
  uint64_t main_top = std::max<uint64_t>({arena.size, arena.lower_bound, 1});
  uint64_t persistent_top = std::max<uint64_t>(arena.persistent_size, 1);
  for (const ArenaAllocation& alloc : arena.allocs) {
    steps = std::max(steps, alloc.last_step + 1);
    // An allocation past the reported size would be drawn outside the frame; widen the scale.
    uint64_t& top = alloc.persistent ? persistent_top : main_top;
    top = std::max(top, alloc.offset + alloc.size);
    (alloc.persistent ? persistent_allocs : main_allocs).push_back(&alloc);
  }

  const double width = options.width, height = options.height;
  const double plot_width = std::max(1.0, width - kMarginLeft - kMarginRight);
  double top = kMarginTop;
  Panel persistent{kMarginLeft, top, plot_width, kPersistentBandHeight, steps, persistent_top};
  if (!persistent_allocs.empty()) top += kPersistentBandHeight + kBandGap;
  Panel main_panel{kMarginLeft, top,     plot_width, std::max(1.0, height - top - kMarginBottom),
                   steps,       main_top};

  std::string svg = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="arena-picture" width="{0:.0f}" height="{1:.0f}" viewBox="0 0 {0:.0f} {1:.0f}" font-family="Helvetica,Arial,sans-serif" font-size="11">)"
      "\n",
      width, height);
  svg += fmt::format("<title>{}</title>\n",
                     EscapeMarkup(options.title.empty() ? "arena" : options.title));
  if (!options.title.empty())
    DrawText(svg, kMarginLeft, 20, "start", options.title, R"( font-size="14")");

  if (!persistent_allocs.empty()) {
    DrawFrame(svg, persistent);
    for (const ArenaAllocation* alloc : persistent_allocs)
      DrawAlloc(svg, persistent, *alloc, subgraph);
    DrawText(svg, persistent.right() + 8, persistent.top + 14, "start", "persistent arena");
    DrawText(svg, persistent.right() + 8, persistent.top + 28, "start",
             HumanBytes(arena.persistent_size));
  }

  DrawFrame(svg, main_panel);
  for (const ArenaAllocation* alloc : main_allocs) DrawAlloc(svg, main_panel, *alloc, subgraph);
  LabelBlocks(svg, main_panel, main_allocs, subgraph);
  DrawByteTicks(svg, main_panel);
  DrawStepTicks(svg, main_panel);
  svg += fmt::format(
      R"svg(<text x="16" y="{:.2f}" text-anchor="middle" transform="rotate(-90 16 {:.2f})">offset</text>)svg"
      "\n",
      main_panel.top + main_panel.height / 2, main_panel.top + main_panel.height / 2);

  const double size_y = main_panel.Y(static_cast<double>(arena.size));
  svg += fmt::format(
      R"(<line class="arena-size" x1="{:.2f}" y1="{:.2f}" x2="{:.2f}" y2="{:.2f}" stroke="#222" stroke-width="1.5"/>)"
      "\n",
      main_panel.left, size_y, main_panel.right(), size_y);
  const double bound_y = main_panel.Y(static_cast<double>(arena.lower_bound));
  svg += fmt::format(
      R"(<line class="lower-bound" x1="{:.2f}" y1="{:.2f}" x2="{:.2f}" y2="{:.2f}" stroke="#1f77b4" stroke-width="1.5" stroke-dasharray="6,4"/>)"
      "\n",
      main_panel.left, bound_y, main_panel.right(), bound_y);
  const double peak_x = main_panel.X(arena.peak_step + 0.5);
  svg += fmt::format(
      R"(<line class="peak" x1="{:.2f}" y1="{:.2f}" x2="{:.2f}" y2="{:.2f}" stroke="#d62728" stroke-width="1.5"/>)"
      "\n",
      peak_x, main_panel.top, peak_x, main_panel.bottom());
  std::vector<MarginText> margin = {
      {size_y + 4, "arena size " + HumanBytes(arena.size), ""},
      {bound_y + 4, "lower bound " + HumanBytes(arena.lower_bound), R"( fill="#1f77b4")"},
      {0, fmt::format("peak at step {}", arena.peak_step), R"( fill="#d62728")"},
      {0, "tensor, own bytes", "", ""},
      {0, "in place: shares a buffer", "", R"( fill-opacity="0.35" stroke-dasharray="3,2")"}};
  margin[3].wanted_y = std::max(size_y, bound_y) + 4 + 16 + 28;  // a gap before the legend
  if (!persistent_allocs.empty())
    margin.push_back({0, "top band: persistent arena", R"( font-size="10")"});
  DrawMargin(svg, main_panel.right() + 8, height - 6, std::move(margin));
  if (arena.allocs.empty()) {
    DrawText(svg, main_panel.left + main_panel.width / 2, main_panel.top + main_panel.height / 2,
             "middle", "no arena allocations");
  }
  svg += "</svg>\n";
  return svg;
}

Status WriteArenaSvg(const ArenaReport& arena, const Subgraph& subgraph,
                     const ArenaPictureOptions& options, const std::string& path) {
  return WriteOutputFile(path, RenderArenaSvg(arena, subgraph, options));
}

}  // namespace tfa::viz
