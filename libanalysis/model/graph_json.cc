// Graph JSON -> Model: the reference reads the text once with GraphJsonReader
// (graph_json_reader.h); a large file is read in parts on all cores, the lists cut into runs at
// the element starts its layout found. Each op's options: graph_json_options.h; the writer:
// graph_json_writer.cc.
#include "libanalysis/model/graph_json.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "libanalysis/core/char_iterator.h"
#include "libanalysis/core/json_run_reader.h"
#include "libanalysis/core/mapped_pages.h"
#include "libanalysis/core/parallel_map.h"
#include "libanalysis/model/graph_json_layout.h"
#include "libanalysis/model/graph_json_reader.h"

namespace tfa {
namespace {

using graph_json::GraphJsonReader;
using graph_json::json;
using graph_json::kMaxJsonDepth;
using graph_json::ListPart;
using graph_json::TensorCounter;

// The text with some lists left out: from each one's '[' straight to its ']'.
class TextWithoutListsIterator : public CharIterator<TextWithoutListsIterator> {
 public:
  TextWithoutListsIterator() = default;
  TextWithoutListsIterator(std::string_view text, size_t offset,
                           std::span<const GraphJsonList> left_out)
      : CharIterator(text.data() + offset), text_(text.data()), left_out_(left_out) {}

  TextWithoutListsIterator& operator++() {
    ++position_;
    if (!left_out_.empty() && position_ == text_ + left_out_.front().open + 1) {
      position_ = text_ + left_out_.front().close;
      left_out_ = left_out_.subspan(1);
    }
    return *this;
  }

