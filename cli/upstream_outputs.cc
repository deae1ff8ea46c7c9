#include "cli/upstream_outputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string_view>

#include "cli/sha256.h"
#include "libanalysis/model/tensor_type.h"

namespace tfa::cli {
namespace {

enum class Rule { kRelative, kSteps, kExact };

Rule RuleFor(const runtime::RuntimeTensor& tensor) {
  if (tensor.type == TensorType::kFloat32) return Rule::kRelative;
  const bool quantized_type = tensor.type == TensorType::kInt8 ||
                              tensor.type == TensorType::kUInt8 ||
                              tensor.type == TensorType::kInt16;
  if (quantized_type && tensor.quantization && !tensor.quantization->scale.empty())
    return Rule::kSteps;
  return Rule::kExact;
}

// Element `i` as upstream's file writes it: the float, or the stored integer (quantized ones
// unscaled); nullopt for types the file cannot hold as a number.
std::optional<double> ElementValue(const runtime::RuntimeTensor& tensor, size_t i) {
  switch (tensor.type) {
    case TensorType::kFloat32:
      return tensor.Data<const float>()[i];
    case TensorType::kInt8:
      return tensor.Data<const int8_t>()[i];
    case TensorType::kUInt8:
      return tensor.Data<const uint8_t>()[i];
    case TensorType::kInt16:
      return tensor.Data<const int16_t>()[i];
    case TensorType::kInt32:
      return tensor.Data<const int32_t>()[i];
    case TensorType::kInt64:
      return static_cast<double>(tensor.Data<const int64_t>()[i]);
    case TensorType::kBool:
      return tensor.Data<const uint8_t>()[i] != 0 ? 1.0 : 0.0;
    default:
      return std::nullopt;
  }
}

// `got` against `want`, element by element, as `rule` says; the errors are relative to
// max(1, |want|) for floats, in steps for quantized integers, absolute otherwise.
void Accumulate(double got, double want, Rule rule, double tolerance, double tolerance_steps,
                OutputComparison& c) {
  const double abs_error = std::fabs(got - want);
  c.max_abs_error = std::max(c.max_abs_error, abs_error);
  switch (rule) {
    case Rule::kRelative:
      c.max_rel_error = std::max(c.max_rel_error, abs_error / std::max(1e-30, std::fabs(want)));
      c.max_error = std::max(c.max_error, abs_error / std::max(1.0, std::fabs(want)));
      if (!(abs_error <= tolerance * std::max(1.0, std::fabs(want)))) c.ok = false;
      break;
    case Rule::kSteps:
      c.max_error = c.max_abs_error;
      if (abs_error > tolerance_steps) c.ok = false;
      break;
    case Rule::kExact:
      c.max_error = c.max_abs_error;
      if (!(abs_error == 0)) c.ok = false;
      break;
  }
}

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& ch : out) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return out;
}

}  // namespace

Result<UpstreamOutputs> ReadUpstreamOutputs(const std::string& path) {
  const std::string flag = "--upstream-outputs " + path;
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(flag + ": cannot read the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const nlohmann::json j = nlohmann::json::parse(buffer.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("config") || !j["config"].is_string()) {
    return Status::Error(flag +
                         ": not upstream's results (a JSON object with `config` and "
                         "`output_tensors`, as the oracle's NAME.CONFIG.json)");
  }
  UpstreamOutputs upstream;
  upstream.path = path;
  upstream.config = j["config"].get<std::string>();
  const std::string status = j.value("status", std::string("ok"));
  if (status != "ok")
    return Status::Error(fmt::format("{}: upstream did not run this model ({})", flag, status));
  if (!j.contains("output_tensors") || !j["output_tensors"].is_array()) {
    const std::string invoke =
        j.contains("invoke") && j["invoke"].is_string()
            ? j["invoke"].get<std::string>()
            : "not invoked: config " + upstream.config + " selects nodes without running them";
    return Status::Error(
        fmt::format("{}: upstream's file holds no outputs (invoke: {})", flag, invoke));
  }
  if (!j.contains("input_seed") || !j["input_seed"].is_number_unsigned())
    return Status::Error(flag + ": no `input_seed`");
  upstream.input_seed = j["input_seed"].get<uint64_t>();
  for (const nlohmann::json& o : j["output_tensors"]) {
    UpstreamOutput out;
    // An empty output (a dynamic one with a zero dimension) has null values and hash.
    if (!o.is_object() || !o.contains("tensor") || !o["tensor"].is_number_integer() ||
        !o.contains("bytes") || !o["bytes"].is_number_unsigned() ||
        (o.contains("values") && !o["values"].is_array() && !o["values"].is_null())) {
      return Status::Error(flag + ": an output_tensors entry without tensor, bytes or values");
    }
    out.tensor = o["tensor"].get<int32_t>();
    out.name = o.value("name", std::string());
    out.type = o.value("type", std::string());
    out.bytes = o["bytes"].get<uint64_t>();
    if (o.contains("sha256") && o["sha256"].is_string())
      out.sha256 = o["sha256"].get<std::string>();
    const nlohmann::json values =
        o.contains("values") && o["values"].is_array() ? o["values"] : nlohmann::json::array();
    for (const nlohmann::json& v : values) {
      if (v.is_boolean()) {
        out.values.push_back(v.get<bool>() ? 1.0 : 0.0);
      } else if (v.is_number()) {
        out.values.push_back(v.get<double>());
      } else {
        return Status::Error(
            fmt::format("{}: output {} holds a value that is not a number", flag, out.tensor));
      }
    }
    upstream.outputs.push_back(std::move(out));
  }
  return upstream;
}

