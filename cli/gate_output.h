// A gate verdict in the forms CI systems read: text for people (a table per model and
// configuration with before / after / delta / limit), Markdown for a pull-request comment, JSON,
// a JUnit XML testsuite (one testcase per model x configuration x figure, so CI dashboards list
// each figure), and GitHub Actions workflow commands (`::error file=...::...`) that GitHub shows
// as annotations on the run and the pull request.
#ifndef CLI_GATE_OUTPUT_H_
#define CLI_GATE_OUTPUT_H_

#include <string>

#include "cli/terminal.h"
#include "libanalysis/gate/baseline_gate.h"

namespace tfa::cli {

std::string GateText(const GateResult& result, const std::string& baseline_path,
                     const Style& style);
std::string GateMarkdown(const GateResult& result, const std::string& baseline_path);
std::string GateJson(const GateResult& result, const std::string& baseline_path);
std::string GateJunitXml(const GateResult& result, const std::string& baseline_path);
// One `::error` line per failure and a `::notice` with the verdict.
std::string GateGithubAnnotations(const GateResult& result, const std::string& baseline_path);

}  // namespace tfa::cli

#endif  // CLI_GATE_OUTPUT_H_
