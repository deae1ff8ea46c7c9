#include "cli/run_verdict.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace tfa::cli {
namespace {

// The quantized integers of an int8, uint8 or int16 tensor with a scale, widened; nullopt for
// other tensors.
std::optional<std::vector<int32_t>> QuantizedValues(const runtime::RuntimeTensor& tensor) {
  if (!tensor.quantization || tensor.quantization->scale.empty()) return std::nullopt;
  const int64_t n = tensor.NumElements();
  std::vector<int32_t> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    switch (tensor.type) {
      case TensorType::kInt8:
        values[static_cast<size_t>(i)] = tensor.Data<const int8_t>()[i];
        break;
      case TensorType::kUInt8:
        values[static_cast<size_t>(i)] = tensor.Data<const uint8_t>()[i];
        break;
      case TensorType::kInt16:
        values[static_cast<size_t>(i)] = tensor.Data<const int16_t>()[i];
        break;
      default:
        return std::nullopt;
    }
  }
  return values;
}

std::string OutputLine(const OutputComparison& c, const std::string& symbol) {
  return fmt::format("output {} ({}) {}", c.tensor, c.name, ErrorText(c, symbol.c_str()));
}

nlohmann::ordered_json ComparisonJson(const OutputComparison& c) {
  return {{"tensor", c.tensor},
          {"name", c.name},
          {"max_error", c.max_error},
          {"max_abs_error", c.max_abs_error},
          {"in_steps", c.in_steps}};
}

}  // namespace

OutputComparison CompareOutput(const runtime::RuntimeTensor& got,
                               const runtime::RuntimeTensor& want, int32_t tensor,
                               const std::string& name, double tolerance, double tolerance_steps) {
  OutputComparison c{tensor, name, 0, 0, 0, false, true};
  if (got.bytes != want.bytes) {
    c.ok = false;
    return c;
  }
  const auto got_values = QuantizedValues(got), want_values = QuantizedValues(want);
  if (got_values && want_values) {
    c.in_steps = true;
    for (size_t i = 0; i < got_values->size(); ++i) {
      const double steps = std::abs((*got_values)[i] - (*want_values)[i]);
      c.max_error = c.max_abs_error = std::max(c.max_abs_error, steps);
    }
    c.ok = c.max_error <= tolerance_steps;
    return c;
  }
  if (got.type != TensorType::kFloat32) {
    c.ok = std::equal(got.data, got.data + got.bytes, want.data);
    return c;
  }
  const int64_t n = static_cast<int64_t>(got.bytes / sizeof(float));
  for (int64_t i = 0; i < n; ++i) {
    const double a = got.Data<float>()[i];
    const double b = want.Data<float>()[i];
    const double abs_error = std::fabs(a - b);
    c.max_abs_error = std::max(c.max_abs_error, abs_error);
    c.max_rel_error = std::max(c.max_rel_error, abs_error / std::max(1e-30, std::fabs(b)));
    c.max_error = std::max(c.max_error, abs_error / std::max(1.0, std::fabs(b)));
    if (!(abs_error <= tolerance * std::max(1.0, std::fabs(b)))) c.ok = false;
  }
  return c;
}

std::string ErrorText(const OutputComparison& c, const char* reference) {
  if (c.in_steps) return fmt::format("{:g} quantization steps", c.max_error);
  return fmt::format("{:.3g} of max(1, |{}|) (abs {:.3g})", c.max_error, reference,
                     c.max_abs_error);
}

bool RunVerdict::PredictionOk() const {
  return std::all_of(checks.begin(), checks.end(), [](const Check& c) { return c.ok(); });
}

std::optional<OutputComparison> WorstOutput(const std::vector<OutputComparison>& outputs) {
  // A failing output always outranks a passing one.
  std::optional<OutputComparison> worst;
  for (const OutputComparison& c : outputs) {
    if (!worst || (!c.ok && worst->ok) || (c.ok == worst->ok && c.max_error > worst->max_error))
      worst = c;
  }
  return worst;
}

