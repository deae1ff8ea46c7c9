// The colour a delegate is shown in, wherever it is shown: the partition graph and the HTML report
// (visualizers/palette.h) and the Model Explorer overlays (model_explorer_overlays.h), the same
// from one model and one run to the next.
#ifndef LIBANALYSIS_REPORT_DELEGATE_COLOUR_H_
#define LIBANALYSIS_REPORT_DELEGATE_COLOUR_H_

#include <string>
#include <string_view>

namespace tfa {

struct DelegateColour {
  std::string stroke;  // borders, boundary edges ("#1f77b4")
  std::string fill;    // a light tint of it, for backgrounds under dark text
};

// One of eight colours, picked by a hash of the name (FNV-1a, not std::hash, so it is the same on
// every platform and run). Red is never used: it marks unsupported nodes. Two delegates may share
// a colour, so labels always name the delegate.
DelegateColour ColourOfDelegate(std::string_view delegate);

// What the CPU runs is grey.
DelegateColour CpuColour();

}  // namespace tfa

#endif  // LIBANALYSIS_REPORT_DELEGATE_COLOUR_H_
