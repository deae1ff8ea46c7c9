// placeholder
#ifndef LIBANALYSIS_PROFILES_XNNPACK_RULES_H_
#define LIBANALYSIS_PROFILES_XNNPACK_RULES_H_

#include <span>

#include "libanalysis/profiles/rule_checks.h"

namespace tfa {

std::span<const NamedRuleCheck> XnnpackRuleChecks();

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_XNNPACK_RULES_H_