OutputsVerdict JudgeOutputs(const std::vector<OutputComparison>& outputs,
                            std::optional<bool> every_node_within, bool accept_drift,
                            std::string reference, std::string tolerance) {
  OutputsVerdict v;
  v.reference = std::move(reference);
  v.tolerance = std::move(tolerance);
  const bool all_ok =
      std::all_of(outputs.begin(), outputs.end(), [](const OutputComparison& c) { return c.ok; });
  v.worst = WorstOutput(outputs);
  if (all_ok) {
    v.state = OutputsState::kMatched;
  } else if (every_node_within.value_or(false)) {
    v.state = accept_drift ? OutputsState::kDriftAccepted : OutputsState::kDrift;
  } else {
    v.state = OutputsState::kMismatch;
  }
  return v;
}

void JudgeAgainstUpstream(RunVerdict& verdict, UpstreamVerdict upstream) {
  OutputsVerdict& o = verdict.outputs;
  const bool cpu_apart = o.state == OutputsState::kDrift || o.state == OutputsState::kMismatch;
  if (upstream.matched && cpu_apart && upstream.upstream_drift && !upstream.upstream_drift->ok)
    o.state = OutputsState::kUpstreamDrift;
  verdict.upstream = std::move(upstream);
}

namespace {

std::string UpstreamText(const UpstreamVerdict& u) {
  const std::string worst = u.worst ? OutputLine(*u.worst, "upstream") : "no outputs";
  const std::string coverage =
      fmt::format("{} of {} values compared, {} of {} outputs bit-identical", u.values_compared,
                  u.values_total, u.bit_identical_outputs, u.outputs);
  const std::string head =
      fmt::format("  outputs vs upstream's {} outputs ({}, {}): ", u.config, u.file, u.compared);
  if (u.matched)
    return head +
           fmt::format("matched within {} (largest: {}; {})\n", u.tolerance, worst, coverage);
  return head + fmt::format("MISMATCH: {} is beyond {} ({})\n", worst, u.tolerance, coverage);
}

}  // namespace

std::string VerdictText(const RunVerdict& verdict) {
  std::vector<std::string> failed;
  for (const Check& c : verdict.checks) {
    if (!c.ok()) failed.push_back(c.figure);
  }
  std::string text = "\n";
  const std::string prediction = failed.empty()
                                     ? fmt::format("matched ({} figures)", verdict.checks.size())
                                     : fmt::format("DIFFERS in {} of {} figures: {}", failed.size(),
                                                   verdict.checks.size(), fmt::join(failed, ", "));
  text += "  prediction: " + prediction + "\n";
  const OutputsVerdict& o = verdict.outputs;
  const std::string worst =
      o.worst ? OutputLine(*o.worst, o.reference_symbol) : std::string("no outputs");
  std::string outputs;
  switch (o.state) {
    case OutputsState::kMatched:
      outputs = fmt::format("matched within {} (largest: {})", o.tolerance, worst);
      break;
    case OutputsState::kDriftAccepted:
      outputs = fmt::format(
          "drift accepted (--accept-drift): {} is beyond {}, with every delegated node within "
          "it",
          worst, o.tolerance);
      break;
    case OutputsState::kDrift:
      outputs = fmt::format(
          "DRIFT: {} is beyond {}; every delegated node is within it on the CPU's own inputs, so "
          "the graph amplifies rounding (no kernel fault found). Pass --accept-drift to accept "
          "outputs this far off",
          worst, o.tolerance);
      break;
    case OutputsState::kMismatch:
      outputs = fmt::format("MISMATCH: {} is beyond {}", worst, o.tolerance);
      if (!o.node_check_note.empty()) outputs += "; " + o.node_check_note;
      break;
    case OutputsState::kUpstreamDrift:
      outputs = fmt::format(
          "upstream's own drift: {} is beyond {}, as upstream's own {} outputs are ({}), and it is "
          "within it of upstream's",
          worst, o.tolerance, verdict.upstream->config,
          OutputLine(*verdict.upstream->upstream_drift, o.reference_symbol));
      break;
    case OutputsState::kNoCpuRun:
      outputs = fmt::format(
          "not compared: the CPU kernels cannot run the model ({}); upstream's outputs for the "
          "delegate alone judge them",
          o.no_cpu_run_reason);
      break;
  }
  text += "  outputs vs " + o.reference + ": " + outputs + "\n";
  if (verdict.upstream) text += UpstreamText(*verdict.upstream);
  for (const std::string& other : verdict.other_failures) text += "  FAILED: " + other + "\n";
  if (verdict.ok()) {
    if (o.state == OutputsState::kDriftAccepted) {
      return text +
             "\nVALIDATED: the prediction matches; the outputs drift, accepted with "
             "--accept-drift\n";
    }
    if (o.state == OutputsState::kUpstreamDrift) {
      return text + fmt::format(
                        "\nVALIDATED: the prediction matches; the outputs match upstream's {} "
                        "outputs, whose drift from the CPU kernels is upstream's own\n",
                        verdict.upstream->config);
    }
    if (o.state == OutputsState::kNoCpuRun) {
      return text + fmt::format(
                        "\nVALIDATED: the prediction matches; the outputs match upstream's {} "
                        "outputs (the CPU kernels cannot run the model)\n",
                        verdict.upstream->config);
    }
    return text + "\nVALIDATED: the prediction and the outputs match\n";
  }
  std::vector<std::string> reasons;
  if (!failed.empty()) reasons.push_back("the prediction differs");
  if (o.state == OutputsState::kDrift) reasons.push_back("the outputs drift beyond the tolerance");
  if (o.state == OutputsState::kMismatch) reasons.push_back("the outputs differ");
  if (o.state == OutputsState::kNoCpuRun && !verdict.upstream)
    reasons.push_back("the CPU kernels cannot run the model and no upstream outputs judge them");
  if (verdict.upstream && !verdict.upstream->matched) {
    reasons.push_back(
        fmt::format("the outputs differ from upstream's {} outputs", verdict.upstream->config));
  }
  if (!verdict.other_failures.empty()) reasons.push_back(verdict.other_failures.front());
  return text + fmt::format("\nFAILED: {}\n", fmt::join(reasons, "; "));
}

