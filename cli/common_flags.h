// The output flags every analysing command shares: --format (or its shorthand --json) and
// --subgraph N|all. Text shows subgraph 0 unless told otherwise (most models have one, and the
// text of every while-loop body helps nobody); JSON carries every subgraph, since a program
// reading it can pick.
#ifndef CLI_COMMON_FLAGS_H_
#define CLI_COMMON_FLAGS_H_

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "libanalysis/model/graph.h"

namespace tfa::cli {

enum class OutputFormat { kText, kJson, kMarkdown, kJunit, kGithub, kCsv };

const char* OutputFormatName(OutputFormat format);

class CommonFlags {
 public:
  // Declares --format (limited to `formats`, text first), --json and, unless the command sums
  // over every subgraph, --subgraph on `command`.
  void AddTo(CLI::App* command, std::vector<OutputFormat> formats, bool with_subgraph = true);

  // Throws CommandError when --json contradicts --format.
  OutputFormat Format() const;

  // The subgraph indices to report on `model`: --signature KEY's subgraph, --subgraph N, every
  // subgraph for `all` or (by default) for JSON, else every signature's subgraph, or subgraph 0
  // for a model without signatures. Throws CommandError naming the model when N is out of range
  // or KEY unknown.
  std::vector<int32_t> Subgraphs(const Model& model) const;

  // The one subgraph of commands that draw or compare a single one (--subgraph all is refused).
  int32_t SingleSubgraph(const Model& model) const;

  // --signature KEY, or empty.
  const std::string& Signature() const { return signature_; }

 private:
  std::string format_ = "text";
  bool json_ = false;
  std::string subgraph_;
  std::string signature_;
};

}  // namespace tfa::cli

#endif  // CLI_COMMON_FLAGS_H_
