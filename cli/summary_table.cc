#include "cli/summary_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "cli/report_text.h"

namespace tfa::cli {
namespace {

std::string FileName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// Rows are named by file name, which is short and what people call a model, unless two models
// share one (v1/model.tflite, v2/model.tflite): then every row shows the path as given.
std::vector<std::string> RowNames(const std::vector<SummaryRow>& rows) {
  std::vector<std::string> names;
  for (const SummaryRow& r : rows) names.push_back(FileName(r.model));
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) return names;
  names.clear();
  for (const SummaryRow& r : rows) names.push_back(r.model);
  return names;
}

}  // namespace

std::string SummaryTableText(const std::vector<SummaryRow>& rows, const Style& style) {
  const std::vector<std::string> names = RowNames(rows);
  size_t width = 5;
  for (const std::string& name : names) width = std::max(width, name.size());
  const std::string header =
      fmt::format("{:<{}}  {:>6}  {:>10}  {:>9}  {:>15}  {:>10}  {:>10}", "model", width, "nodes",
                  "partitions", "delegated", "bytes/inference", "arena", "persistent");
  std::string out = style.Bold(header) + "\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const ReportFigures& f = rows[i].figures;
    out += fmt::format("{:<{}}  {:>6}  {:>10}  {:>9}  {:>15}  {:>10}  {:>10}\n", names[i], width,
                       f.nodes, f.partitions, f.delegated_partitions, HumanBytes(f.copy_bytes),
                       HumanBytes(f.arena_bytes), HumanBytes(f.persistent_bytes));
  }
  return out;
}

std::string SummaryTableMarkdown(const std::vector<SummaryRow>& rows) {
  std::string out =
      "| model | nodes | partitions | delegated | bytes/inference | arena | persistent |\n"
      "|---|---:|---:|---:|---:|---:|---:|\n";
  const std::vector<std::string> names = RowNames(rows);
  for (size_t i = 0; i < rows.size(); ++i) {
    const ReportFigures& f = rows[i].figures;
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", names[i], f.nodes, f.partitions,
                       f.delegated_partitions, f.copy_bytes, f.arena_bytes, f.persistent_bytes);
  }
  return out;
}

}  // namespace tfa::cli
