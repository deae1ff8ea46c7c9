#include "cli/run_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/command.h"
#include "cli/common_flags.h"
#include "cli/delegate_args.h"
#include "cli/number_flags.h"
#include "cli/run_prediction_checks.h"
#include "cli/run_profile.h"
#include "cli/run_reference.h"
#include "cli/run_verdict.h"
#include "cli/runtime_delegates.h"
#include "cli/upstream_outputs.h"
#include "cli/xnnpack_run_summary.h"
#include "libanalysis/core/byte_units.h"
#include "libanalysis/core/key_value.h"
#include "libanalysis/plan/delegate_request.h"
#include "libanalysis/plan/input_names.h"
#include "libanalysis/profiles/delegate_profile.h"
#include "libanalysis/profiles/flex_ops.h"
#include "libanalysis/profiles/xnnpack_rules.h"
#include "libanalysis/report/report_builder.h"
#include "libanalysis/report/xnnpack_workspace.h"
#include "runtime/after_invoke_check.h"
#include "runtime/delegates/opencl/opencl_delegate.h"
#include "runtime/delegates/opencl/opencl_device.h"
#include "runtime/delegates/xnnpack/xnnpack_delegate.h"
#include "runtime/divergence_finder.h"
#include "runtime/input_generator.h"
#include "runtime/interpreter.h"
#include "runtime/own_buffer_check.h"
#include "runtime/process_memory.h"
#include "runtime/run_plan.h"
#include "runtime/tensor_files.h"

