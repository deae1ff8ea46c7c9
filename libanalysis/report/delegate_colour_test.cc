#include "libanalysis/report/delegate_colour.h"

#include <gtest/gtest.h>

#include <set>

namespace tfa {
namespace {

TEST(DelegateColour, SameNameSameColourAcrossCalls) {
  EXPECT_EQ(ColourOfDelegate("gpu").stroke, ColourOfDelegate("gpu").stroke);
  EXPECT_EQ(ColourOfDelegate("gpu").fill, ColourOfDelegate("gpu").fill);
}

TEST(DelegateColour, PinnedColoursOfTheBuiltInProfiles) {
  // FNV-1a of the name, modulo the eight palette entries: fixed forever, so pictures and overlays
  // of one delegate look alike from one release to the next.
  EXPECT_EQ(ColourOfDelegate("gpu").stroke, "#8c564b");
  EXPECT_EQ(ColourOfDelegate("xnnpack").stroke, "#2ca02c");
}

TEST(DelegateColour, NeverRedAndAlwaysHex) {
  std::set<std::string> strokes;
  for (const char* name : {"gpu", "xnnpack", "nnapi", "add-sub", "sin", "ops=ADD", "a", "b", "c",
                           "d", "e", "f", "g", "h", "i", "j"}) {
    const DelegateColour colour = ColourOfDelegate(name);
    EXPECT_NE(colour.stroke, "#d62728") << name;
    EXPECT_EQ(colour.stroke.size(), 7u) << name;
    EXPECT_EQ(colour.fill.size(), 7u) << name;
    EXPECT_EQ(colour.fill[0], '#') << name;
    strokes.insert(colour.stroke);
  }
  EXPECT_GT(strokes.size(), 4u);  // names spread over the palette
}

TEST(DelegateColour, CpuIsGrey) {
  EXPECT_EQ(CpuColour().stroke, "#7f7f7f");
  EXPECT_EQ(CpuColour().fill, "#ececec");
}

}  // namespace
}  // namespace tfa
