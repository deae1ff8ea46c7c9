#include "libanalysis/model/unmodelled_builtin_options.h"

#include <flatbuffers/flexbuffers.h>

#include <string>

namespace tfa {
namespace {

// The map in `bytes`, verified: custom_options may come from anywhere a Graph IR does.
Result<flexbuffers::Map> ReadMap(const std::vector<uint8_t>& bytes) {
  flexbuffers::Verifier verifier(bytes.data(), bytes.size(), /*reuse_tracker=*/nullptr,
                                 /*_check_alignment=*/false);
  if (!verifier.VerifyBuffer()) {
    return Status::Error("builtin options are not a valid flexbuffer (" +
                         std::to_string(bytes.size()) + " bytes)");
  }
  const flexbuffers::Reference root = flexbuffers::GetRoot(bytes.data(), bytes.size());
  if (!root.IsMap()) return Status::Error("builtin options are not a flexbuffer map");
  return root.AsMap();
}

}  // namespace

bool HasUnmodelledBuiltinOptions(std::string_view op) {
  return op == "FAKE_QUANT" || op == "EMBEDDING_LOOKUP_SPARSE" || op == "RANDOM_UNIFORM" ||
         op == "RANDOM_STANDARD_NORMAL" || op == "MULTINOMIAL";
}

std::vector<uint8_t> EncodeFakeQuantParameters(const FakeQuantParameters& p) {
  flexbuffers::Builder builder;
  builder.Map([&] {
    builder.Float("min", p.min);
    builder.Float("max", p.max);
    builder.Int("num_bits", p.num_bits);
    builder.Bool("narrow_range", p.narrow_range);
  });
  builder.Finish();
  return builder.GetBuffer();
}

Result<FakeQuantParameters> FakeQuantParametersOf(const OpOptions& options) {
  FakeQuantParameters p;
  if (options.custom_options.empty()) return p;
  auto map = ReadMap(options.custom_options);
  if (!map.ok()) return map.status();
  p.min = (*map)["min"].AsFloat();
  p.max = (*map)["max"].AsFloat();
  p.num_bits = (*map)["num_bits"].AsInt32();
  p.narrow_range = (*map)["narrow_range"].AsBool();
  return p;
}

std::vector<uint8_t> EncodeEmbeddingLookupSparseCombiner(int32_t combiner) {
  flexbuffers::Builder builder;
  builder.Map([&] { builder.Int("combiner", combiner); });
  builder.Finish();
  return builder.GetBuffer();
}

Result<int32_t> EmbeddingLookupSparseCombinerOf(const OpOptions& options) {
  if (options.custom_options.empty()) return 0;
  auto map = ReadMap(options.custom_options);
  if (!map.ok()) return map.status();
  return (*map)["combiner"].AsInt32();
}

std::vector<uint8_t> EncodeRandomSeeds(const RandomSeeds& seeds) {
  flexbuffers::Builder builder;
  builder.Map([&] {
    builder.Int("seed", seeds.seed);
    builder.Int("seed2", seeds.seed2);
  });
  builder.Finish();
  return builder.GetBuffer();
}

Result<RandomSeeds> RandomSeedsOf(const OpOptions& options) {
  RandomSeeds seeds;
  if (options.custom_options.empty()) return seeds;
  auto map = ReadMap(options.custom_options);
  if (!map.ok()) return map.status();
  seeds.seed = (*map)["seed"].AsInt64();
  seeds.seed2 = (*map)["seed2"].AsInt64();
  return seeds;
}

}  // namespace tfa
