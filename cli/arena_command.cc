#include "cli/arena_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/common_flags.h"
#include "cli/delegate_args.h"
#include "cli/report_text.h"
#include "visualizers/arena_picture.h"

namespace tfa::cli {
namespace {

struct ArenaArgs {
  std::string model;
  std::string planner = "tflite";
  std::string svg;
  DelegateArgs delegates;
  CommonFlags common;
};

// One planner's result on one subgraph.
struct PlannerRow {
  std::string planner;
  uint64_t size = 0;
};

struct SubgraphArena {
  int32_t subgraph = 0;
  uint64_t lower_bound = 0;
  uint64_t persistent = 0;
  std::vector<PlannerRow> rows;
};

// The planners the arena command knows; "tflite" is upstream's ArenaPlanner, replayed by the
// report. The others arrive with libanalysis/arena/alternative_planners.h.
const std::vector<std::string>& PlannerNames() {
  static const std::vector<std::string> names = {"tflite"};
  return names;
}

std::vector<std::string> PlannersToRun(const std::string& choice) {
  if (choice == "all") return PlannerNames();
  for (const std::string& name : PlannerNames()) {
    if (name == choice) return {name};
  }
  throw CommandError{fmt::format("--planner: unknown planner \"{}\" (available: {}, all)", choice,
                                 fmt::join(PlannerNames(), ", "))};
}

std::string Gap(uint64_t size, uint64_t lower_bound) {
  const int64_t gap = static_cast<int64_t>(size) - static_cast<int64_t>(lower_bound);
  if (lower_bound == 0) return fmt::format("{:+}", gap);
  return fmt::format("{:+} ({:+.1f}%)", gap,
                     100.0 * static_cast<double>(gap) / static_cast<double>(lower_bound));
}

std::string ArenaText(const std::string& title, const std::vector<SubgraphArena>& arenas,
                      bool markdown) {
  std::string out = markdown ? "## `" + title + "`\n" : title + "\n";
  for (const SubgraphArena& a : arenas) {
    if (markdown) {
      out += fmt::format("\n### Subgraph {} (lower bound {} B, persistent {} B)\n\n", a.subgraph,
                         a.lower_bound, a.persistent);
      out += "| planner | arena bytes | gap to lower bound |\n|---|---:|---:|\n";
      for (const PlannerRow& r : a.rows) {
        out += fmt::format("| {} | {} | {} |\n", r.planner, r.size, Gap(r.size, a.lower_bound));
      }
      continue;
    }
    out += fmt::format("\nsubgraph {}: lower bound {} ({}), persistent arena {} ({})\n", a.subgraph,
                       a.lower_bound, HumanBytes(a.lower_bound), a.persistent,
                       HumanBytes(a.persistent));
    out += fmt::format("  {:<16} {:>12} {:>10}  {}\n", "planner", "arena bytes", "",
                       "gap to lower bound");
    for (const PlannerRow& r : a.rows) {
      out += fmt::format("  {:<16} {:>12} {:>10}  {}\n", r.planner, r.size, HumanBytes(r.size),
                         Gap(r.size, a.lower_bound));
    }
  }
  return out;
}

void RunArena(const ArenaArgs& args) {
  const OutputFormat format = args.common.Format();
  const std::vector<std::string> planners = PlannersToRun(args.planner);
  const AnalysedModel analysed = AnalyseOrThrow(args.model, args.delegates.Requests());
  const std::vector<int32_t> subgraphs = args.common.Subgraphs(analysed.model);
  if (!args.svg.empty()) {
    if (subgraphs.size() != 1) throw CommandError{"--svg draws one subgraph: give --subgraph N"};
    const SubgraphReport& s = analysed.report.subgraphs[static_cast<size_t>(subgraphs[0])];
    if (!s.arena)
      throw CommandError{args.model + ": subgraph " + std::to_string(s.index) +
                         " has no arena plan"};
    viz::ArenaPictureOptions picture;
    picture.title = analysed.report.model + ", subgraph " + std::to_string(s.index);
    const Status written = viz::WriteArenaSvg(
        *s.arena, analysed.model.subgraphs[static_cast<size_t>(s.index)], picture, args.svg);
    if (!written.ok()) throw CommandError{written.message()};
  }

  std::vector<SubgraphArena> arenas;
  for (int32_t index : subgraphs) {
    const SubgraphReport& s = analysed.report.subgraphs[static_cast<size_t>(index)];
    if (!s.arena) continue;
    SubgraphArena a{index, s.arena->lower_bound, s.arena->persistent_size, {}};
    for (const std::string& planner : planners) a.rows.push_back({planner, s.arena->size});
    arenas.push_back(std::move(a));
  }

  std::string title = analysed.report.model;
  if (!analysed.report.delegates.empty()) {
    title += fmt::format("  (delegates: {})", fmt::join(analysed.report.delegates, " "));
  }
  if (format != OutputFormat::kJson) {
    return WriteOutput("-", ArenaText(title, arenas, format == OutputFormat::kMarkdown));
  }
  nlohmann::ordered_json j{{"model", analysed.report.model},
                           {"delegates", analysed.report.delegates},
                           {"subgraphs", nlohmann::ordered_json::array()}};
  for (const SubgraphArena& a : arenas) {
    nlohmann::ordered_json js{{"index", a.subgraph},
                              {"lower_bound", a.lower_bound},
                              {"persistent_size", a.persistent},
                              {"planners", nlohmann::ordered_json::array()}};
    for (const PlannerRow& r : a.rows) {
      js["planners"].push_back(
          {{"planner", r.planner},
           {"size", r.size},
           {"gap", static_cast<int64_t>(r.size) - static_cast<int64_t>(a.lower_bound)}});
    }
    j["subgraphs"].push_back(std::move(js));
  }
  WriteOutput("-", j.dump(2));
}

}  // namespace

void AddArenaCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("arena", "Arena size per planner and its gap to the lower bound");
  cmd->footer(
      "Examples:\n"
      "  tflite-analyze arena corpus/models/hands__palm_detection_lite.tflite --delegate gpu "
      "--planner all\n"
      "  tflite-analyze arena model.tflite --svg arena.svg");
  auto args = std::make_shared<ArenaArgs>();
  cmd->add_option("model", args->model, ".tflite or Graph JSON file")->required();
  cmd->add_option("--planner", args->planner, "Planner to run, or \"all\" (default: tflite)");
  cmd->add_option("--svg", args->svg, "Also draw the arena (TFLite's plan) as SVG; one subgraph");
  args->delegates.AddTo(cmd);
  args->common.AddTo(cmd, {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kMarkdown});
  cmd->callback([args] { RunArena(*args); });
}

}  // namespace tfa::cli
