// A delegate profile: what one delegate accepts, node by node, and how it partitions.
//
// Profiles are declarative JSON (format "tflite-analyze-profile/1", see
// libanalysis/profiles/builtin/README.md): a list of op rules (builtin name or custom code, maximum
// op version, tensor types, ranks, fused activations, constant weights, broadcasting, strides,
// plus named checks implemented in C++ for rules too intricate to declare, see rule_checks.h),
// the delegate's options with their defaults, its partition options and its transfer costs.
// The built-in profiles (gpu, xnnpack, nnapi, add-sub, sin, flex) are such files compiled into the
// library; a user profile is a path to one. Two short forms need no file: `ops=ADD,SUB` claims
// every node whose op is listed, `nodes=0,3,5` claims exactly those node indices.
#ifndef LIBANALYSIS_PROFILES_DELEGATE_PROFILE_H_
#define LIBANALYSIS_PROFILES_DELEGATE_PROFILE_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

// What decides a node's verdict.
enum class ProfileKind : uint8_t {
  kRules,  // op rules (built-in profiles and profile files)
  kOps,    // `ops=A,B`: every node whose op name is listed, nothing else checked
  kNodes,  // `nodes=i,j`: exactly these node indices
  // A runtime delegate that answers node by node itself (a plugin's IsNodeSupported).
  kPredicate,
};

// One op the delegate may take, and the conditions under which it does.
struct OpRule {
  std::string op;  // builtin name ("CONV_2D") or, when `custom`, the custom code
  bool custom = false;
  // Custom ops: the rule takes every custom code that starts with `op` (upstream's IsFlexOp
  // takes every code starting with "Flex").
  bool prefix = false;
  int32_t max_version = 0;  // 0: any version
  // The delegate only considers the op when this boolean option is true (e.g. the GPU
  // delegate's QUANTIZE/DEQUANTIZE need allow_quant_ops); otherwise it is an unlisted op.
  std::string requires_option;
  // Element types every present input (constants included) / output must have; empty: any.
  std::vector<TensorType> input_types;
  std::vector<TensorType> output_types;
  // Ranks every present input and output must have; -1: unbounded.
  int32_t min_rank = -1;
  int32_t max_rank = -1;
  std::vector<Activation> fused_activation_in;  // empty: any fused activation
  bool constant_weights = false;                // inputs 1 and up (weights, bias) must be constants
  bool allow_broadcast = true;      // false: all non-constant inputs must have the same shape
  int32_t max_stride = 0;           // 0: any stride
  std::vector<std::string> checks;  // named C++ checks run after the declared ones, in order
  std::string source;               // the upstream file this rule reproduces
  // A deny-list entry: the op is refused (DelegateProfile::denied_reason), whatever else holds.
  bool denied = false;
  // Compiler plugins: the partition index the plugin pushes the op with (LiteRtPushOp); ops
  // with different indices never share a partition.
  uint32_t partition_index = 0;
};

// A LiteRT compiler plugin replayed as CompiledModel runs it (litert/compiler/plugin/
// compiler_plugin.cc): its selected ops are grouped by GroupPartitionsV2 and outlined behind one
// dispatch op per partition before the interpreter is built, instead of going through TFLite's
// partitioner and keep-N-largest.
struct CompilerPluginSettings {
  std::string vendor;        // "qualcomm", as `--accelerator npu:VENDOR` names it
  std::string manufacturer;  // LiteRtGetCompilerPluginSocManufacturer
};

struct PartitionSettings {
  // Keep this many largest partitions (upstream's max_delegated_partitions).
  int32_t max_partitions = std::numeric_limits<int32_t>::max();
  int32_t min_nodes_per_partition = 0;
  bool greedy = true;
  // Upstream's FP16GraphPartitionHelper (constant fp16 -> fp32 DEQUANTIZE nodes held back).
  bool fp16_helper = false;
  // The NNAPI delegate (StatefulNnApiDelegate::DoPrepare): the FP16 helper only when the plan has
  // a constant fp16 DEQUANTIZE (GetSupportedOpsWithFp16WeightRemapping), and otherwise
  // LimitDelegatedPartitions, for which max_partitions <= 0 keeps every partition.
  bool fp16_helper_with_fp16_weights = false;
  bool nonpositive_max_partitions_means_all = false;
  // The integer option (e.g. max_number_delegated_partitions) that sets max_partitions.
  std::string max_partitions_option;
  // The GPU delegate turns max_delegated_partitions <= 0 into 1.
  bool nonpositive_max_partitions_means_one = false;
  // XNNPACK's PrepareOpsToDelegate after the visits (ApplyXnnpackPrepareOpsToDelegate): a node
  // unpacking static weights stays on the CPU when a consumer fails its visit, and VAR_HANDLE
  // nodes of variables the delegate reads or assigns join it.
  bool static_unpack_follows_consumers = false;

  // max_partitions as the delegate applies it.
  int32_t EffectiveMaxPartitions() const;
  // Whether the FP16 partition helper runs on `subgraph`.
  bool UsesFp16Helper(const Subgraph& subgraph) const;
  // max_partitions as the delegate applies it, given whether the FP16 helper runs.
  int32_t EffectiveMaxPartitions(bool fp16_helper_runs) const;
};

// Cost of moving tensors across the CPU/delegate boundary, for estimated copy times.
struct TransferCosts {
  double bandwidth_bytes_per_second = 0;  // 0: copies are free
  double transition_latency_seconds = 0;  // per CPU <-> delegate transition
  // The delegate's kernels read and write TFLite's tensor buffers where they lie, so nothing
  // crosses the boundary: XNNPACK binds the tensors' data pointers to its runtime as external
  // values on Invoke (tflite/delegates/xnnpack/xnnpack_delegate.cc, Subgraph::Invoke) and repacks
  // its weights into its own memory (delegate memory, not copies).
  bool in_place = false;

