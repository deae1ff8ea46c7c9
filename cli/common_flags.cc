#include "cli/common_flags.h"

#include <charconv>

#include "cli/command.h"

namespace tfa::cli {
namespace {

constexpr OutputFormat kAllFormats[] = {OutputFormat::kText,     OutputFormat::kJson,
                                        OutputFormat::kMarkdown, OutputFormat::kJunit,
                                        OutputFormat::kGithub,   OutputFormat::kCsv};

int32_t ParseSubgraphIndex(const std::string& text, const Model& model) {
  // Plain decimal only (no sign, spaces or base prefix), as every numeric flag (number_flags.h).
  int64_t index = -1;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, index);
  if (text.empty() || error != std::errc() || stop != end) {
    throw CommandError{"--subgraph: expected an index or \"all\", got \"" + text + "\""};
  }
  if (index < 0 || static_cast<size_t>(index) >= model.subgraphs.size()) {
    throw CommandError{model.path + ": no subgraph " + text + " (model has " +
                       std::to_string(model.subgraphs.size()) + ")"};
  }
  return static_cast<int32_t>(index);
}

}  // namespace

const char* OutputFormatName(OutputFormat format) {
  switch (format) {
    case OutputFormat::kText:
      return "text";
    case OutputFormat::kJson:
      return "json";
    case OutputFormat::kMarkdown:
      return "markdown";
    case OutputFormat::kJunit:
      return "junit";
    case OutputFormat::kGithub:
      return "github";
    case OutputFormat::kCsv:
      return "csv";
  }
  return "text";
}

void CommonFlags::AddTo(CLI::App* command, std::vector<OutputFormat> formats, bool with_subgraph) {
  std::vector<std::string> names;
  for (OutputFormat f : formats) names.push_back(OutputFormatName(f));
  command->add_option("--format", format_, "Output format")->check(CLI::IsMember(names));
  command->add_flag("--json", json_, "Same as --format json");
  if (!with_subgraph) return;
  command->add_option("--subgraph", subgraph_,
                      "Subgraph index or \"all\" (default: 0 for text, all for JSON)");
}

OutputFormat CommonFlags::Format() const {
  OutputFormat format = OutputFormat::kText;
  for (OutputFormat f : kAllFormats) {
    if (format_ == OutputFormatName(f)) format = f;
  }
  if (json_ && format != OutputFormat::kText && format != OutputFormat::kJson) {
    throw CommandError{"--json contradicts --format " + format_};
  }
  return json_ ? OutputFormat::kJson : format;
}

std::vector<int32_t> CommonFlags::Subgraphs(const Model& model) const {
  const bool all = subgraph_ == "all" || (subgraph_.empty() && Format() == OutputFormat::kJson);
  if (!all)
    return {subgraph_.empty() ? SingleSubgraph(model) : ParseSubgraphIndex(subgraph_, model)};
  std::vector<int32_t> indices;
  for (size_t i = 0; i < model.subgraphs.size(); ++i) indices.push_back(static_cast<int32_t>(i));
  return indices;
}

int32_t CommonFlags::SingleSubgraph(const Model& model) const {
  if (subgraph_ == "all") throw CommandError{"--subgraph all: this command works on one subgraph"};
  if (model.subgraphs.empty()) throw CommandError{model.path + ": model has no subgraphs"};
  return subgraph_.empty() ? 0 : ParseSubgraphIndex(subgraph_, model);
}

}  // namespace tfa::cli
