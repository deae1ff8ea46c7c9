#include "cli/summary_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "libanalysis/core/byte_units.h"

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

// RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled.
std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string SummaryTableText(const std::vector<SummaryRow>& rows, const Style& style) {
  const std::vector<std::string> names = RowNames(rows);
  size_t width = 5;
  for (const std::string& name : names) width = std::max(width, name.size());
  const std::string header = fmt::format(
      "{:<{}}  {:>6}  {:>10}  {:>9}  {:>15}  {:>13}  {:>10}  {:>10}", "model", width, "nodes",
      "partitions", "delegated", "bytes/inference", "uploaded once", "arena", "persistent");
  std::string out = style.Bold(header) + "\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const ReportFigures& f = rows[i].figures;
    out += fmt::format("{:<{}}  {:>6}  {:>10}  {:>9}  {:>15}  {:>13}  {:>10}  {:>10}\n", names[i],
                       width, f.nodes, f.partitions, f.delegated_partitions,
                       HumanBytes(f.copy_bytes), HumanBytes(f.uploaded_once_bytes),
                       HumanBytes(f.arena_bytes), HumanBytes(f.persistent_bytes));
  }
  return out;
}

std::string SummaryTableMarkdown(const std::vector<SummaryRow>& rows) {
  std::string out =
      "| model | nodes | partitions | delegated | bytes/inference | uploaded once | arena | "
      "persistent |\n|---|---:|---:|---:|---:|---:|---:|---:|\n";
  const std::vector<std::string> names = RowNames(rows);
  for (size_t i = 0; i < rows.size(); ++i) {
    const ReportFigures& f = rows[i].figures;
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} |\n", names[i], f.nodes,
                       f.partitions, f.delegated_partitions, f.copy_bytes, f.uploaded_once_bytes,
                       f.arena_bytes, f.persistent_bytes);
  }
  return out;
}

std::string SummaryTableCsv(const std::vector<SummaryRow>& rows) {
  std::string out =
      "model,nodes,partitions,delegated_partitions,bytes_per_inference,uploaded_once_bytes,"
      "arena_bytes,persistent_bytes,delegate_bytes,delegate_bytes_basis\n";
  for (const SummaryRow& r : rows) {
    const ReportFigures& f = r.figures;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", CsvField(r.model), f.nodes, f.partitions,
                       f.delegated_partitions, f.copy_bytes, f.uploaded_once_bytes, f.arena_bytes,
                       f.persistent_bytes, f.delegate_bytes,
                       f.delegate_bytes_unknown ? "predicted+unknown" : "predicted");
  }
  return out;
}

}  // namespace tfa::cli
