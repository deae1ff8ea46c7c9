#include "cli/report_command.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/accelerator_comparison_text.h"
#include "cli/command.h"
#include "cli/common_flags.h"
#include "cli/delegate_args.h"
#include "cli/invoke_fact_args.h"
#include "cli/kernel_build_args.h"
#include "cli/model_failures.h"
#include "cli/report_markdown.h"
#include "cli/report_text.h"
#include "cli/summary_table.h"
#include "cli/terminal.h"
#include "cli/tflm_report.h"
#include "cli/tflm_target_args.h"
#include "libanalysis/report/accelerator_comparison.h"
#include "libanalysis/report/accelerator_comparison_json.h"
#include "libanalysis/report/advice_json.h"
#include "libanalysis/report/advisor.h"
#include "libanalysis/report/memory_timeline.h"
#include "libanalysis/report/model_explorer_overlays.h"
#include "libanalysis/report/report_figures.h"
#include "libanalysis/report/report_json.h"
#include "visualizers/advice_text.h"
#include "visualizers/html_report.h"
#include "visualizers/model_explorer_files.h"
#include "visualizers/tflm_html_report.h"

namespace tfa::cli {
namespace {

struct ReportArgs {
  std::vector<std::string> models;
  std::string html;
  std::string model_explorer;  // directory of overlay files
  std::string trace;           // memory timeline file
  bool advise = false;
  bool compare_accelerators = false;
  bool verbose = false;
  bool summary_only = false;
  DelegateArgs delegates;
  InvokeFactArgs invoke_facts;
  InputShapeArgs input_shapes;
  KernelBuildArgs kernel_build;
  TflmTargetArgs tflm_target;
  CommonFlags common;
};

struct Advice {
  int32_t subgraph = 0;
  DelegationAdvice advice;
};

struct ModelResult {
  AnalysedModel analysed;
  std::vector<int32_t> subgraphs;  // the ones to show
  std::vector<Advice> advice;
};

// The advisor weighs one delegate at a time, on each subgraph as the delegates before it left it
// (the plan's own graphs and Prepare options). A subgraph a delegate never reached (upstream stops
// applying a delegate at a subgraph with dynamic tensors) gets no advice from it.
std::vector<Advice> AdviseOrThrow(const AnalysedModel& analysed,
                                  const std::vector<int32_t>& subgraphs) {
  const ModelPlan& plan = analysed.plan;
  std::vector<Advice> out;
  for (size_t d = 0; d < plan.delegates.size(); ++d) {
    for (int32_t s : subgraphs) {
      if (plan.subgraphs[static_cast<size_t>(s)].delegate_inputs.size() <= d) continue;
      auto advice = AdviseDelegation(plan, s, d);
      if (!advice.ok()) throw CommandError{plan.model_path + ": " + advice.status().message()};
      out.push_back({s, std::move(advice).value()});
    }
  }
  return out;
}

Report OnlySubgraphs(const Report& report, const std::vector<int32_t>& subgraphs) {
  Report shown = report;
  shown.subgraphs.clear();
  for (const SubgraphReport& s : report.subgraphs) {
    if (std::find(subgraphs.begin(), subgraphs.end(), s.index) != subgraphs.end())
      shown.subgraphs.push_back(s);
  }
  return shown;
}

// The report as JSON shows it: the subgraphs asked for, then the advice.
ReportJsonView ModelJson(const ModelResult& r) {
  ReportJsonView view{&r.analysed.report, &r.subgraphs, {}};
  const nlohmann::ordered_json inputs = InputShapesJson(r.analysed.inputs);
  for (auto member = inputs.begin(); member != inputs.end(); ++member) {
    view.extra_members.emplace_back(
        member.key(), member->dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  if (r.advice.empty()) return view;
  auto advice = nlohmann::ordered_json::array();
  for (const Advice& a : r.advice) {
    auto ja = nlohmann::ordered_json::parse(AdviceToJson(a.advice));
    ja["subgraph"] = a.subgraph;
    advice.push_back(std::move(ja));
  }
  view.extra_members.emplace_back(
      "advice", advice.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  return view;
}

std::string ModelText(const ModelResult& r, OutputFormat format, bool verbose) {
  const Report shown = OnlySubgraphs(r.analysed.report, r.subgraphs);
  std::string out = format == OutputFormat::kMarkdown
                        ? ReportMarkdown(shown, *r.analysed.model, verbose)
                        : ReportText(shown, *r.analysed.model, verbose);
  out += InputShapesText(r.analysed.inputs, *r.analysed.model);
  for (const Advice& a : r.advice) {
    const std::string heading =
        "advice for " + a.advice.delegate + ", subgraph " + std::to_string(a.subgraph);
    out += format == OutputFormat::kMarkdown ? "\n### " + heading + "\n\n```\n"
                                             : "\n" + heading + ":\n";
    out += AdviceText(a.advice, r.analysed.model->subgraphs[static_cast<size_t>(a.subgraph)]);
    if (format == OutputFormat::kMarkdown) out += "```\n";
  }
  return out;
}

// The files --html, --model-explorer and --trace ask for, of the one model they allow.
void WriteRequestedFiles(const ReportArgs& args, const ModelResult& r) {
  auto check = [](const Status& written) {
    if (!written.ok()) throw CommandError{written.message()};
  };
  if (!args.html.empty()) {
    viz::HtmlReportOptions html;
    for (const Advice& a : r.advice) html.advice.push_back({a.subgraph, a.advice});
    check(viz::WriteHtmlReport(*r.analysed.model, r.analysed.report, html, args.html));
  }
  if (!args.model_explorer.empty()) {
    check(viz::WriteModelExplorerOverlays(ModelExplorerOverlays(r.analysed.plan, r.analysed.report),
                                          args.model_explorer));
  }
  if (!args.trace.empty()) {
    check(
        viz::WriteMemoryTrace(BuildMemoryTimeline(r.analysed.plan, r.analysed.report), args.trace));
  }
}

// The reports of the models that could be analysed; with several models given, the multi-model
// forms even when only one of them could be.
void WriteReports(const ReportArgs& args, OutputFormat format,
                  const std::vector<ModelResult>& results) {
  if (results.empty()) return;
  const bool several = args.models.size() > 1;

  if (results.size() == 1) WriteRequestedFiles(args, results[0]);

  if (format == OutputFormat::kJson) {
    // Streamed: a million-node report is tens of MB.
    if (!several) {
      WriteReportJson(ModelJson(results[0]), std::cout);
    } else {
      std::vector<ReportJsonView> views;
      for (const ModelResult& r : results) views.push_back(ModelJson(r));
      WriteReportsJson(views, std::cout);
    }
    std::cout << '\n';
    return;
  }
  std::string out;
  std::vector<SummaryRow> rows;
  for (const ModelResult& r : results) {
    rows.push_back({r.analysed.report.model, FiguresOf(r.analysed.report)});
    if (args.summary_only || format == OutputFormat::kCsv) continue;
    if (!out.empty()) out += "\n";
    out += ModelText(r, format, args.verbose);
  }
  if (format == OutputFormat::kCsv) return WriteOutput("-", SummaryTableCsv(rows));
  if (args.summary_only) {
    return WriteOutput("-", format == OutputFormat::kMarkdown
                                ? SummaryTableMarkdown(rows)
                                : SummaryTableText(rows, Style::ForStdout()));
  }
  if (several) {
    out += format == OutputFormat::kMarkdown ? "\n## Summary\n\n" + SummaryTableMarkdown(rows)
                                             : "\n" + SummaryTableText(rows, Style::ForStdout());
  }
  WriteOutput("-", out);
}

struct ModelComparison {
  std::string model;
  AcceleratorComparison comparison;
};

// --compare-accelerators: each model planned once per candidate accelerator, ranked.
void RunAcceleratorComparison(const ReportArgs& args, OutputFormat format) {
  if (format != OutputFormat::kText && format != OutputFormat::kJson) {
    throw CommandError{"--compare-accelerators writes text or JSON"};
  }
  if (!args.html.empty() || !args.model_explorer.empty() || !args.trace.empty() ||
      args.summary_only) {
    throw CommandError{
        "--compare-accelerators writes the comparison only (no --html, --model-explorer, "
        "--trace, --summary)"};
  }
  ComparisonOptions options;
  options.plan.invoke_facts = args.invoke_facts.Facts();
  options.plan.build = args.kernel_build.BuildOrThrow();
  const std::vector<InputShapeRequest> shapes = args.input_shapes.Requests();
  std::vector<ModelComparison> results;
  std::vector<std::string> errors;
  {
    ProgressBar progress("models", args.models.size());
    auto outcomes = MapModels(
        args.models,
        [&](size_t i) {
          Model model = LoadModelOrThrow(args.models[i]);
          ApplyInputShapesOrThrow(model, shapes, args.common.Signature());
          auto comparison =
              CompareAccelerators(std::make_shared<const Model>(std::move(model)), options);
          if (!comparison.ok()) {
            std::string message = args.models[i];
            message += ": ";
            message += comparison.status().message();
            throw CommandError{message};
          }
          return ModelComparison{args.models[i], std::move(comparison).value()};
        },
        [&] { progress.Advance(); });
    errors = ModelErrors(outcomes);
    for (auto& o : outcomes) {
      if (o.result) results.push_back(std::move(*o.result));
    }
  }
  if (format == OutputFormat::kJson) {
    auto models = nlohmann::ordered_json::array();
    for (const ModelComparison& r : results) {
      nlohmann::ordered_json j;
      j["model"] = r.model;
      j["accelerator_comparison"] =
          nlohmann::ordered_json::parse(AcceleratorComparisonToJson(r.comparison));
      models.push_back(std::move(j));
    }
    const nlohmann::ordered_json out = args.models.size() == 1 && models.size() == 1
                                           ? models[0]
                                           : nlohmann::ordered_json{{"models", models}};
    if (!results.empty()) {
      WriteOutput("-", out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    }
  } else {
    std::string out;
    for (const ModelComparison& r : results) {
      if (!out.empty()) out += '\n';
      out += AcceleratorComparisonText(r.model, r.comparison, Style::ForStdout());
    }
    if (!out.empty()) WriteOutput("-", out);
  }
  EndWithModelErrors(errors);
}

void RunReport(const ReportArgs& args) {
  const OutputFormat format = args.common.Format();
  if (args.compare_accelerators) {
    if (!args.delegates.Requests().empty() || args.advise || args.tflm_target.BuildOrThrow()) {
      throw CommandError{
          "--compare-accelerators plans each candidate alone: no --delegate, --advise or "
          "--target"};
    }
    return RunAcceleratorComparison(args, format);
  }
  const std::vector<DelegateRequest> requests = args.delegates.Requests();
  if (auto tflm_build = args.tflm_target.BuildOrThrow()) {
    if (!requests.empty()) throw CommandError{"--target tflm takes no --delegate"};
    if (!args.input_shapes.Requests().empty()) throw CommandError{kTflmInputShapeRefusal};
    if (!args.model_explorer.empty() || !args.trace.empty()) {
      throw CommandError{"--model-explorer and --trace show TFLite's plan, not --target tflm's"};
    }
    if (!args.html.empty()) {
      if (args.models.size() != 1) {
        throw CommandError{"--html writes one model's report: give one model"};
      }
      const Model model = LoadModelOrThrow(args.models[0]);
      auto arena = tflm::ReplayMicroAllocator(model, *tflm_build);
      if (!arena.ok()) throw CommandError{arena.status().message()};
      if (Status written = viz::WriteTflmHtmlReport(model, *arena, args.html); !written.ok()) {
        throw CommandError{written.message()};
      }
    }
    return RunTflmReport(args.models, *tflm_build, args.tflm_target.ArenaBudgetOrThrow(), format);
  }
  const InvokeFacts facts = args.invoke_facts.Facts();
  const std::vector<InputShapeRequest> shapes = args.input_shapes.Requests();
  const KernelBuild build = args.kernel_build.BuildOrThrow();
  if (!args.html.empty() && args.models.size() != 1) {
    throw CommandError{"--html writes one model's report: give one model"};
  }
  if (!args.model_explorer.empty() && args.models.size() != 1) {
    throw CommandError{"--model-explorer writes one model's overlays: give one model"};
  }
  if (!args.trace.empty() && args.models.size() != 1) {
    throw CommandError{"--trace writes one model's memory timeline: give one model"};
  }
  if (args.summary_only && format != OutputFormat::kText && format != OutputFormat::kMarkdown) {
    throw CommandError{"--summary is a table for text and Markdown (--format csv is one already)"};
  }
  if (args.advise && requests.empty())
    throw CommandError{"--advise needs a --delegate to advise on"};
  // A model that fails is named on stderr at the end (exit 2); the others are reported.
  std::vector<ModelResult> results;
  std::vector<std::string> errors;
  {
    ProgressBar progress("models", args.models.size());
    auto outcomes = MapModels(
        args.models,
        [&](size_t i) {
          ModelResult r{AnalyseOrThrow(args.models[i], requests, facts, args.advise, shapes,
                                       args.common.Signature(), build),
                        {},
                        {}};
          r.subgraphs = args.common.Subgraphs(*r.analysed.model);
          if (args.advise) r.advice = AdviseOrThrow(r.analysed, r.subgraphs);
          return r;
        },
        [&] { progress.Advance(); });
    errors = ModelErrors(outcomes);
    for (auto& o : outcomes) {
      if (o.result) results.push_back(std::move(*o.result));
    }
  }
  WriteReports(args, format, results);
  EndWithModelErrors(errors);
}

}  // namespace

void AddReportCommand(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("report", "Predict delegate partitions, copy costs and the tensor arena");
  cmd->footer(
      "Examples:\n"
      "  tflite-analyze report corpus/models/face_detection__face_detection_short_range.tflite "
      "--delegate gpu --max-partitions 2\n"
      "  tflite-analyze report corpus/models/*.tflite --delegate xnnpack   (all cores, summary "
      "table)\n"
      "  tflite-analyze report model.tflite --delegate gpu --advise --html report.html\n"
      "  tflite-analyze report model.tflite --compare-accelerators   (gpu, xnnpack, every NPU "
      "plugin)\n"
      "  tflite-analyze report model.tflite --delegate gpu --model-explorer overlays/ --trace "
      "memory.json\n"
      "  tflite-analyze report corpus/models/*.tflite --delegate gpu --format csv   (one row per "
      "model)\n"
      "  tflite-analyze report if_model.tflite --if-condition 0:1=false   (after one Invoke)\n"
      "  tflite-analyze report model.tflite --target tflm   (TFLite Micro's arena and resolver)");
  auto args = std::make_shared<ReportArgs>();
  cmd->add_option("models", args->models, ".tflite or Graph JSON files")->required();
  cmd->add_option("--html", args->html, "Also write a self-contained HTML report (one model)");
  cmd->add_option("--model-explorer", args->model_explorer,
                  "Also write Model Explorer node data (delegate, copies, arena) into this "
                  "directory (one model)");
  cmd->add_option("--trace", args->trace,
                  "Also write the arena over time as a Chrome trace for Perfetto (one model)");
  cmd->add_flag("--advise", args->advise,
                "Add the delegation advisor: candidate partitions, --max-partitions outcomes, "
                "nodes worth supporting");
  cmd->add_flag("--compare-accelerators", args->compare_accelerators,
                "Instead of the report: plan the model once per accelerator (gpu, xnnpack, "
                "npu:VENDOR...), rank them by CPU nodes left, bytes copied, partitions, and name "
                "the op to support next on each");
  cmd->add_flag("--verbose", args->verbose,
                "List every node left on the CPU, not groups by op and reason");
  args->delegates.AddTo(cmd);
  args->invoke_facts.AddTo(cmd);
  args->input_shapes.AddTo(cmd);
  args->kernel_build.AddTo(cmd);
  args->tflm_target.AddTo(cmd);
  cmd->add_flag("--summary", args->summary_only,
                "Only the summary table: one row per model, totals over its subgraphs");
  args->common.AddTo(
      cmd, {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kMarkdown, OutputFormat::kCsv});
  cmd->callback([args] { RunReport(*args); });
}

}  // namespace tfa::cli
