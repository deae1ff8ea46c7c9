#include "cli/tflm_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <optional>

#include "cli/command.h"
#include "cli/tflm_target_args.h"
#include "libanalysis/core/byte_units.h"
#include "libanalysis/tflm/cmsis_nn_buffer_sizes.h"
#include "libanalysis/tflm/tflm_target.h"

namespace tfa::cli {
namespace {

std::string TargetWords(const tflm::TflmArena& arena) {
  std::string words = arena.target == tflm::Target::kHost64 ? "64-bit host"
                      : arena.abi == tflm::Abi::kAapcs      ? "32-bit microcontroller, AAPCS"
                                                            : "32-bit microcontroller, i386 ABI";
  if (arena.static_memory) words += ", TF_LITE_STATIC_MEMORY";
  if (arena.recording_allocator) words += ", RecordingMicroAllocator";
  if (arena.cmsis_nn) {
    words += fmt::format(", CMSIS-NN kernels for {} ({} code path)",
                         tflm::CmsisNnCpuName(*arena.cmsis_nn),
                         tflm::CodePathName(tflm::CodePathOf(*arena.cmsis_nn)));
  }
  return words;
}

std::string BuildName(const tflm::TflmArena& arena) {
  return arena.cmsis_nn ? std::string(tflm::kCmsisNnTargetName) : tflm::TargetName(arena.target);
}

// No reference here runs a CMSIS-NN build: its figures are the replay's prediction.
std::string PredictedNote(const tflm::TflmArena& arena) {
  if (!arena.cmsis_nn) return "";
  return "  predicted: the CMSIS-NN kernels' OpData and buffers follow tflite-micro's "
         "kernels/cmsis_nn and CMSIS-NN's get_buffer_size functions; no reference measures them "
         "here\n";
}

// The CMSIS-NN build's core, code path and the "predicted" label; null for the reference kernels.
nlohmann::ordered_json CmsisNnJson(const tflm::TflmArena& arena) {
  if (!arena.cmsis_nn) return nullptr;
  return {{"cpu", tflm::CmsisNnCpuName(*arena.cmsis_nn)},
          {"code_path", tflm::CodePathName(tflm::CodePathOf(*arena.cmsis_nn))},
          {"figures", "predicted"}};
}

std::string OwnerText(const tflm::TailItem& item) {
  if (item.node >= 0) return fmt::format("node {}", item.node);
  if (item.tensor >= 0) return fmt::format("tensor {}", item.tensor);
  return "";
}

// A table row without the trailing blanks an empty last column leaves.
std::string Row(std::string row) {
  row.erase(row.find_last_not_of(' ') + 1);
  return row + "\n";
}

std::string Summary(const std::string& model_path, const tflm::TflmArena& arena) {
  std::string out = fmt::format("{}: TFLite Micro arena ({}, {}; rules of {})\n", model_path,
                                BuildName(arena), TargetWords(arena), tflm::kTflmRulesVersion);
  out += PredictedNote(arena);
  const auto offline = std::count_if(arena.head_buffers.begin(), arena.head_buffers.end(),
                                     [](const tflm::HeadBuffer& b) { return b.offline; });
  out += fmt::format(
      "  head                      {:>10}  {}  ({} tensors and {} scratch buffers, "
      "GreedyMemoryPlanner{})\n",
      arena.head, HumanBytes(arena.head), arena.head_buffers.size() - arena.scratch_buffer_count,
      arena.scratch_buffer_count,
      arena.offline_plan ? fmt::format(" around {} at the model's offline offsets", offline) : "");
  out += fmt::format("  tail                      {:>10}  {}  (the model's persistent data)\n",
                     arena.tail, HumanBytes(arena.tail));
  out += fmt::format("  allocator objects         {:>10}  {}\n", arena.allocator_objects,
                     HumanBytes(arena.allocator_objects));
  out += fmt::format("  arena_used_bytes()        {:>10}  {}\n", arena.arena_used_bytes,
                     HumanBytes(arena.arena_used_bytes));
  out += fmt::format(
      "  AllocateTensors peak      {:>10}  {}  (tail + scratch requests and "
      "planner memory)\n",
      arena.allocate_tensors_peak, HumanBytes(arena.allocate_tensors_peak));
  out += fmt::format(
      "  recommended kTensorArenaSize {:>7}  {}  (the larger of the two, rounded to 16, + 15 "
      "for an unaligned arena start)\n",
      arena.recommended_arena_size, HumanBytes(arena.recommended_arena_size));
  return out;
}

// --arena-budget: the budget against the recommended kTensorArenaSize (what the arena must hold
// for AllocateTensors to succeed wherever the array starts).
int64_t Spare(const tflm::TflmArena& arena, uint64_t budget) {
  return static_cast<int64_t>(budget) - static_cast<int64_t>(arena.recommended_arena_size);
}

std::string BudgetText(const tflm::TflmArena& arena, std::optional<uint64_t> budget) {
  if (!budget) return "";
  const int64_t spare = Spare(arena, *budget);
  if (spare >= 0) {
    return fmt::format("  arena budget              {:>10}  {}  fits: {} bytes ({}) to spare\n",
                       *budget, HumanBytes(*budget), spare,
                       HumanBytes(static_cast<uint64_t>(spare)));
  }
  return fmt::format("  arena budget              {:>10}  {}  DOES NOT FIT: {} bytes ({}) over\n",
                     *budget, HumanBytes(*budget), -spare,
                     HumanBytes(static_cast<uint64_t>(-spare)));
}

nlohmann::ordered_json BudgetJson(const tflm::TflmArena& arena, uint64_t budget) {
  return {{"bytes", budget},
          {"needed", arena.recommended_arena_size},
          {"fits", Spare(arena, budget) >= 0},
          {"spare", Spare(arena, budget)}};
}

void EndWithBudgetVerdict(bool all_fit) {
  if (!all_fit) throw CommandError{"", kExitGateFailed};
}

}  // namespace

std::string OpResolverCode(const tflm::TflmArena& arena) {
  std::string out =
      fmt::format("tflite::MicroMutableOpResolver<{}> resolver;\n", arena.resolver.size());
  for (const tflm::ResolverEntry& entry : arena.resolver) {
    out += fmt::format("resolver.{}();\n", entry.method);
  }
  return out;
}

std::string TflmArenaText(const std::string& model_path, const tflm::TflmArena& arena) {
  return Summary(model_path, arena);
}

std::string TflmReportText(const std::string& model_path, const Model& model,
                           const tflm::TflmArena& arena, const std::string& budget_text) {
  std::string out = Summary(model_path, arena) + budget_text;
  out +=
      "\ntail, item by item from the arena's end (used = bytes the tail moved, padding "
      "included):\n";
  out += fmt::format("  {:<24} {:<28} {:>10} {:>10}  {}\n", "kind", "what", "requested", "used",
                     "owner");
  for (const tflm::TailItem& item : arena.tail_items) {
    out += Row(fmt::format("  {:<24} {:<28} {:>10} {:>10}  {}", tflm::TailItemKindName(item.kind),
                           item.what, item.requested, item.used, OwnerText(item)));
  }
  out +=
      "\nhead, per tensor and scratch buffer (lifetimes in allocation scopes: node i is "
      "scope i+1):\n";
  out += fmt::format("  {:<22} {:>10} {:>10} {:>10} {:>6} {:>6}  {}\n", "buffer", "bytes",
                     "planned", "offset", "first", "last", "name");
  for (const tflm::HeadBuffer& buffer : arena.head_buffers) {
    std::string label;
    std::string name;
    if (buffer.tensor >= 0) {
      label = buffer.subgraph == 0 ? fmt::format("tensor {}", buffer.tensor)
                                   : fmt::format("sg {} tensor {}", buffer.subgraph, buffer.tensor);
      name = model.subgraphs[static_cast<size_t>(buffer.subgraph)]
                 .tensors[static_cast<size_t>(buffer.tensor)]
                 .name;
    } else {
      label = fmt::format("scratch of node {}", buffer.node);
      name = model.subgraphs[static_cast<size_t>(buffer.subgraph)]
                 .nodes[static_cast<size_t>(buffer.node)]
                 .op;
    }
    out += Row(fmt::format("  {:<22} {:>10} {:>10} {:>10} {:>6} {:>6}  {}", label, buffer.bytes,
                           buffer.size, buffer.offset, buffer.first_used, buffer.last_used, name));
  }
  out += "\nop resolver:\n" + OpResolverCode(arena);
  return out;
}

nlohmann::ordered_json TflmJson(const tflm::TflmArena& arena) {
  const tflm::StructSizes& sizes = arena.sizes;
  nlohmann::ordered_json j{{"target", BuildName(arena)},
                           {"abi", arena.target == tflm::Target::kHost64
                                       ? nlohmann::ordered_json(nullptr)
                                       : nlohmann::ordered_json(tflm::AbiName(arena.abi))},
                           {"static_memory", arena.static_memory},
                           {"recording_allocator", arena.recording_allocator},
                           {"cmsis_nn", CmsisNnJson(arena)},
                           {"rules", std::string(tflm::kTflmRulesVersion)},
                           {"head", arena.head},
                           {"tail", arena.tail},
                           {"allocator_objects", arena.allocator_objects},
                           {"arena_used_bytes", arena.arena_used_bytes},
                           {"allocate_tensors_peak", arena.allocate_tensors_peak},
                           {"recommended_arena_size", arena.recommended_arena_size},
                           {"struct_sizes",
                            {{"TfLiteEvalTensor", sizes.eval_tensor.size},
                             {"NodeAndRegistration", sizes.node_and_registration.size},
                             {"TfLiteTensor", sizes.tensor.size},
                             {"TfLiteAffineQuantization", sizes.affine_quantization.size},
                             {"ScratchBufferHandle", sizes.scratch_buffer_handle.size}}},
                           {"recorded",
                            {{"tensor_count", arena.tensor_count},
                             {"node_count", arena.node_count},
                             {"eval_tensor_bytes", arena.eval_tensor_bytes},
                             {"node_and_registration_bytes", arena.node_and_registration_bytes},
                             {"variable_bytes", arena.variable_bytes},
                             {"persistent_tensor_bytes", arena.persistent_tensor_bytes},
                             {"persistent_quantization_bytes", arena.persistent_quantization_bytes},
                             {"persistent_buffer_bytes", arena.persistent_buffer_bytes},
                             {"op_data_requested", arena.op_data_requested},
                             {"builtin_options_bytes", arena.builtin_options_bytes}}},
                           {"tail_items", nlohmann::ordered_json::array()},
                           {"head_buffers", nlohmann::ordered_json::array()},
                           {"resolver", nlohmann::ordered_json::array()}};
  for (const tflm::TailItem& item : arena.tail_items) {
    nlohmann::ordered_json ji{{"kind", tflm::TailItemKindName(item.kind)},
                              {"what", item.what},
                              {"requested", item.requested},
                              {"used", item.used}};
    if (item.subgraph >= 0) ji["subgraph"] = item.subgraph;
    if (item.node >= 0) ji["node"] = item.node;
    if (item.tensor >= 0) ji["tensor"] = item.tensor;
    j["tail_items"].push_back(std::move(ji));
  }
  for (const tflm::HeadBuffer& buffer : arena.head_buffers) {
    nlohmann::ordered_json jb{{"subgraph", buffer.subgraph}};
    if (buffer.tensor >= 0) {
      jb["tensor"] = buffer.tensor;
    } else {
      jb["scratch_of_node"] = buffer.node;
    }
    jb["bytes"] = buffer.bytes;
    jb["size"] = buffer.size;
    jb["offset"] = buffer.offset;
    jb["first_used"] = buffer.first_used;
    jb["last_used"] = buffer.last_used;
    if (buffer.offline) jb["offline"] = true;  // placed by the model's OfflineMemoryAllocation
    j["head_buffers"].push_back(std::move(jb));
  }
  for (const tflm::ResolverEntry& entry : arena.resolver) {
    j["resolver"].push_back({{"op", entry.op}, {"method", entry.method}});
  }
  return j;
}

void RunTflmReport(const std::vector<std::string>& models, const tflm::Build& build,
                   std::optional<uint64_t> arena_budget, OutputFormat format) {
  if (format != OutputFormat::kText && format != OutputFormat::kJson &&
      format != OutputFormat::kMarkdown) {
    throw CommandError{"--target tflm reports as text, Markdown or JSON"};
  }
  auto reports = nlohmann::ordered_json::array();
  std::string out;
  bool all_fit = true;
  for (const std::string& path : models) {
    const Model model = LoadModelOrThrow(path);
    auto arena = tflm::ReplayMicroAllocator(model, build);
    if (!arena.ok()) throw CommandError{arena.status().message()};
    if (arena_budget) all_fit = all_fit && Spare(arena.value(), *arena_budget) >= 0;
    if (format == OutputFormat::kJson) {
      nlohmann::ordered_json tflm = TflmJson(arena.value());
      if (arena_budget) tflm["arena_budget"] = BudgetJson(arena.value(), *arena_budget);
      reports.push_back({{"model", path}, {"tool_version", TFA_VERSION}, {"tflm", tflm}});
      continue;
    }
    if (!out.empty()) out += "\n";
    const std::string text =
        TflmReportText(path, model, arena.value(), BudgetText(arena.value(), arena_budget));
    out += format == OutputFormat::kMarkdown ? "```\n" + text + "```\n" : text;
  }
  if (format != OutputFormat::kJson) {
    WriteOutput("-", out);
    return EndWithBudgetVerdict(all_fit);
  }
  const nlohmann::ordered_json doc =
      reports.size() == 1 ? reports[0] : nlohmann::ordered_json{{"reports", reports}};
  WriteOutput("-", doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  EndWithBudgetVerdict(all_fit);
}

void RunTflmArena(const std::string& model, const tflm::Build& build,
                  std::optional<uint64_t> arena_budget, OutputFormat format) {
  const tflm::TflmArena arena = ReplayTflmOrThrow(model, build);
  const bool fits = !arena_budget || Spare(arena, *arena_budget) >= 0;
  if (format == OutputFormat::kJson) {
    nlohmann::ordered_json tflm = TflmJson(arena);
    if (arena_budget) tflm["arena_budget"] = BudgetJson(arena, *arena_budget);
    const nlohmann::ordered_json doc{{"model", model}, {"tflm", tflm}};
    WriteOutput("-", doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    return EndWithBudgetVerdict(fits);
  }
  const std::string text = TflmArenaText(model, arena) + BudgetText(arena, arena_budget);
  WriteOutput("-", format == OutputFormat::kMarkdown ? "```\n" + text + "```\n" : text);
  EndWithBudgetVerdict(fits);
}

namespace {

struct TflmFigure {
  const char* name;
  uint64_t before;
  uint64_t after;
};

std::vector<TflmFigure> TflmFigures(const tflm::TflmArena& before, const tflm::TflmArena& after) {
  return {{"head", before.head, after.head},
          {"tail", before.tail, after.tail},
          {"allocator_objects", before.allocator_objects, after.allocator_objects},
          {"arena_used_bytes", before.arena_used_bytes, after.arena_used_bytes},
          {"allocate_tensors_peak", before.allocate_tensors_peak, after.allocate_tensors_peak},
          {"recommended_arena_size", before.recommended_arena_size, after.recommended_arena_size}};
}

// The resolver ops only `from` needs.
std::vector<std::string> OpsOnlyIn(const tflm::TflmArena& from, const tflm::TflmArena& other) {
  std::vector<std::string> ops;
  for (const tflm::ResolverEntry& entry : from.resolver) {
    bool shared = false;
    for (const tflm::ResolverEntry& e : other.resolver) shared = shared || e.op == entry.op;
    if (!shared) ops.push_back(entry.op);
  }
  return ops;
}

}  // namespace

void RunTflmDiff(const std::string& old_model, const std::string& new_model,
                 const tflm::Build& build, OutputFormat format) {
  const tflm::TflmArena before = ReplayTflmOrThrow(old_model, build);
  const tflm::TflmArena after = ReplayTflmOrThrow(new_model, build);
  const std::vector<TflmFigure> figures = TflmFigures(before, after);
  const std::vector<std::string> added = OpsOnlyIn(after, before);
  const std::vector<std::string> removed = OpsOnlyIn(before, after);
  if (format == OutputFormat::kJson) {
    nlohmann::ordered_json j{{"old", old_model},
                             {"new", new_model},
                             {"target", BuildName(before)},
                             {"cmsis_nn", CmsisNnJson(before)},
                             {"figures", nlohmann::ordered_json::object()},
                             {"resolver_added", added},
                             {"resolver_removed", removed}};
    for (const TflmFigure& f : figures) {
      j["figures"][f.name] = {{"before", f.before}, {"after", f.after}};
    }
    return WriteOutput("-", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  }
  std::string out = fmt::format("{} -> {}: TFLite Micro arena ({}, {})\n", old_model, new_model,
                                BuildName(before), TargetWords(before));
  out += PredictedNote(before) + "\n";
  out += fmt::format("  {:<24} {:>12} {:>12} {:>10}\n", "figure", "before", "after", "delta");
  for (const TflmFigure& f : figures) {
    out += fmt::format("  {:<24} {:>12} {:>12} {:>+10}\n", f.name, f.before, f.after,
                       static_cast<int64_t>(f.after) - static_cast<int64_t>(f.before));
  }
  for (const std::string& op : added) out += "  + resolver " + op + "\n";
  for (const std::string& op : removed) out += "  - resolver " + op + "\n";
  WriteOutput("-", format == OutputFormat::kMarkdown ? "```\n" + out + "```\n" : out);
}

}  // namespace tfa::cli
