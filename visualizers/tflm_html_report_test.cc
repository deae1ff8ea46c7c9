#include "visualizers/tflm_html_report.h"

#include <gtest/gtest.h>

#include <string>

#include "libanalysis/model/model_loader.h"
#include "tests/support/test_paths.h"

namespace tfa::viz {
namespace {

size_t Count(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

// The TFLM page: the figures, the head as the arena picture, one table row per tail item.
TEST(TflmHtmlReport, HeadIsAPictureAndTailATable) {
  auto model = LoadModelFile(testing::OraclePath(
      "external/tflite-micro__tensorflow_lite_micro_models_keyword_scrambled.tflite"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto arena = tflm::ReplayMicroAllocator(*model, tflm::Target::kHost64);
  ASSERT_TRUE(arena.ok()) << arena.status().message();

  const TflmHeadPicture picture = TflmHeadAsArena(*model, *arena);
  ASSERT_EQ(picture.arena.allocs.size(), arena->head_buffers.size());
  EXPECT_EQ(picture.arena.size, 672u);
  EXPECT_LE(picture.arena.lower_bound, picture.arena.size);
  // Scratch buffers are named after their node, past the model's tensors.
  EXPECT_EQ(picture.names.tensors.size(),
            model->subgraphs[0].tensors.size() + arena->scratch_buffer_count);
  EXPECT_NE(picture.names.tensors.back().name.find("scratch of node"), std::string::npos);

  const std::string html = RenderTflmHtmlReport(*model, *arena);
  EXPECT_EQ(Count(html, "<svg"), 1u);
  EXPECT_NE(html.find("<td class=\"num\">672</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">14264</td>"), std::string::npos);
  // The tail table: a header row, then one row per item.
  const size_t tail_table = html.find("<h2>Tail</h2>");
  ASSERT_NE(tail_table, std::string::npos);
  EXPECT_EQ(Count(html.substr(tail_table), "<tr>"), arena->tail_items.size() + 1);
}

}  // namespace
}  // namespace tfa::viz
