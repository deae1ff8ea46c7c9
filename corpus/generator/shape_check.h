// Independent check that a generated model's shapes are the ones upstream's kernels compute in
// Prepare, so that a runtime can execute it: conv/depthwise/pool windows, fully connected
// flattening, concatenation, reshape, broadcasting element-wise ops, shape-preserving ops, and
// control-flow operands against the called subgraphs' inputs and outputs. Ops it does not know
// are not checked. tfa-generate runs it before writing a model.
#ifndef CORPUS_GENERATOR_SHAPE_CHECK_H_
#define CORPUS_GENERATOR_SHAPE_CHECK_H_

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// The first inconsistency, as "subgraph S: node N (OP): reason".
Status CheckShapes(const Model& model);

}  // namespace tfa

#endif  // CORPUS_GENERATOR_SHAPE_CHECK_H_
