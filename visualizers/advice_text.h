// The advisor's findings as text: the section `report --advise` prints and the HTML report shows.
#ifndef VISUALIZERS_ADVICE_TEXT_H_
#define VISUALIZERS_ADVICE_TEXT_H_

#include <string>

#include "libanalysis/model/graph.h"
#include "libanalysis/report/advisor.h"

namespace tfa {

// Several lines ending in '\n'; `subgraph` names the nodes' ops.
std::string AdviceText(const DelegationAdvice& advice, const Subgraph& subgraph);

}  // namespace tfa

#endif  // VISUALIZERS_ADVICE_TEXT_H_
