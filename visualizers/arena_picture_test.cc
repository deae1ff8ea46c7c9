#include "visualizers/arena_picture.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/report/report_builder.h"
#include "tests/support/test_paths.h"
#include "visualizers/visualizer_test_data.h"

namespace tfa::viz {
namespace {

size_t CountOccurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

ArenaAllocation Alloc(int32_t tensor, uint64_t offset, uint64_t size, int32_t first, int32_t last) {
  ArenaAllocation a;
  a.tensor = tensor;
  a.offset = offset;
  a.size = size;
  a.first_step = first;
  a.last_step = last;
  return a;
}

// The tiny graph's arena: image and conv overlap, sum aliases nothing, custom reuses image's bytes.
ArenaReport TinyArena() {
  ArenaReport arena;
  arena.size = 8192;
  arena.lower_bound = 6144;
  arena.peak_step = 1;
  arena.allocs = {Alloc(0, 0, 4096, 0, 0), Alloc(2, 4096, 4096, 0, 1), Alloc(3, 0, 2048, 1, 3),
                  Alloc(4, 2048, 1024, 2, 3)};
  ArenaAllocation alias = Alloc(5, 4096, 4096, 3, 3);
  alias.shares_buffer_of = 2;
  arena.allocs.push_back(alias);
  ArenaAllocation persistent = Alloc(6, 0, 64, 0, 3);
  persistent.persistent = true;
  arena.allocs.push_back(persistent);
  arena.allocs.push_back(Alloc(9, 7168, 1024, 2, 2));  // a kernel temporary (past the tensors)
  arena.persistent_size = 64;
  return arena;
}

TEST(ArenaPictureTest, OneRectanglePerAllocationAndTheMarkers) {
  ArenaPictureOptions options;
  options.title = "tiny <arena>";
  const std::string svg = RenderArenaSvg(TinyArena(), testing::TinySubgraph(), options);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(CountOccurrences(svg, "<rect class=\"alloc\""), 7u);
  EXPECT_EQ(CountOccurrences(svg, "<line class=\"peak\""), 1u);
  EXPECT_EQ(CountOccurrences(svg, "<line class=\"lower-bound\""), 1u);
  EXPECT_EQ(CountOccurrences(svg, "stroke-dasharray=\"6,4\""), 1u);
  EXPECT_EQ(CountOccurrences(svg, "fill-opacity=\"0.35\""), 2u);  // the alias and the legend
  EXPECT_EQ(CountOccurrences(svg, "<rect class=\"legend\""), 2u);
  EXPECT_NE(svg.find("in place: shares a buffer"), std::string::npos);
  EXPECT_NE(svg.find("arena size 8.2 kB"), std::string::npos);
  EXPECT_NE(svg.find("lower bound 6.1 kB"), std::string::npos);
  EXPECT_NE(svg.find("peak at step 1"), std::string::npos);
  EXPECT_NE(svg.find("persistent arena"), std::string::npos);
  EXPECT_NE(svg.find("tiny &lt;arena&gt;"), std::string::npos);
  EXPECT_NE(svg.find("<title>tensor 3 sum\n2.0 kB (2048 B) at offset 0\nsteps 1–3</title>"),
            std::string::npos);
  EXPECT_NE(svg.find("tensor 9 kernel temporary"), std::string::npos);
  EXPECT_NE(svg.find("shares the buffer of tensor 2"), std::string::npos);
}

TEST(ArenaPictureTest, AllocationsSpanTheirLifetimeAndOffsets) {
  ArenaReport arena;
  arena.size = 1000;
  arena.lower_bound = 1000;
  arena.allocs = {Alloc(0, 0, 1000, 0, 1)};
  ArenaPictureOptions options;
  options.width = 80 + 200 + 200;  // margins + 200 px of plot: 100 px per step
  options.height = 36 + 48 + 100;  // margins + 100 px of plot: 10 bytes per px
  const std::string svg = RenderArenaSvg(arena, testing::TinySubgraph(), options);
  EXPECT_NE(svg.find(R"(<rect class="alloc" x="80.00" y="36.00" width="200.00" height="100.00")"),
            std::string::npos)
      << svg;
}

TEST(ArenaPictureTest, ByteTicksAtRoundValuesAndLargeBlocksLabelled) {
  // A 20 MB arena whose 18.9 MB temporary lives one step of 300: labelled beside its sliver.
  ArenaReport arena;
  arena.size = 20'000'000;
  arena.lower_bound = 19'000'000;
  arena.peak_step = 150;
  arena.allocs = {Alloc(0, 0, 1'000'000, 0, 299), Alloc(9, 1'000'000, 18'900'000, 150, 150)};
  const std::string svg = RenderArenaSvg(arena, testing::TinySubgraph());
  for (const char* tick : {">0 B<", ">5.0 MB<", ">10.0 MB<", ">15.0 MB<", ">20.0 MB<"}) {
    EXPECT_NE(svg.find(tick), std::string::npos) << tick;
  }
  // The sliver is named beside itself; the long block holds its name inside.
  EXPECT_EQ(CountOccurrences(svg, "class=\"block-label\""), 2u);
  EXPECT_NE(svg.find(">tensor 9 kernel temporary 18.9 MB<"), std::string::npos);
  EXPECT_NE(svg.find(">tensor 0 image 1.0 MB<"), std::string::npos);
  for (const char* step : {">0<", ">50<", ">100<", ">250<"}) {
    EXPECT_NE(svg.find(step), std::string::npos) << step;
  }
}

// Every <text> of the picture as the box it takes, estimated as the picture estimates it (0.66 em
// a character, Helvetica's average is under 0.6): the "offset" axis title, drawn rotated, apart.
struct DrawnText {
  std::string text;
  double left = 0, top = 0, right = 0, bottom = 0;
};

std::vector<DrawnText> TextsOf(const std::string& svg) {
  std::vector<DrawnText> texts;
  const std::regex text_re(
      R"re(<text x="([-0-9.]+)" y="([-0-9.]+)" text-anchor="(\w+)"([^>]*)>([^<]*)</text>)re");
  const std::regex size_re(R"re(font-size="([0-9.]+)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text_re);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    const std::string attributes = m[4];
    if (attributes.find("rotate") != std::string::npos) continue;
    std::smatch size;
    const double font = std::regex_search(attributes, size, size_re) ? std::stod(size[1]) : 11;
    const std::string text = m[5];
    size_t characters = 0;
    for (unsigned char c : text) characters += (c & 0xC0) != 0x80;
    const double width = static_cast<double>(characters) * font * 0.66;
    const double x = std::stod(m[1]), y = std::stod(m[2]);
    const double left = m[3] == "start" ? x : m[3] == "end" ? x - width : x - width / 2;
    texts.push_back({text, left, y - font, left + width, y + font * 0.25});
  }
  return texts;
}

// No two texts of the picture overlap, and every one lies inside it.
void ExpectLegible(const std::string& svg, int width, int height, const std::string& what) {
  const std::vector<DrawnText> texts = TextsOf(svg);
  for (size_t i = 0; i < texts.size(); ++i) {
    const DrawnText& a = texts[i];
    EXPECT_TRUE(a.left >= 0 && a.right <= width && a.top >= 0 && a.bottom <= height)
        << what << ": '" << a.text << "' leaves the picture";
    for (size_t j = i + 1; j < texts.size(); ++j) {
      const DrawnText& b = texts[j];
      const bool overlap =
          a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      EXPECT_FALSE(overlap) << what << ": '" << a.text << "' overlaps '" << b.text << "'";
    }
  }
}

// Hundreds of blocks of every size, as a large model's arena has: names only where they fit.
TEST(ArenaPictureTest, LabelsNeverOverlapHoweverCrowdedTheArena) {
  ArenaReport arena;
  uint64_t offset = 0;
  for (int32_t i = 0; i < 600; ++i) {
    const uint64_t size = 64 * (1 + static_cast<uint64_t>((i * 7919) % 97));
    arena.allocs.push_back(Alloc(i % 6, offset % 500'000, size, i % 300, i % 300 + (i % 13)));
    offset += size * 3;
  }
  arena.allocs.push_back(Alloc(9, 0, 900'000, 120, 120));  // a large one-step temporary
  arena.allocs.push_back(Alloc(8, 0, 850'000, 121, 121));  // and its neighbour
  arena.size = 1'000'000;
  arena.lower_bound = 990'000;  // close to the size: the two markers' labels meet
  arena.peak_step = 120;
  ArenaAllocation persistent = Alloc(7, 0, 4096, 0, 299);
  persistent.persistent = true;
  arena.allocs.push_back(persistent);
  arena.persistent_size = 4096;
  ArenaPictureOptions options;
  ExpectLegible(RenderArenaSvg(arena, testing::TinySubgraph(), options), options.width,
                options.height, "crowded");
  ExpectLegible(RenderArenaSvg(TinyArena(), testing::TinySubgraph(), options), options.width,
                options.height, "tiny");
}

TEST(ArenaPictureTest, EmptyArenaSaysSo) {
  const std::string svg = RenderArenaSvg(ArenaReport{}, testing::TinySubgraph());
  EXPECT_EQ(CountOccurrences(svg, "<rect class=\"alloc\""), 0u);
  EXPECT_NE(svg.find("no arena allocations"), std::string::npos);
}

TEST(ArenaPictureTest, CorpusModelArenaFromTheReport) {
  Result<Model> model =
      LoadModelFile(tfa::testing::CorpusModelPath("face_detection__face_detection_short_range"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  Result<Report> report = BuildReport(*model, {});
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_TRUE(report->subgraphs[0].arena.has_value());
  const ArenaReport& arena = *report->subgraphs[0].arena;
  ASSERT_FALSE(arena.allocs.empty());
  const std::string svg = RenderArenaSvg(arena, model->subgraphs[0]);
  EXPECT_EQ(CountOccurrences(svg, "<rect class=\"alloc\""), arena.allocs.size());
}

TEST(ArenaPictureTest, EveryCorpusModelsArenaIsLegible) {
  for (const std::string& name : tfa::testing::CorpusModelNames()) {
    Result<Model> model = LoadModelFile(tfa::testing::CorpusModelPath(name));
    ASSERT_TRUE(model.ok()) << model.status().message();
    Result<Report> report = BuildReport(*model, {});
    ASSERT_TRUE(report.ok()) << report.status().message();
    const ArenaPictureOptions options;
    ExpectLegible(RenderArenaSvg(*report->subgraphs[0].arena, model->subgraphs[0]), options.width,
                  options.height, name);
  }
}

}  // namespace
}  // namespace tfa::viz
