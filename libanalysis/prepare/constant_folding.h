// Builtin kernels that compute their output in Prepare when every input it depends on is known
// then (a model constant or an output an earlier kernel folded): the output becomes
// kTfLitePersistentRo, heap memory outside both arenas, and later kernels treat it as constant.
// Shape-reporting ops (SHAPE, RANK, SIZE) always fold; RANGE with an unknown bound is sized at
// Eval instead.
#ifndef LIBANALYSIS_PREPARE_CONSTANT_FOLDING_H_
#define LIBANALYSIS_PREPARE_CONSTANT_FOLDING_H_

#include <optional>

#include "libanalysis/model/graph.h"
#include "libanalysis/prepare/builtin_kernel_prepare.h"

namespace tfa {

// The effect of `node`'s Prepare when it is one of the folding kernels; nullopt for other ops.
std::optional<KernelPrepareEffect> PrepareConstantFolding(const Subgraph& subgraph,
                                                          const Node& node);

}  // namespace tfa

#endif  // LIBANALYSIS_PREPARE_CONSTANT_FOLDING_H_
