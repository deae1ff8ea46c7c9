// The oldest TFLite / LiteRT runtime that can run a model, from the versions of its builtin ops.
//
// A runtime's op resolver registers each builtin op up to some version; a model that needs a
// higher one fails to build its interpreter ("Didn't find op for builtin opcode 'CONV_2D' version
// '8'"). Upstream keeps a table of the runtime release that first shipped each (op, version) pair
// and stamps the highest into the model's "min_runtime_version" metadata when the converter writes
// it. This is that table and that maximum, read from the model's nodes rather than its metadata.
//
// What it guarantees: the figure is upstream's, pair for pair. What it does not: pairs upstream's
// table does not list (newer ops, most STABLEHLO ops, versions added after the table was last
// updated) have no figure, so the minimum is a lower bound when `unknown` is not empty. Custom ops
// and delegate kernels are not builtin ops and are left out.
#ifndef LIBANALYSIS_MODEL_RUNTIME_VERSION_H_
#define LIBANALYSIS_MODEL_RUNTIME_VERSION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libanalysis/model/graph.h"

namespace tfa {

// Upstream's minimum runtime version for a builtin op at a version ("1.5.0" for CONV_2D version
// 1); empty when its table does not list the pair (custom ops included).
[[nodiscard]] std::string MinimumRuntimeVersionForOp(int32_t builtin_code, int32_t version);

// Compares dotted versions number by number: negative when a is older than b, 0 when equal,
// positive when newer ("2.10.0" is newer than "2.9.0"). The empty string is older than any
// version. When one is a prefix of the other the longer is newer, as upstream orders them.
[[nodiscard]] int CompareRuntimeVersions(std::string_view a, std::string_view b);

struct OpVersionRequirement {
  std::string op;  // upstream's builtin name ("CONV_2D")
  int32_t version = 1;
  std::string runtime_version;  // empty when upstream's table does not list the pair

  bool operator==(const OpVersionRequirement&) const = default;
};

struct RuntimeVersionRequirement {
  // The highest runtime version over the model's builtin ops; empty when none is known.
  std::string minimum;
  // The distinct (op, version) pairs whose runtime version is `minimum`: the ops that set it.
  // Sorted by op name, then version.
  std::vector<OpVersionRequirement> setting_ops;
  // The distinct builtin (op, version) pairs upstream's table does not list, so it cannot say
  // which runtime they need. Sorted by op name, then version.
  std::vector<OpVersionRequirement> unknown;
};

// Over every builtin node of every subgraph; custom ops and delegate kernels are skipped.
[[nodiscard]] RuntimeVersionRequirement MinimumRuntimeVersion(const Model& model);

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_RUNTIME_VERSION_H_
