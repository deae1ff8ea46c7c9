#include "cli/arena_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/common_flags.h"
#include "cli/delegate_args.h"
#include "cli/kernel_build_args.h"
#include "cli/tflm_report.h"
#include "cli/tflm_target_args.h"
#include "libanalysis/arena/alternative_planners.h"
#include "libanalysis/core/byte_units.h"
#include "visualizers/arena_picture.h"

namespace tfa::cli {
namespace {

struct ArenaArgs {
  std::string model;
  std::string planner = "tflite";
  std::string svg;
  DelegateArgs delegates;
  InputShapeArgs input_shapes;
  KernelBuildArgs kernel_build;
  TflmTargetArgs tflm_target;
  CommonFlags common;
};

// One planner's result on one subgraph.
struct PlannerRow {
  std::string planner;
  uint64_t size = 0;
  std::string note;  // e.g. "not proven" for an optimal search that gave up
};

struct SubgraphArena {
  int32_t subgraph = 0;
  uint64_t lower_bound = 0;
  uint64_t persistent = 0;
  std::vector<PlannerRow> rows;
};

// The planners the arena command knows; "tflite" is upstream's ArenaPlanner, replayed by the
// report; the others lay out the same blocks (libanalysis/arena/alternative_planners.h).
const std::vector<std::string>& PlannerNames() {
  static const std::vector<std::string> names = {"tflite", "tflm-greedy", "greedy-size",
                                                 "greedy-breadth", "optimal"};
  return names;
}

// The non-persistent arena's blocks as the TFLite plan has them (aliases share their owner's).
std::vector<ArenaBlock> ArenaBlocks(const ArenaReport& arena, int32_t& num_steps) {
  std::vector<ArenaBlock> blocks;
  num_steps = 0;
  for (const ArenaAllocation& a : arena.allocs) {
    if (a.persistent || a.shares_buffer_of) continue;
    blocks.push_back(ArenaBlock{a.tensor, a.offset, a.size, a.first_step, a.last_step});
    num_steps = std::max(num_steps, a.last_step + 1);
  }
  return blocks;
}

PlannerRow RunPlanner(const std::string& name, const ArenaReport& arena) {
  if (name == "tflite") {
    // The other planners lay out the last plan's blocks; the committed arena may be larger.
    if (!arena.planned || arena.high_water_mark == arena.size) return {name, arena.size, ""};
    return {name, arena.size,
            fmt::format("last plan needs {} ({}): the arena keeps an earlier, larger plan",
                        arena.high_water_mark, HumanBytes(arena.high_water_mark))};
  }
  auto kind = PlannerKindFromName(name);
  if (!kind.ok()) throw CommandError{kind.status().message()};
  int32_t num_steps = 0;
  const std::vector<ArenaBlock> blocks = ArenaBlocks(arena, num_steps);
  auto plan = PlanWith(*kind, blocks, num_steps);
  if (!plan.ok()) throw CommandError{plan.status().message()};
  std::string note;
  if (*kind == PlannerKind::kOptimal) {
    note = plan->optimal
               ? "proven optimal"
               : fmt::format("not proven (best found by {})", PlannerKindName(plan->found_by));
  }
  return {name, plan->arena_size, note};
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
        out += fmt::format("| {} | {} | {} {} |\n", r.planner, r.size, Gap(r.size, a.lower_bound),
                           r.note);
      }
      continue;
    }
    out += fmt::format("\nsubgraph {}: lower bound {} ({}), persistent arena {} ({})\n", a.subgraph,
                       a.lower_bound, HumanBytes(a.lower_bound), a.persistent,
                       HumanBytes(a.persistent));
    out += fmt::format("  {:<16} {:>12} {:>10}  {}\n", "planner", "arena bytes", "",
                       "gap to lower bound");
    for (const PlannerRow& r : a.rows) {
      out += fmt::format("  {:<16} {:>12} {:>10}  {}{}\n", r.planner, r.size, HumanBytes(r.size),
                         Gap(r.size, a.lower_bound), r.note.empty() ? "" : "  " + r.note);
    }
  }
  return out;
}

void RunArena(const ArenaArgs& args) {
  const OutputFormat format = args.common.Format();
  if (auto build = args.tflm_target.BuildOrThrow()) {
    if (!args.delegates.Requests().empty()) throw CommandError{"--target tflm takes no --delegate"};
    if (!args.input_shapes.Requests().empty()) throw CommandError{kTflmInputShapeRefusal};
    return RunTflmArena(args.model, *build, args.tflm_target.ArenaBudgetOrThrow(), format);
  }
  const std::vector<std::string> planners = PlannersToRun(args.planner);
  const AnalysedModel analysed =
      AnalyseOrThrow(args.model, args.delegates.Requests(), {}, false, args.input_shapes.Requests(),
                     args.common.Signature(), args.kernel_build.BuildOrThrow());
  const std::vector<int32_t> subgraphs = args.common.Subgraphs(*analysed.model);
  if (!args.svg.empty()) {
    if (subgraphs.size() != 1) throw CommandError{"--svg draws one subgraph: give --subgraph N"};
    const SubgraphReport& s = analysed.report.subgraphs[static_cast<size_t>(subgraphs[0])];
    if (!s.arena)
      throw CommandError{args.model + ": subgraph " + std::to_string(s.index) +
                         " has no arena plan"};
    viz::ArenaPictureOptions picture;
    picture.title = analysed.report.model + ", subgraph " + std::to_string(s.index);
    const Status written = viz::WriteArenaSvg(
        *s.arena, analysed.model->subgraphs[static_cast<size_t>(s.index)], picture, args.svg);
    if (!written.ok()) throw CommandError{written.message()};
  }

  std::vector<SubgraphArena> arenas;
  for (int32_t index : subgraphs) {
    const SubgraphReport& s = analysed.report.subgraphs[static_cast<size_t>(index)];
    if (!s.arena) continue;
    SubgraphArena a{index, s.arena->lower_bound, s.arena->persistent_size, {}};
    for (const std::string& planner : planners) a.rows.push_back(RunPlanner(planner, *s.arena));
    arenas.push_back(std::move(a));
  }

  std::string title = analysed.report.model;
  if (!analysed.report.delegates.empty()) {
    title += fmt::format("  (delegates: {})", fmt::join(analysed.report.delegates, " "));
  }
  if (format != OutputFormat::kJson) {
    return WriteOutput("-", ArenaText(title, arenas, format == OutputFormat::kMarkdown) +
                                InputShapesText(analysed.inputs, *analysed.model));
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
           {"gap", static_cast<int64_t>(r.size) - static_cast<int64_t>(a.lower_bound)},
           {"note", r.note}});
    }
    j["subgraphs"].push_back(std::move(js));
  }
  j.update(InputShapesJson(analysed.inputs));
  WriteOutput("-", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
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
  args->input_shapes.AddTo(cmd);
  args->kernel_build.AddTo(cmd);
  args->tflm_target.AddTo(cmd);
  args->common.AddTo(cmd, {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kMarkdown});
  cmd->callback([args] { RunArena(*args); });
}

}  // namespace tfa::cli