Status CheckUpstreamOutputsMatch(const UpstreamOutputs& upstream, const Subgraph& graph,
                                 uint64_t input_seed) {
  const std::string flag = "--upstream-outputs " + upstream.path;
  if (upstream.input_seed != input_seed) {
    return Status::Error(
        fmt::format("{}: upstream's outputs are for --input-seed {}, this run's inputs for {}",
                    flag, upstream.input_seed, input_seed));
  }
  std::vector<int32_t> outputs;
  for (int32_t t : graph.outputs)
    if (t >= 0) outputs.push_back(t);
  if (outputs.size() != upstream.outputs.size()) {
    return Status::Error(fmt::format("{}: upstream's file has {} outputs, the model {}", flag,
                                     upstream.outputs.size(), outputs.size()));
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    const UpstreamOutput& want = upstream.outputs[o];
    const Tensor& tensor = graph.tensors[static_cast<size_t>(outputs[o])];
    if (want.tensor != outputs[o] || Upper(TensorTypeName(tensor.type)) != Upper(want.type)) {
      return Status::Error(fmt::format(
          "{}: upstream's output {} is tensor {} ({}), the model's is tensor {} ({}): not "
          "upstream's results for this model",
          flag, o, want.tensor, want.type, outputs[o], TensorTypeName(tensor.type)));
    }
  }
  return Status::Ok();
}

UpstreamComparison CompareWithUpstream(const runtime::RuntimeTensor& got,
                                       const UpstreamOutput& want, const std::string& name,
                                       double tolerance, double tolerance_steps) {
  UpstreamComparison u;
  u.comparison = OutputComparison{want.tensor, name, 0, 0, 0, false, true};
  OutputComparison& c = u.comparison;
  u.values_total = static_cast<uint64_t>(got.NumElements());
  u.bit_identical =
      got.bytes == want.bytes &&
      (got.bytes == 0 || Sha256Hex(std::string_view(reinterpret_cast<const char*>(got.data),
                                                    got.bytes)) == want.sha256);
  if (got.bytes != want.bytes) {
    c.ok = false;
    return u;
  }
  const Rule rule = RuleFor(got);
  c.in_steps = rule == Rule::kSteps;
  const size_t n = std::min(want.values.size(), static_cast<size_t>(u.values_total));
  for (size_t i = 0; i < n; ++i) {
    const std::optional<double> value = ElementValue(got, i);
    if (!value) break;
    Accumulate(*value, want.values[i], rule, tolerance, tolerance_steps, c);
    ++u.values_compared;
  }
  // A type the file cannot hold as numbers is judged on its bytes' hash alone.
  if (u.values_compared == 0 && u.values_total > 0) c.ok = u.bit_identical;
  return u;
}

OutputComparison CompareUpstreamWith(const UpstreamOutput& upstream,
                                     const runtime::RuntimeTensor& reference,
                                     const std::string& name, double tolerance,
                                     double tolerance_steps) {
  OutputComparison c{upstream.tensor, name, 0, 0, 0, false, true};
  const Rule rule = RuleFor(reference);
  c.in_steps = rule == Rule::kSteps;
  const size_t n = std::min(upstream.values.size(), static_cast<size_t>(reference.NumElements()));
  for (size_t i = 0; i < n; ++i) {
    const std::optional<double> value = ElementValue(reference, i);
    if (!value) break;
    Accumulate(upstream.values[i], *value, rule, tolerance, tolerance_steps, c);
  }
  return c;
}

UpstreamVerdict JudgeUpstream(const UpstreamOutputs& upstream, std::string compared,
                              std::string tolerance,
                              const std::vector<UpstreamComparison>& comparisons,
                              const std::vector<OutputComparison>& upstream_vs_cpu) {
  UpstreamVerdict v;
  v.config = upstream.config;
  v.file = upstream.path;
  v.compared = std::move(compared);
  v.tolerance = std::move(tolerance);
  v.outputs = comparisons.size();
  std::vector<OutputComparison> outputs;
  for (const UpstreamComparison& u : comparisons) {
    v.matched &= u.comparison.ok;
    v.values_compared += u.values_compared;
    v.values_total += u.values_total;
    v.bit_identical_outputs += u.bit_identical;
    outputs.push_back(u.comparison);
  }
  v.worst = WorstOutput(outputs);
  if (!upstream_vs_cpu.empty()) v.upstream_drift = WorstOutput(upstream_vs_cpu);
  return v;
}

}  // namespace tfa::cli
