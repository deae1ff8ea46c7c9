#include "visualizers/arena_picture.h"

#include <gtest/gtest.h>

#include <string>

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
  options.width = 80 + 170 + 200;  // margins + 200 px of plot: 100 px per step
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
  EXPECT_EQ(CountOccurrences(svg, "class=\"block-label\""), 1u);
  EXPECT_NE(svg.find(">tensor 9 kernel temporary 18.9 MB<"), std::string::npos);
  for (const char* step : {">0<", ">50<", ">100<", ">250<"}) {
    EXPECT_NE(svg.find(step), std::string::npos) << step;
  }
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

}  // namespace
}  // namespace tfa::viz
