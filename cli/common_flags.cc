#include "cli/common_flags.h"

#include <algorithm>
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

// The subgraph of the signature `key`, or a CommandError listing the model's signatures.
int32_t SignatureSubgraph(const std::string& key, const Model& model) {
  std::string keys;
  for (const SignatureDef& s : model.signatures) {
    if (s.key == key) return s.subgraph_index;
    keys += (keys.empty() ? "" : ", ") + s.key;
  }
  throw CommandError{model.path + ": no signature \"" + key + "\" (" +
                     (keys.empty() ? std::string("the model has none") : "it has " + keys) + ")"};
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
  auto* subgraph = command->add_option(
      "--subgraph", subgraph_,
      "Subgraph index or \"all\" (default: 0, or every signature's, for text; all for JSON)");
  command->add_option("--signature", signature_, "The subgraph of this signature (its key)")
      ->excludes(subgraph);
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
  if (!signature_.empty()) return {SignatureSubgraph(signature_, model)};
  // A model with signatures is its entry points: text shows each signature's subgraph.
  if (subgraph_.empty() && Format() != OutputFormat::kJson && !model.signatures.empty()) {
    std::vector<int32_t> indices;
    for (const SignatureDef& s : model.signatures) indices.push_back(s.subgraph_index);
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    return indices;
  }
  const bool all = subgraph_ == "all" || (subgraph_.empty() && Format() == OutputFormat::kJson);
  if (!all)
    return {subgraph_.empty() ? SingleSubgraph(model) : ParseSubgraphIndex(subgraph_, model)};
  std::vector<int32_t> indices;
  for (size_t i = 0; i < model.subgraphs.size(); ++i) indices.push_back(static_cast<int32_t>(i));
  return indices;
}

int32_t CommonFlags::SingleSubgraph(const Model& model) const {
  if (!signature_.empty()) return SignatureSubgraph(signature_, model);
  if (subgraph_ == "all") throw CommandError{"--subgraph all: this command works on one subgraph"};
  if (model.subgraphs.empty()) throw CommandError{model.path + ": model has no subgraphs"};
  return subgraph_.empty() ? 0 : ParseSubgraphIndex(subgraph_, model);
}

}  // namespace tfa::cli