  double EstimatedCopySeconds(uint64_t bytes, int64_t transitions) const;
};

// What the delegate's kernels do to memory, for the Prepare replay (libanalysis/prepare).
struct KernelSettings {
  // "gpu": upstream's GPU delegate kernel (its temporaries and float twins of quantized tensors);
  // empty: an opaque kernel that adds nothing (claim-by-op delegates, samples, XNNPACK).
  std::string delegate_kernel;
  // False for delegates registered with kTfLiteDelegateFlagsAllowDynamicTensors (XNNPACK): the
  // interpreter then delegates before any CPU Prepare runs.
  bool prepare_before_delegation = true;
};

// A delegate option as upstream names it: a boolean, or an integer within [min, max] (declared
// in the profile as {"default": 30, "min": 27, "max": 35}).
struct ProfileOption {
  enum class Kind : uint8_t { kBool, kInt };
  Kind kind = Kind::kBool;
  bool value = false;        // kBool
  int64_t number = 0;        // kInt
  int64_t min = 0, max = 0;  // kInt: the accepted range
  std::string description;
};

// How far a profile's rules are known to match upstream:
//   kVerified     reproduced against upstream's own results in tests (gpu, xnnpack);
//   kTranscribed  written from upstream's source, not run against upstream (nnapi, and add-sub,
//                 the custom-delegate guide's sample);
//   kUser         anything else: a profile file given by path (even a copy of a built-in one),
//                 `ops=` / `nodes=` claims, and the made-up `sin` delegate.
enum class ProfileTrust : uint8_t { kVerified, kTranscribed, kUser };
const char* ProfileTrustName(ProfileTrust trust);  // "verified", "transcribed", "user"

struct DelegateProfile {
  std::string name;  // "gpu", "ops=ADD,SUB", a file's "name" field
  ProfileTrust trust = ProfileTrust::kUser;
  std::string description;
  std::string source;  // upstream file(s) the profile reproduces
  ProfileKind kind = ProfileKind::kRules;
  // InterpreterBuilder applies the delegate itself, before every delegate the user adds, and
  // only to a model with an op the delegate claims: upstream's Flex delegate
  // (tflite/core/interpreter_builder.cc, ApplyDelegates when has_flex_op_).
  bool applied_at_build = false;
  // Set for a compiler plugin (`--accelerator npu:VENDOR`): applied first, grouped as upstream.
  std::optional<CompilerPluginSettings> compiler_plugin;

  std::vector<OpRule> ops;
  // Builtin ops without a rule are taken as if by a rule with no conditions (a plugin that lists
  // the ops it refuses, as Google Tensor's does); custom ops still need a rule.
  bool unlisted_builtin_supported = false;
  std::vector<std::string> claimed_ops;  // kOps
  std::vector<int32_t> claimed_nodes;    // kNodes
  // kPredicate: whether the delegate takes node `node` of the plan it is shown.
  std::function<bool(const Subgraph& subgraph, int32_t node)> supports_node;

  // Reason for a builtin op without a rule; for a custom op without a rule, with "{custom}"
  // replaced by its custom code. "{op}" is replaced by the op name and "{node}" by the node index
  // in both.
  std::string unlisted_reason = "op {op} is not supported by this delegate";
  std::string unlisted_custom_reason = "custom op {custom} is not supported by this delegate";
  // Reason for an op above its rule's max_version; "{max}" and "{version}" are replaced.
  std::string version_reason = "op version {version} above the supported maximum {max}";
  // Reason for an op whose rule is `denied`; "{op}" is replaced.
  std::string denied_reason = "op {op} is on the delegate's list of unsupported ops";
  // Named checks run on every node whose op rule passed (e.g. the GPU delegate's tensor types).
  std::vector<std::string> node_checks;
  // Ops treated as unlisted while the named boolean option is false.
  std::map<std::string, std::vector<std::string>> ops_excluded_unless;

  std::map<std::string, ProfileOption> options;
  PartitionSettings partition;
  TransferCosts transfer;
  KernelSettings kernel;

  // Sets a declared option from "true"/"false" (also 1/0), or an integer option from a decimal
  // number within its range; unknown keys and values out of range are errors naming the
  // profile's options or the range.
  Status SetOption(const std::string& key, const std::string& value);
  // The boolean option's value; false when the profile does not declare it.
  bool OptionEnabled(const std::string& key) const;
  // The integer option's value; 0 when the profile does not declare it.
  int64_t OptionNumber(const std::string& key) const;
  // The rule for `node` (by builtin name or custom code), or nullptr.
  const OpRule* FindRule(const Node& node) const;
  // Whether a rule of this profile names `node`'s op (rule profiles only; conditions unchecked).
  bool HasRuleFor(const Node& node) const { return kind == ProfileKind::kRules && FindRule(node); }
};

// Parses a profile file's text. `source_name` names it in errors.
Result<DelegateProfile> ParseDelegateProfileJson(std::string_view text,
                                                 const std::string& source_name);

// The names of the built-in profiles, in a stable order.
std::vector<std::string> BuiltinProfileNames();

// An `ops=` profile may name builtin ops and the ops (custom codes, Graph JSON op names) of
// `model`'s nodes; any other name is a typo that would silently claim nothing, refused with the
// closest known name. Other profiles pass.
Status CheckClaimedOpNames(const DelegateProfile& profile, const Model& model);

// Resolves a --delegate argument: a built-in name, `ops=A,B`, `nodes=i,j`, or a profile path.
Result<DelegateProfile> ResolveDelegateProfile(const std::string& spec);

}  // namespace tfa

#endif  // LIBANALYSIS_PROFILES_DELEGATE_PROFILE_H_
