#include "visualizers/html_report.h"

#include <fmt/format.h>

#include <vector>

#include "libanalysis/core/byte_units.h"
#include "libanalysis/report/cpu_nodes.h"
#include "libanalysis/report/plan_step_node.h"
#include "visualizers/advice_text.h"
#include "visualizers/arena_picture.h"
#include "visualizers/markup_escape.h"
#include "visualizers/output_file.h"
#include "visualizers/palette.h"
#include "visualizers/partition_graph.h"
#include "visualizers/partition_view.h"
#include "visualizers/report_headlines.h"

namespace tfa::viz {
namespace {

constexpr const char* kStyle = R"css(
body { font-family: Helvetica, Arial, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin-top: 1.5em; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
td.spec { overflow-wrap: anywhere; min-width: 8em; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; border: 1px solid; margin-right: 0.4em; vertical-align: -0.1em; }
figure { margin: 0; overflow: auto; border: 1px solid #eee; max-height: 90vh; }
figure svg { max-width: 100%; height: auto; }
.meta { color: #666; }
.headline { font-weight: bold; color: #a40000; }
)css";

std::string Cell(const std::string& text) { return "<td>" + EscapeMarkup(text) + "</td>"; }
// "#12", or nothing for a partition without nodes (-1).
std::string NodeNumber(int32_t node) {
  if (node < 0) return "";
  std::string text = "#";
  text += std::to_string(node);
  return text;
}

std::string NumberCell(const std::string& text) {
  return "<td class=\"num\">" + EscapeMarkup(text) + "</td>";
}
std::string BytesCell(uint64_t bytes) {
  return fmt::format("<td class=\"num\" title=\"{} B\">{}</td>", bytes, HumanBytes(bytes));
}

void AppendFigures(std::string& html, const SubgraphReport& report) {
  html += "<h3>Figures</h3>\n<table class=\"figures\">\n";
  auto row = [&](const std::string& name, const std::string& value_cell) {
    html += "<tr><th>" + EscapeMarkup(name) + "</th>" + value_cell + "</tr>\n";
  };
  row("partitions", NumberCell(std::to_string(report.partitions.size())));
  row("delegated partitions", NumberCell(std::to_string(report.delegated_partition_count)));
  row("copied to delegates per inference", BytesCell(report.copy.bytes_to_delegate));
  row("copied from delegates per inference", BytesCell(report.copy.bytes_from_delegate));
  row("CPU/delegate transitions", NumberCell(std::to_string(report.copy.transitions)));
  row("constants uploaded once", BytesCell(report.copy.init_upload_bytes));
  if (report.accelerators) {
    row("of which to accelerators per inference", BytesCell(report.copy.accelerator_bytes_in));
    row("of which from accelerators per inference", BytesCell(report.copy.accelerator_bytes_out));
  }
  if (report.arena) {
    row("arena size", BytesCell(report.arena->size));
    row("arena lower bound", BytesCell(report.arena->lower_bound));
    const PlanStepNode& at = report.arena->peak_at;
    row("peak at step", NumberCell(std::to_string(report.arena->peak_step) +
                                   (at.op.empty() ? "" : ", " + PlanStepNodeText(at))));
    row("persistent arena", BytesCell(report.arena->persistent_size));
  }
  if (report.arena_cpu_only) row("arena size, CPU only", BytesCell(report.arena_cpu_only->size));
  // What each delegate owns outside the arena, part by part, with how the figure is known.
  for (const DelegateMemory& m : report.delegate_memory) {
    for (const DelegateMemoryPart& p : m.parts) {
      std::string name = m.delegate;
      name += ' ';
      name += p.kind;
      name += " (";
      name += MemoryBasisName(p.basis);
      name += ')';
      row(name, p.basis == MemoryBasis::kUnknown ? NumberCell("unknown") : BytesCell(p.bytes));
    }
  }
  html += "</table>\n";
}

void AppendPartitionTable(std::string& html, const SubgraphReport& report,
                          const PartitionView& view) {
  html +=
      "<h3>Partitions</h3>\n<table class=\"partitions\">\n<tr><th>#</th><th>kind</th>"
      "<th>delegate</th><th>nodes</th><th>first node</th><th>last node</th><th>ops</th>"
      "<th>boundary in</th><th>boundary out</th><th>copied per inference</th></tr>\n";
  for (size_t p = 0; p < report.partitions.size(); ++p) {
    const PartitionReport& partition = report.partitions[p];
    const PartitionSummary& summary = view.partitions[p];
    const PartitionColour colour = ColourForPartition(partition);
    const bool cpu = partition.kind == PartitionReport::Kind::kCpu;
    html += fmt::format(
        "<tr><td class=\"num\"><span class=\"swatch\" "
        "style=\"background:{};border-color:{}\"></span>{}</td>",
        colour.fill, colour.stroke, p);
    // Delegate specs such as ops=A,B,C have no spaces: they break anywhere, not the table.
    html += Cell(cpu ? "cpu" : "delegate") + "<td class=\"spec\">" +
            EscapeMarkup(cpu ? "" : partition.delegate) + "</td>";
    html += NumberCell(std::to_string(summary.node_count));
    html += NumberCell(NodeNumber(summary.first_node));
    html += NumberCell(NodeNumber(summary.last_node));
    html += Cell(summary.op_summary);
    html += BytesCell(summary.boundary_in_bytes) + BytesCell(summary.boundary_out_bytes);
    html += cpu ? Cell("") : BytesCell(partition.bytes_to_delegate + partition.bytes_from_delegate);
    html += "</tr>\n";
  }
  html += "</table>\n";
}

// The nodes the final plan leaves on the CPU, grouped by op and reason.
void AppendCpuNodes(std::string& html, const Subgraph& subgraph, const SubgraphReport& report,
                    const std::vector<std::string>& delegates) {
  html += "<h3>Nodes left on the CPU</h3>\n";
  const std::vector<CpuNode> nodes = NodesLeftOnCpu(report, subgraph, delegates);
  if (nodes.empty()) {
    html +=
        delegates.empty() ? "<p>No delegate: every node runs on the CPU.</p>\n" : "<p>None.</p>\n";
    return;
  }
  html +=
      "<table class=\"unsupported\">\n<tr><th>nodes</th><th>op</th><th>reason</th>"
      "<th>which</th></tr>\n";
  for (const CpuNodeGroup& g : GroupCpuNodes(nodes)) {
    html += "<tr>" + NumberCell(std::to_string(g.nodes.size())) + Cell(g.op) + Cell(g.reason) +
            Cell(AbbreviatedNodeList(g.nodes, 10)) + "</tr>\n";
  }
  html += "</table>\n";
}

// Graphviz's SVG starts with an XML declaration and a DOCTYPE, which do not belong inside HTML.
std::string InlineSvg(const std::string& svg) {
  const size_t start = svg.find("<svg");
  return start == std::string::npos ? svg : svg.substr(start);
}

Status AppendSubgraph(std::string& html, const Model& model, const Report& whole,
                      const SubgraphReport& report, const HtmlReportOptions& options) {
  if (report.index < 0 || static_cast<size_t>(report.index) >= model.subgraphs.size()) {
    return Status::Error(fmt::format("report subgraph {} is not in the model ({} subgraphs)",
                                     report.index, model.subgraphs.size()));
  }
  const Subgraph& subgraph = model.subgraphs[report.index];
  Result<PartitionView> view = BuildPartitionView(subgraph, report);
  if (!view.ok()) return view.status();

  html += fmt::format(
      "<section class=\"subgraph\" id=\"subgraph-{}\">\n<h2>Subgraph {}{} — {} nodes</h2>\n",
      report.index, report.index,
      subgraph.name.empty() ? "" : " (" + EscapeMarkup(subgraph.name) + ")", subgraph.nodes.size());
  AppendFigures(html, report);
  AppendPartitionTable(html, report, *view);
  AppendCpuNodes(html, subgraph, report, whole.delegates);

  PartitionGraphOptions graph_options;
  graph_options.collapse = subgraph.nodes.size() > options.collapse_above_nodes;
  Result<std::string> graph =
      RenderPartitionGraph(subgraph, report, GraphFormat::kSvg, graph_options);
  if (!graph.ok()) return graph.status();
  html += fmt::format(
      "<h3>Partition graph{}</h3>\n<figure class=\"partition-graph\">\n{}</figure>\n",
      graph_options.collapse ? " (collapsed: one box per partition)" : "", InlineSvg(*graph));

  if (report.arena) {
    html += "<h3>Arena</h3>\n<figure class=\"arena\">\n" + RenderArenaSvg(*report.arena, subgraph) +
            "</figure>\n";
    if (!report.arena->assumptions.empty()) {
      html += "<p>Assumptions:</p>\n<ul class=\"assumptions\">\n";
      for (const std::string& a : report.arena->assumptions)
        html += "<li>" + EscapeMarkup(a) + "</li>\n";
      html += "</ul>\n";
    }
  }
  for (const HtmlReportOptions::SubgraphAdvice& a : options.advice) {
    if (a.subgraph != report.index) continue;
    html += "<h3>Delegation advice for " + EscapeMarkup(a.advice.delegate) +
            "</h3>\n<pre class=\"advice\">" + EscapeMarkup(AdviceText(a.advice, subgraph)) +
            "</pre>\n";
  }
  html += "</section>\n";
  return Status::Ok();
}

}  // namespace

Result<std::string> RenderHtmlReport(const Model& model, const Report& report,
                                     const HtmlReportOptions& options) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<title>tflite-analyze: " + EscapeMarkup(report.model) + "</title>\n";
  html += std::string("<style>") + kStyle + "</style>\n</head>\n<body>\n";
  html += "<h1>" + EscapeMarkup(report.model) + "</h1>\n<p class=\"meta\">";
  std::string delegates;
  for (size_t i = 0; i < report.delegates.size(); ++i) {
    delegates += (delegates.empty() ? "" : ", ") + report.delegates[i];
    if (i < report.delegate_trust.size()) delegates += " [" + report.delegate_trust[i] + "]";
  }
  html += "delegates: " + EscapeMarkup(delegates.empty() ? "none" : delegates);
  if (!report.tool_version.empty())
    html += " · tflite-analyze " + EscapeMarkup(report.tool_version);
  html += "</p>\n";
  for (const std::string& headline : ReportHeadlines(report))
    html += "<p class=\"headline\">" + EscapeMarkup(headline) + "</p>\n";
  for (const SubgraphReport& subgraph : report.subgraphs) {
    Status status = AppendSubgraph(html, model, report, subgraph, options);
    if (!status.ok()) return report.model.empty() ? status : status.WithContext(report.model);
  }
  html += "</body>\n</html>\n";
  return html;
}

Status WriteHtmlReport(const Model& model, const Report& report, const HtmlReportOptions& options,
                       const std::string& path) {
  Result<std::string> html = RenderHtmlReport(model, report, options);
  if (!html.ok()) return html.status();
  return WriteOutputFile(path, *html);
}

}  // namespace tfa::viz
