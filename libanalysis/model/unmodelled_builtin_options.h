// Builtin options of the ops OpOptions has no fields for (FAKE_QUANT's range and bit width,
// EMBEDDING_LOOKUP_SPARSE's combiner, the random ops' seeds). A
// builtin op has no custom options of its own, so the loader keeps these in the node's
// OpOptions::custom_options, as a flexbuffer map keyed by upstream's field names (schema.fbs);
// the Prepare replay, the kernels and the model writer read them back here. A node without the
// map reads as upstream's zero-initialised parameters (a missing builtin_options table).
#ifndef LIBANALYSIS_MODEL_UNMODELLED_BUILTIN_OPTIONS_H_
#define LIBANALYSIS_MODEL_UNMODELLED_BUILTIN_OPTIONS_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// Whether `op` (a builtin name) keeps its builtin options in custom_options.
bool HasUnmodelledBuiltinOptions(std::string_view op);

// FakeQuantOptions (TfLiteFakeQuantParams).
struct FakeQuantParameters {
  float min = 0.0f;
  float max = 0.0f;
  int32_t num_bits = 0;
  bool narrow_range = false;
  bool operator==(const FakeQuantParameters&) const = default;
};

[[nodiscard]] std::vector<uint8_t> EncodeFakeQuantParameters(const FakeQuantParameters& p);
// Errors when custom_options holds something other than such a map.
[[nodiscard]] Result<FakeQuantParameters> FakeQuantParametersOf(const OpOptions& options);

// EmbeddingLookupSparseOptions.combiner (CombinerType: SUM 0, MEAN 1, SQRTN 2).
[[nodiscard]] std::vector<uint8_t> EncodeEmbeddingLookupSparseCombiner(int32_t combiner);
[[nodiscard]] Result<int32_t> EmbeddingLookupSparseCombinerOf(const OpOptions& options);

// RandomOptions (RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL, MULTINOMIAL).
struct RandomSeeds {
  int64_t seed = 0;
  int64_t seed2 = 0;
  bool operator==(const RandomSeeds&) const = default;
};

[[nodiscard]] std::vector<uint8_t> EncodeRandomSeeds(const RandomSeeds& seeds);
[[nodiscard]] Result<RandomSeeds> RandomSeedsOf(const OpOptions& options);

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_UNMODELLED_BUILTIN_OPTIONS_H_
