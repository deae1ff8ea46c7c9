// The catalogue of synthetic models: what the real (float-only) corpus does not cover.
//
// Each model is built as Graph IR with ModelBuilder, so it reads back from .tflite unchanged, and
// with shapes that upstream's kernels accept (conv/pool/fc/concat/reshape outputs computed as
// their Prepare does), so that the runtime can execute it. Constant contents are deterministic.
#ifndef CORPUS_GENERATOR_SYNTHETIC_MODELS_H_
#define CORPUS_GENERATOR_SYNTHETIC_MODELS_H_

#include <string>
#include <vector>

#include "corpus/generator/model_builder.h"
#include "libanalysis/core/status.h"

namespace tfa {

// Catalogue names, in a fixed order; each is also the file stem tfa-generate writes.
std::vector<std::string> SyntheticModelNames();

// The model called `name` (Model::path is "<name>.tflite"); an error for unknown names.
Result<SyntheticModel> BuildSyntheticModel(const std::string& name);

}  // namespace tfa

#endif  // CORPUS_GENERATOR_SYNTHETIC_MODELS_H_
