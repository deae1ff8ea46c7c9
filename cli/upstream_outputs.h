// `run --validate --upstream-outputs FILE.json`: the run's outputs against upstream TFLite's own
// outputs for the same configuration, as the oracle files `NAME.CONFIG.json` hold them (config
// `none`: the builtin kernels; `xnnpack`: upstream's XNNPACK delegate; fields `config`,
// `input_seed`, `output_tensors` [{tensor, name, type, bytes, sha256, values: the first 4096
// elements}]). A delegate's outputs may drift from the CPU kernels' on a graph that amplifies
// rounding; when upstream's own delegate drifts the same way, the drift is upstream's, and only
// this comparison can tell it from drift of this runtime's own.
#ifndef CLI_UPSTREAM_OUTPUTS_H_
#define CLI_UPSTREAM_OUTPUTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cli/run_verdict.h"
#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "runtime/kernel.h"

namespace tfa::cli {

struct UpstreamOutput {
  int32_t tensor = 0;
  std::string name;
  std::string type;  // upstream's spelling: "FLOAT32", "INT8"
  uint64_t bytes = 0;
  std::string sha256;          // of all the output's bytes
  std::vector<double> values;  // the first elements (upstream's files keep up to 4096)
};

struct UpstreamOutputs {
  std::string path;
  std::string config;  // "none", "xnnpack", "gpu"
  uint64_t input_seed = 0;
  std::vector<UpstreamOutput> outputs;
};

// Reads upstream's results file. A file without outputs is an error that says why upstream has
// none (its own failure, an Invoke it skipped, a config that only selects nodes).
Result<UpstreamOutputs> ReadUpstreamOutputs(const std::string& path);

// The file can judge a run of `graph` with `input_seed`: the same seed, and the same outputs
// (tensor, type, byte count) in the same order. Errors name the first that differs.
Status CheckUpstreamOutputsMatch(const UpstreamOutputs& upstream, const Subgraph& graph,
                                 uint64_t input_seed);

// One output against upstream's: the elements upstream's file holds, float32 within `tolerance` of
// max(1, |upstream|), int8, uint8 and int16 with a scale within `tolerance_steps` quantization
// steps, other types exactly.
struct UpstreamComparison {
  OutputComparison comparison;
  uint64_t values_compared = 0;
  uint64_t values_total = 0;
  bool bit_identical = false;  // the SHA-256 of all the output's bytes is upstream's
};
UpstreamComparison CompareWithUpstream(const runtime::RuntimeTensor& got,
                                       const UpstreamOutput& want, const std::string& name,
                                       double tolerance, double tolerance_steps);

// Upstream's outputs against `reference` (the CPU-only run's), relative to max(1, |reference|):
// how far upstream's own delegate is from the CPU kernels.
OutputComparison CompareUpstreamWith(const UpstreamOutput& upstream,
                                     const runtime::RuntimeTensor& reference,
                                     const std::string& name, double tolerance,
                                     double tolerance_steps);

// The upstream part of the verdict from each output's comparison, made with `tolerance` (in words)
// against `compared` (the run of this tool that met upstream's outputs); `upstream_vs_cpu`, when
// the file is the delegated run's config, is each of upstream's outputs against the CPU-only run.
UpstreamVerdict JudgeUpstream(const UpstreamOutputs& upstream, std::string compared,
                              std::string tolerance,
                              const std::vector<UpstreamComparison>& comparisons,
                              const std::vector<OutputComparison>& upstream_vs_cpu);

}  // namespace tfa::cli

#endif  // CLI_UPSTREAM_OUTPUTS_H_