nlohmann::ordered_json VerdictJson(const RunVerdict& verdict) {
  nlohmann::ordered_json failed = nlohmann::ordered_json::array();
  for (const Check& c : verdict.checks) {
    if (!c.ok()) failed.push_back(c.figure);
  }
  const OutputsVerdict& o = verdict.outputs;
  const char* state = o.state == OutputsState::kMatched         ? "matched"
                      : o.state == OutputsState::kDriftAccepted ? "drift_accepted"
                      : o.state == OutputsState::kDrift         ? "drift"
                      : o.state == OutputsState::kUpstreamDrift ? "upstream_drift"
                      : o.state == OutputsState::kNoCpuRun      ? "no_cpu_run"
                                                                : "mismatch";
  nlohmann::ordered_json outputs{
      {"ok", o.ok()}, {"state", state}, {"reference", o.reference}, {"tolerance", o.tolerance}};
  if (o.worst) outputs["worst"] = ComparisonJson(*o.worst);
  if (!o.node_check_note.empty()) outputs["node_check_note"] = o.node_check_note;
  if (!o.no_cpu_run_reason.empty()) outputs["no_cpu_run_reason"] = o.no_cpu_run_reason;
  nlohmann::ordered_json result{
      {"prediction",
       {{"ok", verdict.PredictionOk()}, {"figures", verdict.checks.size()}, {"failed", failed}}},
      {"outputs", outputs},
      {"other_failures", verdict.other_failures},
      {"ok", verdict.ok()}};
  if (const auto& u = verdict.upstream) {
    nlohmann::ordered_json upstream{{"ok", u->matched},
                                    {"config", u->config},
                                    {"file", u->file},
                                    {"compared", u->compared},
                                    {"tolerance", u->tolerance},
                                    {"values_compared", u->values_compared},
                                    {"values_total", u->values_total},
                                    {"bit_identical_outputs", u->bit_identical_outputs},
                                    {"outputs", u->outputs}};
    if (u->worst) upstream["worst"] = ComparisonJson(*u->worst);
    if (u->upstream_drift) upstream["upstream_vs_cpu"] = ComparisonJson(*u->upstream_drift);
    result["upstream"] = upstream;
  }
  return result;
}

}  // namespace tfa::cli