 private:
  const char* text_ = nullptr;
  std::span<const GraphJsonList> left_out_;  // in text order, those not yet passed
};

// A part of one list: elements [first, first + count) of layout list `list`, whose bytes are
// text[begin, end).
struct PartRange {
  size_t list = 0;
  size_t first = 0;
  size_t count = 0;
  size_t begin = 0;
  size_t end = 0;
};

// The shortest valid tensor and node (each list element takes at least that, and a ',').
constexpr size_t kLeastValidTensorJsonBytes = std::string_view(R"({"bytes":0})").size();
constexpr size_t kLeastValidNodeJsonBytes =
    std::string_view(R"({"op":"","inputs":[],"outputs":[]})").size();

// The most text one run of a list holds: its pages stay resident until the run is read.
constexpr size_t kMaxRunBytes = 16 << 20;

// Cuts each list into runs of about `part_bytes`, at element starts the layout recorded.
std::vector<PartRange> CutLists(const GraphJsonLayout& layout, size_t part_bytes) {
  std::vector<PartRange> parts;
  for (size_t l = 0; l < layout.lists.size(); ++l) {
    const GraphJsonList& list = layout.lists[l];
    if (list.count == 0) continue;
    // Element starts, by index into `starts`, where a run begins: the first at or past each
    // multiple of `part_bytes`.
    std::vector<size_t> cuts = {0};
    for (size_t s = 1; s < list.starts.size(); ++s) {
      if (list.starts[s] - list.starts[cuts.back()] >= part_bytes) cuts.push_back(s);
    }
    for (size_t c = 0; c < cuts.size(); ++c) {
      PartRange part;
      part.list = l;
      part.first = cuts[c] * layout.step;
      part.begin = list.starts[cuts[c]];
      const bool last = c + 1 == cuts.size();
      part.count = (last ? list.count : cuts[c + 1] * layout.step) - part.first;
      part.end = last ? list.close : list.starts[cuts[c + 1]] - 1;  // before the ','
      parts.push_back(part);
    }
  }
  return parts;
}

size_t ReadingThreads(const GraphJsonReading& reading) {
  return reading.threads != 0 ? reading.threads : std::max(1u, std::thread::hardware_concurrency());
}

// The structure pass. The first to read a mapped file, it has another core read a byte of each
// page ahead of it (ReadEveryPage) when the text may be read in parts: 0.27 -> 0.14 s for 200 MB.
Result<GraphJsonLayout> ScanLayout(std::string_view text, const GraphJsonReading& reading) {
  if (reading.memory != TextMemory::kFileMapping || ReadingThreads(reading) < 2 ||
      text.size() < reading.split_bytes) {
    return ScanGraphJsonLayout(text, kMaxJsonDepth, reading.part_step);
  }
  std::optional<Result<GraphJsonLayout>> layout;
  ParallelMap(2, [&](size_t task) {
    if (task == 0) {
      layout.emplace(ScanGraphJsonLayout(text, kMaxJsonDepth, reading.part_step));
    } else {
      ReadEveryPage(text);
    }
    return true;
  });
  return std::move(*layout);
}

// The model read in parts on all cores (GraphJsonReading), or nullopt when the text has an error
// (the reference then names it) or no list worth the threads.
std::optional<Model> ReadInParts(std::string_view text, const std::string& source_name,
                                 const GraphJsonLayout& layout, const GraphJsonReading& reading) {
  const size_t threads = ReadingThreads(reading);
  size_t list_bytes = 0;
  for (const GraphJsonList& list : layout.lists) list_bytes += list.close - list.open;
  if (threads < 2 || layout.lists.empty() || list_bytes < reading.split_bytes) return std::nullopt;
  // The lists are allocated before any element is read: a count no valid text of that size holds
  // (a list of commas) must not size an allocation.
  for (const GraphJsonList& list : layout.lists) {
    const size_t least = list.nodes ? kLeastValidNodeJsonBytes : kLeastValidTensorJsonBytes;
    if (list.count > (list.close - list.open) / (least + 1)) return std::nullopt;
  }
  const bool give_back = reading.memory == TextMemory::kFileMapping;

  // Each list is read into its place: its elements are built once, where they stay. The page
  // faults of building them, most of the time of it, are taken on every core first.
  std::vector<size_t> tensor_counts;
  std::vector<std::vector<Tensor>> tensors(layout.lists.size());
  std::vector<std::vector<Node>> nodes(layout.lists.size());
  std::vector<PageRange> storage;
  for (size_t l = 0; l < layout.lists.size(); ++l) {
    const GraphJsonList& list = layout.lists[l];
    if (list.nodes) {
      nodes[l].reserve(list.count);
      storage.push_back({nodes[l].data(), list.count * sizeof(Node)});
      continue;
    }
    tensors[l].reserve(list.count);
    storage.push_back({tensors[l].data(), list.count * sizeof(Tensor)});
    if (tensor_counts.size() <= list.subgraph) tensor_counts.resize(list.subgraph + 1);
    tensor_counts[list.subgraph] = list.count;
  }
  PrefaultPages(storage);
  for (size_t l = 0; l < layout.lists.size(); ++l) {
    if (layout.lists[l].nodes) {
      nodes[l].resize(layout.lists[l].count);
    } else {
      tensors[l].resize(layout.lists[l].count);
    }
  }
  // A few runs per thread, so that the threads finish together; a run's pages of a mapped file
  // go back once it is read.
  const std::vector<PartRange> ranges =
      CutLists(layout, std::clamp<size_t>(list_bytes / (threads * 4), 1, kMaxRunBytes));
  std::vector<ListPart> parts(ranges.size());
  for (size_t p = 0; p < ranges.size(); ++p) {
    const PartRange& r = ranges[p];
    const GraphJsonList& list = layout.lists[r.list];
    ListPart& part = parts[p];
    part.path = list.subgraph == 0 ? "" : "subgraphs[" + std::to_string(list.subgraph - 1) + "].";
    part.first = r.first;
    part.tensor_count = list.subgraph < tensor_counts.size() ? tensor_counts[list.subgraph] : 0;
    if (list.nodes) {
      part.nodes = std::span<Node>(nodes[r.list]).subspan(r.first, r.count);
    } else {
      part.tensors = std::span<Tensor>(tensors[r.list]).subspan(r.first, r.count);
    }
  }

  // Task 0 reads the text around the lists; task p + 1 reads part p.
  GraphJsonReader rest(text.size(), layout.objects, tensor_counts);
  const std::vector<bool> read = ParallelMap(parts.size() + 1, [&](size_t task) {
    if (task == 0) {
      json::sax_parse(TextWithoutListsIterator(text, 0, layout.lists),
                      TextWithoutListsIterator(text, text.size(), {}), &rest);
      return true;
    }
    const std::string_view run =
        text.substr(ranges[task - 1].begin, ranges[task - 1].end - ranges[task - 1].begin);
    GraphJsonReader reader(parts[task - 1]);
    const bool read_whole = ReadJsonRun(run, reader) && reader.ReadPartWhole();
    if (give_back) GiveBackMappedPages(run);
    return read_whole;
  });
  if (std::find(read.begin(), read.end(), false) != read.end() || rest.needs_tensor_count()) {
    return std::nullopt;
  }
  for (size_t l = 0; l < layout.lists.size(); ++l) {
    const GraphJsonList& list = layout.lists[l];
    const bool placed = list.nodes ? rest.PlaceList(list.subgraph, std::move(nodes[l]))
                                   : rest.PlaceList(list.subgraph, std::move(tensors[l]));
    if (!placed) return std::nullopt;
  }
  auto model = rest.Finish(source_name);
  if (!model.ok()) return std::nullopt;
  return std::move(model).value();
}

}  // namespace

std::optional<Model> ReadGraphJsonInParts(std::string_view text, const std::string& source_name,
                                          const GraphJsonReading& reading) {
  const auto layout = ScanGraphJsonLayout(text, kMaxJsonDepth, reading.part_step);
  if (!layout.ok()) return std::nullopt;
  return ReadInParts(text, source_name, *layout, reading);
}

Result<Model> ParseGraphJson(std::string_view text, const std::string& source_name,
                             const GraphJsonReading& reading) {
  const bool give_back = reading.memory == TextMemory::kFileMapping;
  const auto layout = ScanLayout(text, reading);
  if (give_back) GiveBackMappedPages(text);
  if (!layout.ok()) return layout.status().WithContext(source_name);
  if (auto model = ReadInParts(text, source_name, *layout, reading)) return std::move(*model);
  // Each pass reads the text once, front to back: what it has read goes back as it goes.
  const auto parse = [&](auto& handler) {
    json::sax_parse(PageReleasingIterator(text, 0, give_back),
                    PageReleasingIterator(text, text.size(), false), &handler);
  };
  GraphJsonReader reader(text.size(), layout->objects, std::nullopt);
  parse(reader);
  if (!reader.needs_tensor_count()) return reader.Finish(source_name);
  TensorCounter counter;
  parse(counter);
  GraphJsonReader second(text.size(), layout->objects, counter.counts());
  parse(second);
  return second.Finish(source_name);
}

}  // namespace tfa
