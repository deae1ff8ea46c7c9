#include "cli/gate_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <filesystem>

#include "cli/command.h"
#include "cli/common_flags.h"
#include "cli/delegate_args.h"
#include "cli/gate_output.h"
#include "cli/model_failures.h"
#include "cli/number_flags.h"
#include "cli/sha256.h"
#include "cli/terminal.h"
#include "cli/tflm_target_args.h"
#include "libanalysis/gate/baseline_gate.h"
#include "libanalysis/tflm/gated_build_name.h"

namespace tfa::cli {
namespace {

struct GateArgs {
  std::vector<std::string> models;
  std::string baseline;
  std::string arena_growth = "0%";
  std::string persistent_growth = "0%";
  std::string copy_bytes_growth = "0%";
  std::optional<uint64_t> max_delegated_partitions;
  uint64_t allowed_new_fallbacks = 0;
  uint64_t allowed_delegated_nodes_drop = 0;
  bool fail_on_shrink = false;
  bool update_baseline = false;
  std::string output = "-";
  std::string junit_output;
  DelegateArgs delegates;
  TflmTargetArgs tflm_target;
  CommonFlags common;
};

Tolerance ToleranceOrThrow(const std::string& text, const std::string& flag) {
  auto t = ParseTolerance(text, flag);
  if (!t.ok()) throw CommandError{t.status().message()};
  return *t;
}

// Without --delegate a model is checked under every configuration its baseline entry records
// (found by name, or by contents when renamed), so one CI step checks everything recorded; a
// model the baseline does not know is measured on the CPU-only plan.
std::vector<std::vector<DelegateRequest>> ConfigsToMeasure(
    const Baseline& baseline, const std::string& file, const std::string& sha256,
    const std::vector<DelegateRequest>& requested) {
  if (!requested.empty()) return {requested};
  auto configs = RecordedConfigs(baseline, file);
  if (configs.empty()) {
    for (const BaselineModel& m : baseline.models) {
      if (m.sha256 == sha256) configs = RecordedConfigs(baseline, m.file);
    }
  }
  if (configs.empty() && RecordedTargets(baseline, file).empty()) configs.emplace_back();
  return configs;
}

Baseline LoadBaselineOrThrow(const std::string& path, bool may_be_missing) {
  if (may_be_missing && !std::filesystem::exists(path)) return {};
  auto baseline = ParseBaseline(ReadFileOrThrow(path), path);
  if (!baseline.ok()) throw CommandError{baseline.status().message()};
  return std::move(baseline).value();
}

// ", 164 nodes on gpu, 2 CPU fallbacks (CEIL x2)": what a delegated configuration records about
// where its nodes run; nothing for the CPU-only plan.
std::string NodePlacementText(const GatedFigures& f) {
  if (!f.delegated_nodes || f.delegated_nodes->empty()) return "";
  std::string out;
  for (const auto& [delegate, nodes] : *f.delegated_nodes) {
    out += fmt::format(", {} node{} on {}", nodes, nodes == 1 ? "" : "s", delegate);
  }
  uint64_t fallbacks = 0;
  std::vector<std::string> ops;
  for (const auto& [op, nodes] : f.cpu_fallback_nodes.value_or(std::map<std::string, uint64_t>{})) {
    fallbacks += nodes;
    ops.push_back(fmt::format("{} x{}", op, nodes));
  }
  out += fmt::format(", {} CPU fallback{}", fallbacks, fallbacks == 1 ? "" : "s");
  if (!ops.empty()) out += fmt::format(" ({})", fmt::join(ops, ", "));
  return out;
}

std::string RecordedText(const std::vector<Measurement>& measurements, const std::string& path) {
  std::string out;
  for (const Measurement& m : measurements) {
    out += fmt::format(
        "recorded {} [{}]: arena {}, persistent {}, {} delegated partition{}, {} copied{}\n",
        m.file, ConfigName(m.delegates, m.target), m.figures.arena_bytes,
        m.figures.persistent_bytes, m.figures.delegated_partitions,
        m.figures.delegated_partitions == 1 ? "" : "s", m.figures.copy_bytes,
        NodePlacementText(m.figures));
  }
  out += fmt::format("baseline written to {}\n", path);
  return out;
}

int RunGate(const GateArgs& args) {
  const OutputFormat format = args.common.Format();
  GateOptions options;
  options.arena_growth = ToleranceOrThrow(args.arena_growth, "--max-arena-growth");
  options.persistent_growth = ToleranceOrThrow(args.persistent_growth, "--max-persistent-growth");
  options.copy_bytes_growth = ToleranceOrThrow(args.copy_bytes_growth, "--max-copy-bytes-growth");
  options.max_delegated_partitions = args.max_delegated_partitions;
  options.allowed_new_fallbacks = args.allowed_new_fallbacks;
  options.allowed_delegated_nodes_drop = args.allowed_delegated_nodes_drop;
  options.fail_on_shrink = args.fail_on_shrink;
  const std::vector<DelegateRequest> requested = args.delegates.Requests();
  const auto build = args.tflm_target.BuildOrThrow();
  if (args.tflm_target.ArenaBudgetOrThrow()) {
    throw CommandError{"--arena-budget is for report and arena; gate compares with a baseline"};
  }
  if (build &&
      (build->abi != tflm::Abi::kAapcs || build->static_memory || build->recording_allocator)) {
    throw CommandError{
        "gate records the default TFLite Micro builds; --abi, --static-memory and "
        "--recording-allocator are for report and arena"};
  }
  // "tflm-cmsis-nn --cpu cortex-m4": the baseline names the build as the command line does.
  const std::optional<std::string> target =
      build ? std::optional<std::string>(tflm::GatedBuildName(*build)) : std::nullopt;
  if (target && !requested.empty()) throw CommandError{"--target tflm takes no --delegate"};
  const Baseline baseline = LoadBaselineOrThrow(args.baseline, args.update_baseline);

  // A model that fails is named on stderr at the end (exit 2); the others are gated or recorded.
  std::vector<Measurement> measurements;
  std::vector<std::string> errors;
  {
    ProgressBar progress("models", args.models.size());
    const auto per_model = MapModels(
        args.models,
        [&](size_t i) {
          const std::string& path = args.models[i];
          const std::string sha256 = Sha256Hex(ReadFileOrThrow(path));
          const std::string file = std::filesystem::path(path).filename().string();
          std::vector<Measurement> measured;
          if (target) return std::vector{TflmMeasurement(path, file, sha256, *target)};
          if (requested.empty()) {
            for (const std::string& t : RecordedTargets(baseline, file)) {
              measured.push_back(TflmMeasurement(path, file, sha256, t));
            }
          }
          for (auto& delegates : ConfigsToMeasure(baseline, file, sha256, requested)) {
            const AnalysedModel analysed = AnalyseOrThrow(path, delegates);
            measured.push_back({path, file, sha256, delegates,
                                GatedFiguresOf(analysed.report, *analysed.model), "",
                                CpuFallbackNodesOf(analysed.report, *analysed.model)});
          }
          return measured;
        },
        [&] { progress.Advance(); });
    errors = ModelErrors(per_model);
    for (const auto& m : per_model) {
      if (m.result) measurements.insert(measurements.end(), m.result->begin(), m.result->end());
    }
  }

  // Nothing could be measured: nothing to write or gate, only the errors.
  if (measurements.empty()) EndWithModelErrors(errors);
  if (args.update_baseline) {
    WriteOutput(args.baseline, BaselineToJson(MergeIntoBaseline(baseline, measurements)));
    WriteOutput(args.output, RecordedText(measurements, args.baseline));
    EndWithModelErrors(errors);
    return kExitOk;
  }

  const GateResult result = CompareWithBaseline(baseline, measurements, options);
  if (!args.junit_output.empty())
    WriteOutput(args.junit_output, GateJunitXml(result, args.baseline));
  const char* github_actions = std::getenv("GITHUB_ACTIONS");
  const bool annotate = github_actions != nullptr && std::string(github_actions) == "true";
  std::string out;
  switch (format) {
    case OutputFormat::kJson:
      out = GateJson(result, args.baseline);
      break;
    case OutputFormat::kMarkdown:
      out = GateMarkdown(result, args.baseline);
      break;
    case OutputFormat::kJunit:
      out = GateJunitXml(result, args.baseline);
      break;
    case OutputFormat::kGithub:
      out = GateGithubAnnotations(result, args.baseline);
      break;
    case OutputFormat::kCsv:  // not offered by gate's --format
    case OutputFormat::kText:
      out = GateText(result, args.baseline, args.output == "-" ? Style::ForStdout() : Style(false));
      // On GitHub Actions the log is plain text; annotations make failures show on the PR too.
      if (annotate) out += GateGithubAnnotations(result, args.baseline);
      break;
  }
  WriteOutput(args.output, out);
  EndWithModelErrors(errors);
  return result.passed() ? kExitOk : kExitGateFailed;
}

}  // namespace

void AddGateCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "gate", "Fail (exit 1) when arena, partitions or copy bytes regress against a baseline");
  cmd->footer(
      "Examples:\n"
      "  tflite-analyze gate models/*.tflite --delegate gpu --baseline baseline.json "
      "--update-baseline\n"
      "  tflite-analyze gate models/*.tflite --baseline baseline.json --max-arena-growth 2% "
      "--format junit "
      "-o gate.xml\n"
      "Without --delegate every configuration the baseline records for a model is checked.");
  auto args = std::make_shared<GateArgs>();
  cmd->add_option("models", args->models, ".tflite or Graph JSON files")->required();
  cmd->add_option("--baseline", args->baseline, "Baseline JSON file (docs/ci-gating.md)")
      ->required();
  cmd->add_option("--max-arena-growth", args->arena_growth,
                  "Allowed arena growth: N% or bytes (default 0%)");
  cmd->add_option("--max-persistent-growth", args->persistent_growth,
                  "Allowed persistent arena growth: N% or bytes (default 0%)");
  cmd->add_option("--max-copy-bytes-growth", args->copy_bytes_growth,
                  "Allowed growth of bytes copied per inference: N% or bytes (default 0%)");
  // Not --max-partitions: that is the per-delegate option (keep the N largest partitions).
  AddUnsignedOption(
      cmd, "--max-delegated-partitions", [args](uint64_t n) { args->max_delegated_partitions = n; },
      "Allow up to N delegated partitions (default: no more than the baseline)");
  AddUnsignedOption(
      cmd, "--allow-new-fallbacks", [args](uint64_t n) { args->allowed_new_fallbacks = n; },
      "Nodes each op may newly leave on the CPU (default 0: any new CPU fallback fails)");
  AddUnsignedOption(
      cmd, "--max-delegated-nodes-drop",
      [args](uint64_t n) { args->allowed_delegated_nodes_drop = n; },
      "Nodes each delegate may lose (default 0)");
  cmd->add_flag("--fail-on-shrink", args->fail_on_shrink,
                "Also fail when a figure improved beyond its limit (re-record the baseline)");
  cmd->add_flag("--update-baseline", args->update_baseline,
                "Record the figures into the baseline instead of gating");
  cmd->add_option("-o,--output", args->output, "Write the verdict here (- = stdout)");
  cmd->add_option("--junit-output", args->junit_output,
                  "Also write a JUnit XML testsuite to this file");
  args->delegates.AddTo(cmd);
  args->tflm_target.AddTo(cmd);
  args->common.AddTo(cmd,
                     {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kMarkdown,
                      OutputFormat::kJunit, OutputFormat::kGithub},
                     /*with_subgraph=*/false);
  cmd->callback([args] {
    // The verdict is already printed: end with its exit code and no error line.
    const int code = RunGate(*args);
    if (code != kExitOk) throw CommandError{"", code};
  });
}

}  // namespace tfa::cli