namespace tfa::cli {
namespace {

struct RunArgs {
  std::string model;
  bool validate = false;
  uint64_t input_seed = 1;
  double tolerance = 1e-3;
  double tolerance_steps = 1;
  std::string external_delegate;
  std::vector<std::string> external_options;
  std::string memory_limit = "1G";
  bool guard_writes = false;
  bool find_divergence = false;
  bool accept_drift = false;
  std::vector<std::string> inputs;  // NAME_OR_INDEX=FILE.npy
  std::string output_dir;
  bool profile = false;
  std::string compare_with;
  std::string reference;         // --reference: the float model the outputs are judged against
  std::string upstream_outputs;  // --upstream-outputs: upstream's results for one config
  int threads = 1;
  uint64_t max_loop_iterations = runtime::InterpreterOptions::kDefaultMaxLoopIterations;
  double time_limit_seconds = 0;
  uint64_t warmup_runs = 1;
  uint64_t num_runs = 1;
  DelegateArgs delegates;
  InputShapeArgs input_shapes;
  CommonFlags common;
};

// How often a run invokes the model, as upstream's benchmark_model counts: `warmup` Invokes, then
// `timed` ones whose mean is the latency. The first Invoke (a warm-up one when there is any) is
// the one whose outputs and statistics are kept.
struct InvokeCounts {
  uint64_t warmup = 1;
  uint64_t timed = 1;
};

// The outputs and statistics of the first Invoke (what upstream's figures are of: a model with
// variables or CALL_ONCE changes state on every Invoke), and the times of the timed ones.
struct TimedRun {
  std::unique_ptr<runtime::Interpreter> interpreter;
  double milliseconds = 0;  // the mean of the timed Invokes
  double min_milliseconds = 0;
  double first_milliseconds = 0;
  runtime::RunStats first_stats;
  std::vector<runtime::RuntimeTensor> outputs;  // point into output_bytes
  std::vector<std::vector<uint8_t>> output_bytes;
};

// "123", "64K", "512M", "2G" (K, M, G are powers of 1024).
uint64_t ByteSizeOrThrow(const std::string& text, const std::string& flag) {
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  const std::string suffix = text.substr(digits);
  const int shift = suffix.empty()  ? 0
                    : suffix == "K" ? 10
                    : suffix == "M" ? 20
                    : suffix == "G" ? 30
                                    : -1;
  constexpr size_t kMaxDigits = 12;  // below 2^40, so even with G it fits in 64 bits
  if (digits == 0 || digits > kMaxDigits || shift < 0)
    throw CommandError{flag + ": expected a byte count such as 1048576, 512M or 2G, got '" + text +
                       "'"};
  return std::stoull(text.substr(0, digits)) << shift;
}

runtime::InterpreterOptions RunOptions(const RunArgs& args,
                                       const std::vector<runtime::Delegate*>& delegates,
                                       int32_t entry_subgraph) {
  runtime::InterpreterOptions options;
  options.delegates = delegates;
  options.memory_limit_bytes = ByteSizeOrThrow(args.memory_limit, "--memory-limit");
  options.guard_writes = args.guard_writes;
  options.entry_subgraph = entry_subgraph;
  options.threads = args.threads;
  options.max_loop_iterations = args.max_loop_iterations;
  options.time_limit_seconds = args.time_limit_seconds;
  return options;
}

// The runtime refuses a model above the run's memory limit before allocating; say how to raise it.
CommandError RunError(const Status& status) {
  std::string message = status.message();
  if (message.find("above the memory limit") != std::string::npos)
    message += " (raise it with --memory-limit)";
  return CommandError{message};
}

// Runs `plan` (made with `delegates`' profiles, in order) `counts.warmup + counts.timed` times.
TimedRun RunInterpreter(const RunArgs& args, const ModelPlan& plan,
                        const runtime::InterpreterOptions& options,
                        const runtime::InputFiller& fill_inputs, InvokeCounts counts) {
  const std::string& path = args.model;
  auto interpreter = runtime::Interpreter::Create(plan, options);
  if (!interpreter.ok()) throw RunError(interpreter.status());
  if (Status s = fill_inputs(**interpreter); !s.ok()) throw CommandError{s.message()};
  TimedRun run;
  double timed_sum = 0;
  // The first Invoke pays one-time costs (OpenCL program builds run at Prepare, caches warm up);
  // the warm-up Invokes are not in the latency.
  for (uint64_t i = 0; i < counts.warmup + counts.timed; ++i) {
    const auto start = std::chrono::steady_clock::now();
    if (Status s = (*interpreter)->Invoke(); !s.ok()) throw CommandError{path + ": " + s.message()};
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (i >= counts.warmup) {
      run.min_milliseconds = i == counts.warmup ? ms : std::min(run.min_milliseconds, ms);
      timed_sum += ms;
    }
    if (i > 0) continue;
    run.first_milliseconds = ms;
    runtime::Interpreter& first = **interpreter;
    run.first_stats = first.stats();
    for (int32_t t : first.outputs()) {
      const runtime::RuntimeTensor& tensor = first.tensor(t);
      run.output_bytes.emplace_back(tensor.data, tensor.data + tensor.bytes);
      run.outputs.push_back(tensor);
    }
    for (size_t o = 0; o < run.outputs.size(); ++o)
      run.outputs[o].data = run.output_bytes[o].data();
  }
  run.milliseconds = timed_sum / static_cast<double>(counts.timed);
  run.interpreter = std::move(interpreter).value();
  return run;
}

// The plan of a run on the inputs `fill_inputs` writes: a model with control flow is planned with
// the facts a first run finds (runtime/run_plan.h), which --memory-limit bounds with the
// delegates' predicted memory as it bounds the run.
ModelPlan PlanOrThrow(const Model& model, const runtime::InterpreterOptions& options,
                      const runtime::InputFiller& fill_inputs) {
  PlanOptions plan_options;
  for (const runtime::Delegate* d : options.delegates)
    plan_options.delegates.push_back(d->Profile());
  const runtime::DelegateBytes delegate_bytes = [](const ModelPlan& plan) -> Result<uint64_t> {
    try {
      return PredictedDelegateBytes(plan);
    } catch (const CommandError& e) {
      return Status::Error(e.message);
    }
  };
  auto plan = runtime::PlanForRun(model, plan_options, options, fill_inputs, delegate_bytes);
  if (!plan.ok()) throw RunError(plan.status());
  return std::move(plan).value();
}

// The seed fills integer inputs byte by byte (the oracle's generator), so an index, a count or a
// shape given as an input holds values no real caller would pass, and a kernel may refuse them at
// Eval as upstream's would ("k = 1655013996"). Names the integer inputs the seed filled.
std::string SeedFilledIntegerInputsHint(const Subgraph& graph,
                                        const std::vector<runtime::InputFile>& given) {
  std::vector<std::string> names;
  for (int32_t t : graph.inputs) {
    if (t < 0) continue;
    const Tensor& tensor = graph.tensors[static_cast<size_t>(t)];
    const bool integer = tensor.type == TensorType::kInt32 || tensor.type == TensorType::kInt64 ||
                         tensor.type == TensorType::kInt16 || tensor.type == TensorType::kUInt32;
    const bool quantized = !tensor.quantization->scale.empty();
    const bool from_file = std::any_of(given.begin(), given.end(),
                                       [&](const runtime::InputFile& f) { return f.tensor == t; });
    if (!integer || quantized || from_file) continue;
    names.push_back(tensor.name.empty() ? std::to_string(t) : tensor.name);
  }
  if (names.empty()) return {};
  return fmt::format(
      " (integer input{} {} got random values from --input-seed; if {} an index, a count or a "
      "shape, give real values with --input NAME=FILE.npy)",
      names.size() == 1 ? "" : "s", fmt::join(names, ", "), names.size() == 1 ? "it is" : "one is");
}

void Run(const RunArgs& args) {
  const OutputFormat format = args.common.Format();
  if (args.find_divergence && !args.validate)
    throw CommandError{"run: --find-divergence needs --validate"};
  if (args.accept_drift && !args.validate)
    throw CommandError{"run: --accept-drift needs --validate"};
  if (!args.reference.empty() && !args.validate)
    throw CommandError{"run: --reference needs --validate"};
  if (!args.upstream_outputs.empty() && (!args.validate || !args.reference.empty()))
    throw CommandError{"run: --upstream-outputs needs --validate, and no --reference"};
  const Result<runtime::ResidentMemory> before_model = runtime::ReadResidentMemory();
  Model model = LoadModelOrThrow(args.model);
  ApplyInputShapesOrThrow(model, args.input_shapes.Requests(), args.common.Signature());
  // With or without --delegate flex: the Flex delegate's kernel runs TensorFlow's kernels.
  if (const std::vector<ModelNodeRef> flex = FlexNodesOf(model); !flex.empty()) {
    const Subgraph& first = model.subgraphs[static_cast<size_t>(flex.front().subgraph)];
    throw CommandError{fmt::format(
        "run: {} has {} Select TensorFlow op(s) (first: {}, subgraph {} node {}); they need "
        "TensorFlow's kernels (the Flex delegate), which this runtime does not have; `report` "
        "predicts their plan",
        args.model, flex.size(), first.nodes[static_cast<size_t>(flex.front().node)].op,
        flex.front().subgraph, flex.front().node)};
  }
  const std::vector<DelegateRequest> requests = args.delegates.Requests();

  std::vector<RuntimeDelegate> owned;
  for (const DelegateRequest& r : requests) {
    // The model has no Flex op, so InterpreterBuilder applies no Flex delegate (the plan drops it).
    if (auto profile = ResolveDelegateRequest(r); profile.ok() && profile->applied_at_build) {
      continue;
    }
    owned.push_back(CreateRuntimeDelegate(r));
  }
  if (!args.external_delegate.empty()) {
    std::vector<std::pair<std::string, std::string>> options;
    for (const std::string& kv : args.external_options) {
      auto split = SplitKeyValue(kv);
      if (!split) {
        throw CommandError{"--external-delegate-option: expected KEY=VALUE, got \"" + kv + "\""};
      }
      options.push_back(std::move(*split));
    }
    owned.push_back(LoadPluginDelegate(args.external_delegate, options));
  }
  std::vector<runtime::Delegate*> delegates;
  for (RuntimeDelegate& d : owned) delegates.push_back(d.delegate.get());

  // One plan decides both what runs and what is predicted: the delegates' own profiles (a plugin's
  // node-by-node answers included) applied by libanalysis's pipeline, as `report` applies them.
  const int32_t entry = args.common.SingleSubgraph(model);
  const runtime::InterpreterOptions options = RunOptions(args, delegates, entry);
  std::optional<Model> reference_model;
  int32_t reference_entry = 0;
  if (!args.reference.empty()) {
    reference_model = LoadModelOrThrow(args.reference);
    reference_entry = args.common.SingleSubgraph(*reference_model);
    if (Status s = CheckReferenceMatches(
            model.subgraphs[static_cast<size_t>(entry)],
            reference_model->subgraphs[static_cast<size_t>(reference_entry)], args.reference);
        !s.ok())
      throw CommandError{s.message()};
  }
  // Upstream's outputs are for one config: this run's, or `none`, which the CPU-only run meets.
  std::optional<UpstreamOutputs> upstream;
  if (!args.upstream_outputs.empty()) {
    auto read = ReadUpstreamOutputs(args.upstream_outputs);
    if (!read.ok()) throw CommandError{read.status().message()};
    upstream = std::move(read).value();
    const std::string config = owned.empty()                                     ? "none"
                               : owned.size() == 1 && owned[0].kind == "xnnpack" ? "xnnpack"
                               : owned.size() == 1 && owned[0].kind == "opencl"  ? "gpu"
                                                                                 : "";
    if (upstream->config != "none" && upstream->config != config) {
      throw CommandError{fmt::format(
          "--upstream-outputs {}: upstream's outputs are for config {}; this run's are for {}",
          args.upstream_outputs, upstream->config,
          config.empty() ? "delegates upstream's files do not cover" : "config " + config)};
    }
    if (Status s = CheckUpstreamOutputsMatch(*upstream, model.subgraphs[static_cast<size_t>(entry)],
                                             args.input_seed);
        !s.ok())
      throw CommandError{s.message()};
  }
  // Every --input file is read and checked before anything runs; inputs no file names keep the
  // seed's values (one stream over all inputs, as without files).
  const std::vector<const SignatureDef*> signatures = SignaturesNamingInputs(model, entry, "");
  std::vector<runtime::InputFile> input_files;
  for (const std::string& spec : args.inputs) {
    auto file =
        runtime::ReadInputFile(spec, model.subgraphs[static_cast<size_t>(entry)], signatures);
    if (!file.ok()) throw CommandError{file.status().message()};
    input_files.push_back(std::move(file).value());
  }
  // --compare-with: every output's reference, read and checked before anything runs.
  std::vector<runtime::InputFile> references;
  if (!args.compare_with.empty()) {
    const Subgraph& graph = model.subgraphs[static_cast<size_t>(entry)];
    for (int32_t t : graph.outputs) {
      if (t < 0) continue;
      const std::string path =
          (std::filesystem::path(args.compare_with) /
           runtime::OutputFileName(t, graph.tensors[static_cast<size_t>(t)].name))
              .string();
      auto file = runtime::ReadTensorFile(path, graph, t, "--compare-with " + args.compare_with);
      if (!file.ok()) throw CommandError{file.status().message()};
      references.push_back(std::move(file).value());
    }
  }
  // With --reference, the inputs' real values, for the reference model.
  std::vector<std::vector<double>> real_inputs;
  const runtime::InputFiller fill_inputs = [&](runtime::Interpreter& interpreter) {
    runtime::FillDeterministicInputs(interpreter, args.input_seed);
    for (const runtime::InputFile& file : input_files)
      TFA_RETURN_IF_ERROR(runtime::CopyInputFile(file, interpreter));
    if (!reference_model) return Status::Ok();
    real_inputs.clear();
    for (int32_t t : interpreter.inputs()) {
      if (t < 0) continue;
      auto values = RealValues(interpreter.tensor(t),
                               interpreter.execution_graph().tensors[static_cast<size_t>(t)].name);
      if (!values.ok()) return values.status();
      real_inputs.push_back(std::move(values).value());
    }
    return Status::Ok();
  };
  // A run that fails on its inputs' values says which inputs the seed filled with random integers.
  const std::string integer_inputs_hint =
      SeedFilledIntegerInputsHint(model.subgraphs[static_cast<size_t>(entry)], input_files);
  const auto with_input_hint = [&](auto&& step) {
    try {
      return step();
    } catch (CommandError& e) {
      if (e.exit_code == kExitBadInput && e.message.find("memory limit") == std::string::npos)
        e.message += integer_inputs_hint;
      throw;
    }
  };
  const ModelPlan plan = with_input_hint([&] { return PlanOrThrow(model, options, fill_inputs); });
  // Memory the delegates own outside the interpreter (libXNNPACK's packed weights and workspace,
  // the OpenCL delegate's buffers) counts against --memory-limit as the report predicts it: the
  // interpreters that run the delegates get what it leaves.
  const uint64_t delegate_bytes = PredictedDelegateBytes(plan);
  if (delegate_bytes > 0 && delegate_bytes >= options.memory_limit_bytes) {
    throw CommandError{fmt::format(
        "{}: the delegates need {} bytes outside the interpreter (predicted), above the memory "
        "limit of {} bytes (raise it with --memory-limit)",
        args.model, delegate_bytes, options.memory_limit_bytes)};
  }
  runtime::InterpreterOptions delegated_options = options;
  delegated_options.memory_limit_bytes -= delegate_bytes;
  const auto with_delegates_note = [&](auto&& step) {
    try {
      return step();
    } catch (CommandError& e) {
      if (delegate_bytes > 0 && e.message.find("above the memory limit") != std::string::npos) {
        e.message += fmt::format(" (--memory-limit {} less the delegates' predicted {} bytes)",
                                 options.memory_limit_bytes, delegate_bytes);
      }
      throw;
    }
  };
  // The XNNPACK and OpenCL delegates' kernels of the run below are the ones they create from here
  // on (PlanOrThrow's fact-finding run of a model with control flow made kernels of its own).
  std::vector<KernelRange> run_kernels(owned.size());
  for (size_t i = 0; i < owned.size(); ++i)
    run_kernels[i].begin = DelegateKernelCount(*owned[i].delegate);
  TimedRun run = with_input_hint([&] {
    return with_delegates_note([&] {
      return RunInterpreter(args, plan, delegated_options, fill_inputs,
                            {args.warmup_runs, args.num_runs});
    });
  });
  const std::vector<int32_t> output_tensors = run.interpreter->outputs();
  for (size_t i = 0; i < owned.size(); ++i)
    run_kernels[i].end = DelegateKernelCount(*owned[i].delegate);
  // The run's peak, read before --validate's reruns add interpreters of their own.
  const Result<runtime::ResidentMemory> after_run = runtime::ReadResidentMemory();
  const runtime::RunStats& stats = run.first_stats;
  const Subgraph& executed = run.interpreter->execution_graph();
  uint64_t kernels = 0;
  for (int32_t n : executed.execution_plan)
    kernels += executed.nodes[static_cast<size_t>(n)].kind == NodeKind::kDelegateKernel;

  nlohmann::ordered_json j{{"model", args.model}, {"delegates", nlohmann::ordered_json::array()}};
  for (const DelegateRequest& r : requests) j["delegates"].push_back(r.spec);
  if (!args.external_delegate.empty()) j["delegates"].push_back(plan.delegates.back().name);
  j["latency_ms"] = run.milliseconds;
  j["latency"] = {{"warmup_runs", args.warmup_runs},
                  {"timed_runs", args.num_runs},
                  {"first_ms", run.first_milliseconds},
                  {"mean_ms", run.milliseconds},
                  {"min_ms", run.min_milliseconds}};
  j["measured"] = {{"arena_size", stats.arena_bytes_written},
                   {"persistent_size", stats.persistent_bytes_written},
                   {"arena_committed", stats.arena_bytes},
                   {"persistent_committed", stats.persistent_arena_bytes},
                   {"delegated_partitions", kernels},
                   {"bytes_to_delegate", stats.copies.bytes_to_delegate},
                   {"bytes_from_delegate", stats.copies.bytes_from_delegate},
                   {"init_upload_bytes", stats.copies.init_upload_bytes},
                   {"transitions", stats.copies.transitions}};
  std::string text = fmt::format("{}: ran in {:.2f} ms on the runtime ({} delegate kernel{})\n",
                                 args.model, run.milliseconds, kernels, kernels == 1 ? "" : "s");
  if (args.num_runs > 1 || args.warmup_runs != 1) {
    text += fmt::format(
        "  latency: mean {:.2f} ms, min {:.2f} ms over {} Invoke{} after {} warm-up; first Invoke "
        "{:.2f} ms\n",
        run.milliseconds, run.min_milliseconds, args.num_runs, args.num_runs == 1 ? "" : "s",
        args.warmup_runs, run.first_milliseconds);
  }
  if (before_model.ok() && after_run.ok()) {
    const uint64_t baseline = before_model->current_bytes, peak = after_run->peak_bytes;
    const uint64_t above = peak > baseline ? peak - baseline : 0;
    j["measured"]["rss"] = {
        {"before_model", baseline}, {"peak", peak}, {"peak_above_baseline", above}};
    text += fmt::format("  resident: {} before the model, peak {} ({} above)\n",
                        HumanBytes(baseline), HumanBytes(peak), HumanBytes(above));
  }
  // A profile without a runtime of its own (nnapi, ops=, a profile file) runs as a
  // simulated delegate: what it validates is the partitioning and the copies, not the delegate's
  // arithmetic or speed.
  j["simulated_delegates"] = nlohmann::ordered_json::array();
  for (const RuntimeDelegate& d : owned) {
    if (d.kind != "simulated") continue;
    const std::string name = d.delegate->Name();
    j["simulated_delegates"].push_back(name);
    text += fmt::format(
        "  {} is simulated: the partitions {} would take run on this runtime's CPU kernels, with "
        "its profile's copies; outputs and times are not {}'s own\n",
        name, name, name);
  }
  for (size_t i = 0; i < owned.size(); ++i) {
    const auto* x = dynamic_cast<const runtime::XnnpackDelegate*>(owned[i].delegate.get());
    if (!x) continue;
    const auto& all = x->partitions();
    const XnnpackRunSummary summary = SummarizeXnnpackRun(
        x->Name(), {all.begin() + static_cast<std::ptrdiff_t>(run_kernels[i].begin),
                    all.begin() + static_cast<std::ptrdiff_t>(run_kernels[i].end)});
    text += summary.text;
    j["xnnpack"].push_back(summary.json);
  }
  if (!args.output_dir.empty()) {
    std::vector<runtime::OutputFile> files;
    const Subgraph& graph = model.subgraphs[static_cast<size_t>(entry)];
    for (size_t o = 0; o < run.outputs.size(); ++o) {
      const int32_t t = run.interpreter->outputs()[o];
      files.push_back({t, graph.tensors[static_cast<size_t>(t)].name, &run.outputs[o]});
    }
    auto written = runtime::WriteOutputFiles(args.output_dir, files);
    if (!written.ok()) throw CommandError{written.status().message()};
    text += fmt::format("wrote {} output{} to {}\n", written->size(),
                        written->size() == 1 ? "" : "s", args.output_dir);
    j["output_files"] = *written;
  }
  bool compared_ok = true;
  if (!references.empty()) {
    // Like inference_diff: each output against the reference file, within --tolerance.
    text += fmt::format("\n  outputs vs {} (tolerance {:g} of max(1, |reference|))\n",
                        args.compare_with, args.tolerance);
    j["compare_with"] = {{"dir", args.compare_with},
                         {"tolerance", args.tolerance},
                         {"outputs", nlohmann::ordered_json::array()}};
    bool same = true;
    for (size_t o = 0; o < references.size() && o < run.outputs.size(); ++o) {
      const runtime::InputFile& ref = references[o];
      runtime::RuntimeTensor want = run.outputs[o];
      want.data = const_cast<uint8_t*>(ref.array.data.data());  // read only
      want.bytes = ref.array.data.size();
      const std::string& name =
          model.subgraphs[static_cast<size_t>(entry)].tensors[static_cast<size_t>(ref.tensor)].name;
      const OutputComparison c =
          CompareOutput(run.outputs[o], want, ref.tensor, name, args.tolerance, 0);
      same &= c.ok;
      text += fmt::format("  output {:>5} max error {}  {}  {}\n", ref.tensor,
                          ErrorText(c, "reference"), c.ok ? "ok" : "MISMATCH", name);
      j["compare_with"]["outputs"].push_back({{"tensor", ref.tensor},
                                              {"name", name},
                                              {"max_abs_error", c.max_abs_error},
                                              {"max_error", c.max_error},
                                              {"ok", c.ok}});
    }
    j["compare_with"]["ok"] = same;
    compared_ok = same;
  }
  if (args.profile) {
    // The last timed Invoke, which pays no one-time costs after a warm-up.
    text += ProfileText(run.interpreter->stats().timings, executed);
    j["profile"] = ProfileJson(run.interpreter->stats().timings, executed);
  }
  bool all_ok = true;
  if (args.validate) {
    const std::vector<Check> checks =
        PredictionChecks(plan, entry, stats, kernels, owned, run_kernels);
    text += fmt::format("\n  {:<22} {:>12} {:>12}\n", "figure", "predicted", "measured");
    j["checks"] = nlohmann::ordered_json::array();
    for (const Check& c : checks) {
      const char* verdict = !c.ok()                     ? "MISMATCH"
                            : c.measured == c.predicted ? "ok"
                                                        : "ok (the temporaries above it unused)";
      text +=
          fmt::format("  {:<22} {:>12} {:>12}  {}\n", c.figure, c.predicted, c.measured, verdict);
      j["checks"].push_back({{"figure", c.figure},
                             {"predicted", c.predicted},
                             {"measured", c.measured},
                             {"ok", c.ok()}});
    }

    // Upstream's GPU delegate may store (and compute) in fp16: the tolerance widens to match.
    double tolerance = args.tolerance;
    std::string widened;
    for (const RuntimeDelegate& d : owned) {
      const auto* opencl = dynamic_cast<const runtime::OpenClDelegate*>(d.delegate.get());
      if (!opencl || runtime::Fp16ValidationTolerance(opencl->precision()) <= tolerance) continue;
      tolerance = runtime::Fp16ValidationTolerance(opencl->precision());
      widened = fmt::format(", widened for the gpu delegate's {} precision",
                            runtime::ClPrecisionName(opencl->precision()));
    }
    const std::string tolerance_text =
        fmt::format("{:g} of max(1, |{}|){}, quantized outputs {:g} step{}", tolerance,
                    reference_model ? "reference" : "cpu", widened, args.tolerance_steps,
                    args.tolerance_steps == 1 ? "" : "s");
    // The reruns below hold one interpreter at a time, each within the memory limit: the main
    // run's is released first (the delegates keep its statistics), and so is each rerun's.
    // Without a delegate the run is itself the CPU-only run, so --validate costs the run and the
    // rerun on buffers of its own; with one, the CPU-only rerun invokes once.
    const bool cpu_only = delegates.empty() && !reference_model;
    std::string no_cpu_run;  // why the CPU-only run could not run, when it could not
    std::vector<runtime::RuntimeTensor> cpu_outputs;
    std::vector<std::vector<uint8_t>> cpu_output_bytes;
    std::vector<std::vector<double>> reference_outputs;
    double cpu_milliseconds = run.first_milliseconds;
    if (cpu_only) cpu_outputs = run.outputs;
    run.interpreter.reset();
    const runtime::InterpreterOptions cpu_options = RunOptions(args, {}, entry);
    if (reference_model) {
      // The reference model on the CPU kernels, on the run's inputs in real values.
      const runtime::InterpreterOptions reference_options = RunOptions(args, {}, reference_entry);
      const runtime::InputFiller fill_reference = [&](runtime::Interpreter& interpreter) {
        const std::vector<int32_t>& inputs = interpreter.inputs();
        for (size_t i = 0, k = 0; i < inputs.size(); ++i) {
          if (inputs[i] < 0) continue;
          TFA_RETURN_IF_ERROR(WriteRealValues(
              real_inputs.at(k++), interpreter.tensor(inputs[i]),
              interpreter.execution_graph().tensors[static_cast<size_t>(inputs[i])].name));
        }
        return Status::Ok();
      };
      const ModelPlan reference_plan =
          PlanOrThrow(*reference_model, reference_options, fill_reference);
      TimedRun reference = RunInterpreter(args, reference_plan, reference_options, fill_reference,
                                          {.warmup = 0, .timed = 1});
      const Subgraph& graph = reference_model->subgraphs[static_cast<size_t>(reference_entry)];
      for (size_t o = 0; o < reference.outputs.size(); ++o) {
        const int32_t t = graph.outputs[o];
        auto values = RealValues(reference.outputs[o], graph.tensors[static_cast<size_t>(t)].name);
        if (!values.ok()) throw CommandError{values.status().message()};
        reference_outputs.push_back(std::move(values).value());
      }
      cpu_milliseconds = reference.first_milliseconds;
    } else if (!cpu_only) {
      // A delegate may compute a node the CPU kernels cannot (XNNPACK's blockwise INT4
      // FULLY_CONNECTED): then upstream's outputs for this very delegate, when given, judge the
      // outputs alone; without them the run is refused, as before.
      try {
        TimedRun cpu = RunInterpreter(args, PlanOrThrow(model, cpu_options, fill_inputs),
                                      cpu_options, fill_inputs, {.warmup = 0, .timed = 1});
        cpu_outputs = std::move(cpu.outputs);
        cpu_output_bytes = std::move(cpu.output_bytes);
        cpu_milliseconds = cpu.first_milliseconds;
      } catch (const CommandError& error) {
        const bool no_kernel = error.message.find("the runtime has no") != std::string::npos;
        if (!no_kernel || !upstream || upstream->config == "none") throw;
        no_cpu_run = error.message;
      }
    }
    const std::string reference_name =
        reference_model ? "the reference model " + args.reference + " on the CPU kernels"
                        : "the CPU-only run";
    text += !no_cpu_run.empty()
                ? fmt::format("\n  outputs vs the CPU-only run: not compared ({})\n", no_cpu_run)
            : reference_model
                ? fmt::format("\n  outputs vs {} (tolerance {}); its first Invoke {:.2f} ms\n",
                              reference_name, tolerance_text, cpu_milliseconds)
                : fmt::format(
                      "\n  outputs vs the CPU-only run{} (tolerance {}); CPU-only first "
                      "Invoke {:.2f} ms\n",
                      cpu_only ? " (this run: no delegate)" : "", tolerance_text, cpu_milliseconds);
    j["tolerance"] = tolerance;
    j["tolerance_steps"] = args.tolerance_steps;
    j[reference_model ? "reference_latency_ms" : "cpu_latency_ms"] = cpu_milliseconds;
    if (reference_model) j["reference"] = args.reference;
    j["outputs"] = nlohmann::ordered_json::array();
    std::vector<OutputComparison> comparisons;
    bool outputs_ok = true;
    for (size_t o = 0; o < run.outputs.size() && no_cpu_run.empty(); ++o) {
      const int32_t t = output_tensors[o];
      const std::string& name =
          model.subgraphs[static_cast<size_t>(entry)].tensors[static_cast<size_t>(t)].name;
      if (reference_model) {
        auto got = RealValues(run.outputs[o], name);
        if (!got.ok()) throw CommandError{got.status().message()};
        comparisons.push_back(CompareWithReference(run.outputs[o], *got, reference_outputs.at(o), t,
                                                   name, tolerance, args.tolerance_steps));
      } else {
        comparisons.push_back(CompareOutput(run.outputs[o], cpu_outputs[o], t, name, tolerance,
                                            args.tolerance_steps));
      }
      outputs_ok &= comparisons.back().ok;
    }
    // Outputs beyond the tolerance with a delegate: the node-by-node check tells a kernel fault
    // (some node leaves the tolerance with the CPU's own inputs) from float rounding that the
    // graph amplifies (every node within it, as on the pose models' segmentation heads, whose
    // last 3x3 conv multiplies last-bit differences by the sum of its |weights|, about 300).
    // A check nobody asked for that cannot run within the limits is skipped with a note: the
    // verdict is printed either way.
    std::vector<std::pair<std::string, runtime::DivergenceReport>> divergences;
    std::string node_check_note;
    if (args.find_divergence || (!outputs_ok && !owned.empty() && !reference_model)) {
      for (const RuntimeDelegate& d : owned) {
        const runtime::DivergenceOptions divergence{
            .tolerance = tolerance,
            .tolerance_steps = args.tolerance_steps,
            .input_seed = args.input_seed,
            .memory_limit_bytes = delegated_options.memory_limit_bytes};
        auto found = runtime::FindFirstDivergence(args.model, *d.delegate, divergence);
        if (!found.ok()) {
          node_check_note = fmt::format("the node-by-node check of {} was skipped: {}",
                                        d.delegate->Name(), found.status().message());
          divergences.clear();
          break;
        }
        divergences.emplace_back(d.delegate->Name(), std::move(*found));
      }
    }
    std::optional<bool> every_node_within;
    if (!divergences.empty()) {
      every_node_within = std::all_of(divergences.begin(), divergences.end(),
                                      [](const auto& d) { return !d.second.first.has_value(); });
    }
    RunVerdict verdict;
    verdict.checks = checks;
    verdict.outputs = JudgeOutputs(comparisons, every_node_within, args.accept_drift,
                                   reference_name, tolerance_text);
    verdict.outputs.reference_symbol = reference_model ? "reference" : "cpu";
    verdict.outputs.node_check_note = node_check_note;
    if (!no_cpu_run.empty()) {
      verdict.outputs.state = OutputsState::kNoCpuRun;
      verdict.outputs.no_cpu_run_reason = no_cpu_run;
    }
    std::string upstream_text;
    if (upstream) {
      // The file meets the run of its own config: this one, or the CPU-only run for `none`.
      const bool this_run = upstream->config != "none" || cpu_only;
      const std::vector<runtime::RuntimeTensor>& met = this_run ? run.outputs : cpu_outputs;
      std::vector<UpstreamComparison> against;
      std::vector<OutputComparison> upstream_vs_cpu;
      j["upstream_outputs"] = {{"file", args.upstream_outputs},
                               {"config", upstream->config},
                               {"outputs", nlohmann::ordered_json::array()}};
      upstream_text = fmt::format("\n  outputs of {} vs upstream's {} outputs ({})\n",
                                  this_run ? "this run" : "the CPU-only run", upstream->config,
                                  args.upstream_outputs);
      for (size_t o = 0; o < met.size() && o < upstream->outputs.size(); ++o) {
        const UpstreamOutput& want = upstream->outputs[o];
        against.push_back(
            CompareWithUpstream(met[o], want, want.name, tolerance, args.tolerance_steps));
        if (upstream->config != "none" && o < cpu_outputs.size()) {
          upstream_vs_cpu.push_back(CompareUpstreamWith(want, cpu_outputs[o], want.name, tolerance,
                                                        args.tolerance_steps));
        }
        const UpstreamComparison& u = against.back();
        upstream_text += fmt::format(
            "  output {:>5} max error {}  {}  {} ({} of {} values{})\n", want.tensor,
            ErrorText(u.comparison, "upstream"), u.comparison.ok ? "ok" : "MISMATCH", want.name,
            u.values_compared, u.values_total, u.bit_identical ? ", bit-identical" : "");
        j["upstream_outputs"]["outputs"].push_back({{"tensor", want.tensor},
                                                    {"name", want.name},
                                                    {"max_abs_error", u.comparison.max_abs_error},
                                                    {"max_error", u.comparison.max_error},
                                                    {"in_steps", u.comparison.in_steps},
                                                    {"values_compared", u.values_compared},
                                                    {"values_total", u.values_total},
                                                    {"bit_identical", u.bit_identical},
                                                    {"ok", u.comparison.ok}});
      }
      const std::string upstream_tolerance =
          fmt::format("{:g} of max(1, |upstream|){}, quantized outputs {:g} step{}", tolerance,
                      widened, args.tolerance_steps, args.tolerance_steps == 1 ? "" : "s");
      JudgeAgainstUpstream(verdict,
                           JudgeUpstream(*upstream, this_run ? "this run" : "the CPU-only run",
                                         upstream_tolerance, against, upstream_vs_cpu));
    }
    const bool drift = verdict.outputs.state == OutputsState::kDrift ||
                       verdict.outputs.state == OutputsState::kDriftAccepted ||
                       verdict.outputs.state == OutputsState::kUpstreamDrift;
    for (const OutputComparison& c : comparisons) {
      const char* state = c.ok ? "ok" : drift ? "drift" : "MISMATCH";
      text += fmt::format("  output {:>5} max error {}  {}  {}\n", c.tensor,
                          ErrorText(c, reference_model ? "reference" : "cpu"), state, c.name);
      j["outputs"].push_back({{"tensor", c.tensor},
                              {"name", c.name},
                              {"max_abs_error", c.max_abs_error},
                              {"max_rel_error", c.max_rel_error},
                              {"max_error", c.max_error},
                              {"in_steps", c.in_steps},
                              {"ok", c.ok},
                              {"drift", !c.ok && drift}});
    }
    if (!node_check_note.empty()) text += "  " + node_check_note + "\n";
    text += upstream_text;
    // The same plan on buffers of its own: outputs must be bit-identical, whatever the planner
    // decided about sharing.
    // A rerun that does not fit the memory limit is skipped with a note: it checks the plan's
    // sharing, not a prediction, and the verdict is printed either way.
    auto differences =
        runtime::CompareWithOwnBuffers(plan, delegated_options, fill_inputs, run.outputs);
    if (!differences.ok() &&
        differences.status().message().find("above the memory limit") == std::string::npos) {
      throw CommandError{args.model + ": " + differences.status().message()};
    }
    if (!differences.ok()) {
      const std::string note = "skipped: " + differences.status().message();
      text += "\n  outputs vs a run with every tensor in a buffer of its own: " + note + "\n";
      j["own_buffers"] = {{"skipped", note}};
    } else {
      if (!differences->empty())
        verdict.other_failures.push_back("a run with every tensor in a buffer of its own differs");
      text += fmt::format("\n  outputs vs a run with every tensor in a buffer of its own: {}\n",
                          differences->empty() ? "bit-identical  ok" : "MISMATCH");
      j["own_buffers"] = {{"identical", differences->empty()},
                          {"differences", nlohmann::ordered_json::array()}};
      for (const runtime::OutputDifference& d : *differences) {
        text += fmt::format("  output {:>5} differs in {} bytes, the first at byte {}\n", d.tensor,
                            d.differing_bytes, d.first_byte);
        j["own_buffers"]["differences"].push_back({{"tensor", d.tensor},
                                                   {"differing_bytes", d.differing_bytes},
                                                   {"first_byte", d.first_byte}});
      }
    }
    for (const auto& [delegate, found] : divergences) {
      text += fmt::format("\n  {} node by node vs the CPU kernels ({} nodes, {} runs): ", delegate,
                          found.nodes.size(), found.runs);
      nlohmann::ordered_json jd{
          {"delegate", delegate}, {"nodes", found.nodes.size()}, {"runs", found.runs}};
      if (const auto& first = found.first) {
        const std::string error = first->in_steps
                                      ? fmt::format("{:g} quantization steps", first->max_error)
                                      : fmt::format("{:.3g} of max(1, |cpu|) (abs {:.3g})",
                                                    first->max_error, first->max_abs_error);
        text += fmt::format("first divergence at node {} ({}): max error {} in tensor {} {}\n",
                            first->node, first->op, error, first->tensor, first->tensor_name);
        jd["first"] = {{"node", first->node},           {"op", first->op},
                       {"tensor", first->tensor},       {"name", first->tensor_name},
                       {"max_error", first->max_error}, {"max_abs_error", first->max_abs_error},
                       {"in_steps", first->in_steps}};
      } else {
        text += "every node within the tolerance\n";
      }
      j["divergence"].push_back(jd);
    }
    // The whole process's peak, reruns included, beside the limit they were held to.
    if (const Result<runtime::ResidentMemory> end = runtime::ReadResidentMemory(); end.ok()) {
      text += fmt::format("\n  resident peak with the reruns: {}\n", HumanBytes(end->peak_bytes));
      j["measured"]["rss"]["peak_with_reruns"] = end->peak_bytes;
    }
    text += VerdictText(verdict);
    j["verdict"] = VerdictJson(verdict);
    all_ok = verdict.ok();
    j["validated"] = all_ok;
  }
  if (!compared_ok) {
    text += "\nDIFFERENT: outputs differ from " + args.compare_with + "\n";
  }
  WriteOutput("-", format == OutputFormat::kJson
                       ? j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                       : text);
  if (!all_ok) throw CommandError{"run: validation failed", kExitGateFailed};
  if (!compared_ok)
    throw CommandError{"run: outputs differ from " + args.compare_with, kExitGateFailed};
}

}  // namespace

void AddRunCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "Run a model on the runtime and validate the prediction");
  cmd->footer(
      "Examples:\n"
      "  tflite-analyze run corpus/models/face_detection__face_detection_short_range.tflite "
      "--delegate gpu --validate\n"
      "  tflite-analyze run model.tflite --delegate add-sub --delegate sin --validate --json\n"
      "  tflite-analyze run model.tflite --input input=image.npy --output-dir out/\n"
      "Exit codes: 0 ok, 1 the run differs from the prediction, 2 bad input.");
  auto args = std::make_shared<RunArgs>();
  cmd->add_option("model", args->model, ".tflite file")->required();
  cmd->add_flag("--validate", args->validate,
                "Compare measured arena, partitions and copies with the prediction, outputs with a "
                "CPU-only run");
  AddUnsignedOption(
      cmd, "--input-seed", [args](uint64_t seed) { args->input_seed = seed; },
      "Seed of the deterministic inputs (the oracle's generator)");
  AddNonNegativeRealOption(
      cmd, "--tolerance", [args](double t) { args->tolerance = t; },
      "Output tolerance relative to max(1, |cpu|) (--validate) or max(1, |reference|) "
      "(--compare-with)");
  AddNonNegativeRealOption(
      cmd, "--tolerance-steps", [args](double t) { args->tolerance_steps = t; },
      "With --validate: quantized outputs (int8, uint8, int16) within this many quantization "
      "steps of the CPU-only run's, and so each delegated node's quantized outputs with "
      "--find-divergence (default 1)");
  cmd->add_option("--external-delegate", args->external_delegate,
                  "A delegate plugin (.so) to apply after the others");
  cmd->add_option("--external-delegate-option", args->external_options,
                  "KEY=VALUE for the plugin (repeatable)");
  cmd->add_option(
      "--memory-limit", args->memory_limit,
      "Refuse models whose arenas, dynamic tensors and kernel scratch need more (default 1G)");
  cmd->add_flag("--find-divergence", args->find_divergence,
                "With --validate: run each delegated node against the CPU kernels and name the "
                "first beyond the tolerance");
  cmd->add_flag("--accept-drift", args->accept_drift,
                "With --validate: accept outputs beyond the tolerance when every delegated node is "
                "within it (rounding the graph amplifies); the verdict still says by how much");
  cmd->add_option("--input", args->inputs,
                  "NAME_OR_INDEX=FILE.npy: an input's data (NAME: its tensor name or signature "
                  "key; INDEX: its position among the inputs; #T: tensor T; dtype, byte order "
                  "and shape must be the tensor's; repeatable). Inputs not given get the "
                  "--input-seed values");
  cmd->add_option("--output-dir", args->output_dir,
                  "Write every output of the first Invoke as DIR/<tensor index>_<name>.npy");
  cmd->add_option("--compare-with", args->compare_with,
                  "A directory of reference outputs (<tensor index>_<name>.npy, as --output-dir "
                  "writes them): each output must be within --tolerance (exit 1 otherwise)");
  cmd->add_option("--reference", args->reference,
                  "With --validate: judge the outputs against this model (the float model a "
                  "quantized one was made from) on the CPU kernels, in real values, instead of "
                  "against a CPU-only run");
  cmd->add_option("--upstream-outputs", args->upstream_outputs,
                  "With --validate: upstream TFLite's own results for this model (NAME.CONFIG.json "
                  "of the oracle: config none, or this run's delegate) whose outputs this run's "
                  "must match within the tolerance; outputs that drift from the CPU as "
                  "upstream's own delegate's do are upstream's drift, not a failure");
  cmd->add_flag("--profile", args->profile,
                "Print the time of every node of one Invoke (op, node, ms, share) and per op");
  cmd->add_flag("--guard-writes", args->guard_writes,
                "Debug mode: fail when a node writes arena bytes outside its outputs (slow)");
  constexpr uint64_t kMaxThreads = 256;
  AddUnsignedOption(
      cmd, "--threads",
      [args](uint64_t threads) {
        if (threads == 0) throw CommandError{"--threads: expected at least 1 thread, got 0"};
        args->threads = static_cast<int>(threads);
      },
      "Threads the CPU kernels split their work over (default 1)", kMaxThreads);
  constexpr uint64_t kMaxRuns = 1000000;
  AddUnsignedOption(
      cmd, "--num-runs",
      [args](uint64_t runs) {
        if (runs == 0) throw CommandError{"--num-runs: expected at least 1 run, got 0"};
        args->num_runs = runs;
      },
      "Invokes timed after the warm-up ones; the latency is their mean, as benchmark_model's "
      "--num_runs (default 1)",
      kMaxRuns);
  AddUnsignedOption(
      cmd, "--warmup-runs", [args](uint64_t runs) { args->warmup_runs = runs; },
      "Invokes before the timed ones, as benchmark_model's --warmup_runs; the outputs are the "
      "first Invoke's either way (default 1)",
      kMaxRuns);
  AddUnsignedOption(
      cmd, "--max-loop-iterations", [args](uint64_t n) { args->max_loop_iterations = n; },
      "Stop (exit 2) when one WHILE node loops more often in one Invoke; upstream loops until its "
      "condition turns false (default 1000000)");
  AddNonNegativeRealOption(
      cmd, "--time-limit", [args](double seconds) { args->time_limit_seconds = seconds; },
      "Stop (exit 2) when one Invoke runs longer than this many seconds (default 0: no limit)");
  args->delegates.AddTo(cmd);
  args->input_shapes.AddTo(cmd);
  args->common.AddTo(cmd, {OutputFormat::kText, OutputFormat::kJson});
  cmd->callback([args] { Run(*args); });
}

void AddDevicesCommand(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("devices", "List the OpenCL platforms and devices the runtime can use");
  cmd->footer("Example:\n  tflite-analyze devices");
  cmd->callback([] {
    auto devices = runtime::ListOpenClDevices();
    if (!devices.ok()) throw CommandError{devices.status().message()};
    std::string out;
    for (const runtime::OpenClDeviceInfo& d : *devices) {
      out += fmt::format("platform {} device {}: {} ({}), {}, {} compute units, {}  [{}]\n",
                         d.platform_index, d.device_index, d.device_name, d.device_type, d.version,
                         d.compute_units, HumanBytes(d.global_memory_bytes), d.platform_name);
    }
    for (const std::string& name : BuiltinProfileNames()) {
      auto profile = ResolveDelegateProfile(name);
      if (!profile.ok()) continue;
      out += fmt::format("delegate profile {}: {}\n", name, ProfileTrustName(profile->trust));
    }
    WriteOutput("-", out);
  });
}

}  // namespace tfa::cli
