#include "libanalysis/profiles/xnnpack_rules.h"

namespace tfa {

std::span<const NamedRuleCheck> XnnpackRuleChecks() { return {}; }

}  // namespace tfa
