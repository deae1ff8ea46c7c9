#include "cli/gate_output.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "libanalysis/core/byte_units.h"
#include "visualizers/markup_escape.h"

namespace tfa::cli {
namespace {

bool IsText(const FigureCheck& f) { return !f.before_text.empty() || !f.after_text.empty(); }
bool IsBytes(const FigureCheck& f) { return f.figure.ends_with("_bytes"); }

// The baseline's value (`after` false) or the new one, as a number or the figure's text.
std::string Value(const FigureCheck& f, bool after) {
  if (IsText(f)) return after ? f.after_text : f.before_text;
  return std::to_string(after ? f.after : f.before);
}

std::string Amount(const FigureCheck& f, bool after) {
  const uint64_t value = after ? f.after : f.before;
  return IsBytes(f) ? fmt::format("{} ({})", value, HumanBytes(value)) : Value(f, after);
}

std::string Delta(const FigureCheck& f) {
  if (IsText(f)) {
    if (f.before_text == f.after_text) return "same";
    return f.verdict == FigureCheck::Verdict::kShrank || f.verdict == FigureCheck::Verdict::kPass
               ? "older"
               : "newer";
  }
  const int64_t d = f.delta();
  std::string out = fmt::format("{:+}", d);
  if (f.before != 0 && d != 0) {
    out +=
        fmt::format(" ({:+.2f}%)", 100.0 * static_cast<double>(d) / static_cast<double>(f.before));
  }
  return out;
}

const char* VerdictWord(const FigureCheck& f) {
  switch (f.verdict) {
    case FigureCheck::Verdict::kPass:
      return "ok";
    case FigureCheck::Verdict::kGrew:
      return "REGRESSED";
    case FigureCheck::Verdict::kShrank:
      return "IMPROVED beyond limit";
  }
  return "";
}

// Which way the figure moved: "grew" or "shrank" (for a version, "rose" or "fell").
const char* Direction(const FigureCheck& f) {
  if (IsText(f)) return Delta(f) == "newer" ? "rose" : "fell";
  return f.after > f.before ? "grew" : "shrank";
}

// "arena_bytes grew from 1000 to 1100 (+100, +10.00%), limit +2%"; a CPU fallback adds its
// nodes: "cpu_fallback_nodes[CEIL] grew from 0 to 2 (+2), limit +0; now on the CPU: #3, #9".
std::string FailureSentence(const FigureCheck& f) {
  std::string out = fmt::format("{} {} from {} to {} ({}), limit {}", f.figure, Direction(f),
                                Value(f, false), Value(f, true), Delta(f), f.limit);
  if (!f.nodes.empty()) out += fmt::format("; now on the CPU: {}", fmt::join(f.nodes, ", "));
  return out;
}

// "not checked: delegated_nodes, cpu_fallback_nodes (...)", or nothing.
std::string NotCheckedSentence(const ConfigCheck& c) {
  if (c.not_checked.empty()) return "";
  return fmt::format(
      "not checked: {} (the baseline was recorded before {} gated; re-record it with "
      "--update-baseline)",
      fmt::join(c.not_checked, ", "), c.not_checked.size() == 1 ? "it was" : "they were");
}

std::string Summary(const GateResult& result, const std::string& baseline_path) {
  if (result.passed()) {
    return fmt::format("PASSED: {} check{} within limits of {}", result.total(),
                       result.total() == 1 ? "" : "s", baseline_path);
  }
  return fmt::format("FAILED: {} of {} check{} against {}", result.failures(), result.total(),
                     result.total() == 1 ? "" : "s", baseline_path);
}

// GitHub workflow commands: the message escapes %, CR and LF; properties also ':' and ','.
std::string GithubEscape(const std::string& text, bool property) {
  std::string out;
  for (char c : text) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else if (property && c == ':') {
      out += "%3A";
    } else if (property && c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string GateText(const GateResult& result, const std::string& baseline_path,
                     const Style& style) {
  std::string out;
  for (const ConfigCheck& c : result.checks) {
    if (!out.empty()) out += "\n";
    out += fmt::format("{}  [{}]  {}\n", style.Bold(c.path), c.config,
                       c.passed() ? style.Green("ok") : style.Red("FAILED"));
    if (!c.problem.empty()) {
      out += "  " + style.Red(c.problem) + "\n";
      continue;
    }
    // Per-delegate and per-op figures ("cpu_fallback_nodes[DEPTHWISE_CONV_2D]") widen the column.
    size_t width = 22;
    for (const FigureCheck& f : c.figures) width = std::max(width, f.figure.size());
    out += fmt::format("  {:<{}} {:>22} {:>22} {:>20}  {:>8}  {}\n", "figure", width, "baseline",
                       "now", "delta", "limit", "verdict");
    for (const FigureCheck& f : c.figures) {
      const std::string verdict = VerdictWord(f);
      out += fmt::format("  {:<{}} {:>22} {:>22} {:>20}  {:>8}  {}\n", f.figure, width,
                         Amount(f, false), Amount(f, true), Delta(f), f.limit,
                         f.verdict == FigureCheck::Verdict::kPass ? verdict : style.Red(verdict));
      if (f.verdict != FigureCheck::Verdict::kPass && !f.nodes.empty()) {
        out += fmt::format("  {:<{}} now on the CPU: {}\n", "", width, fmt::join(f.nodes, ", "));
      }
    }
    if (!c.not_checked.empty()) out += "  " + NotCheckedSentence(c) + "\n";
  }
  const std::string summary = Summary(result, baseline_path);
  out += '\n';
  out += result.passed() ? style.Green(summary) : style.Red(summary);
  out += '\n';
  return out;
}

// Failures first, in a table of their own; the passing figures are folded under a <details>
// block (GitHub and GitLab render it closed), so a pull-request comment leads with what failed.
std::string GateMarkdown(const GateResult& result, const std::string& baseline_path) {
  const std::string header =
      "| model | configuration | figure | baseline | now | delta | limit | verdict |\n"
      "|---|---|---|---:|---:|---:|---:|---|\n";
  std::string failed, passed;
  size_t passed_rows = 0;
  for (const ConfigCheck& c : result.checks) {
    if (!c.problem.empty()) {
      failed += fmt::format("| `{}` | `{}` | | | | | | ❌ {} |\n", c.file, c.config, c.problem);
      continue;
    }
    for (const FigureCheck& f : c.figures) {
      const bool ok = f.verdict == FigureCheck::Verdict::kPass;
      (ok ? passed : failed) += fmt::format(
          "| `{}` | `{}` | {} | {} | {} | {} | {} | {} {} |\n", c.file, c.config, f.figure,
          Value(f, false), Value(f, true), Delta(f), f.limit, ok ? "✅" : "❌", VerdictWord(f));
      passed_rows += ok;
    }
    if (!c.not_checked.empty()) {
      passed +=
          fmt::format("| `{}` | `{}` | | | | | | {} |\n", c.file, c.config, NotCheckedSentence(c));
    }
  }
  std::string out =
      fmt::format("### tflite-analyze gate: {}\n\n", result.passed() ? "passed" : "FAILED");
  if (!failed.empty()) out += header + failed + "\n";
  if (!passed.empty()) {
    out += fmt::format("<details><summary>{} figure{} passed</summary>\n\n{}{}\n</details>\n\n",
                       passed_rows, passed_rows == 1 ? "" : "s", header, passed);
  }
  out += Summary(result, baseline_path);
  out += '\n';
  return out;
}

std::string GateJson(const GateResult& result, const std::string& baseline_path) {
  nlohmann::ordered_json j{{"baseline", baseline_path},
                           {"passed", result.passed()},
                           {"failures", result.failures()},
                           {"checks", nlohmann::ordered_json::array()}};
  for (const ConfigCheck& c : result.checks) {
    nlohmann::ordered_json jc{
        {"model", c.path}, {"file", c.file}, {"config", c.config}, {"passed", c.passed()}};
    if (!c.problem.empty()) jc["problem"] = c.problem;
    jc["figures"] = nlohmann::ordered_json::array();
    for (const FigureCheck& f : c.figures) {
      // Which way a failed figure moved ("shrank" is the regression of delegated_nodes[...]);
      // a version that rose "grew", as the contract first said.
      const char* verdict = f.verdict == FigureCheck::Verdict::kPass ? "pass"
                            : IsText(f)
                                ? (f.verdict == FigureCheck::Verdict::kGrew ? "grew" : "shrank")
                            : f.after > f.before ? "grew"
                                                 : "shrank";
      nlohmann::ordered_json jf{{"figure", f.figure}};
      if (IsText(f)) {
        jf["before"] = f.before_text;
        jf["after"] = f.after_text;
      } else {
        jf["before"] = f.before;
        jf["after"] = f.after;
        jf["delta"] = f.delta();
      }
      jf["limit"] = f.limit;
      jf["verdict"] = verdict;
      if (f.verdict != FigureCheck::Verdict::kPass) {
        jf["regression"] = f.verdict == FigureCheck::Verdict::kGrew;
      }
      if (!f.nodes.empty()) jf["nodes_on_cpu"] = f.nodes;
      jc["figures"].push_back(std::move(jf));
    }
    if (!c.not_checked.empty()) jc["not_checked"] = c.not_checked;
    j["checks"].push_back(std::move(jc));
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string GateJunitXml(const GateResult& result, const std::string& baseline_path) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuite name=\"tflite-analyze gate\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
      result.total(), result.failures());
  out += fmt::format("  <properties><property name=\"baseline\" value=\"{}\"/></properties>\n",
                     viz::EscapeMarkup(baseline_path));
  for (const ConfigCheck& c : result.checks) {
    const std::string classname = viz::EscapeMarkup(c.file + " [" + c.config + "]");
    if (!c.problem.empty()) {
      out += fmt::format("  <testcase classname=\"{}\" name=\"baseline entry\">\n", classname);
      out += fmt::format("    <failure message=\"{}\" type=\"missing\"/>\n",
                         viz::EscapeMarkup(c.problem));
      out += "  </testcase>\n";
      continue;
    }
    for (const FigureCheck& f : c.figures) {
      if (f.verdict == FigureCheck::Verdict::kPass) {
        out += fmt::format("  <testcase classname=\"{}\" name=\"{}\"/>\n", classname, f.figure);
        continue;
      }
      out += fmt::format("  <testcase classname=\"{}\" name=\"{}\">\n", classname, f.figure);
      out += fmt::format(
          "    <failure message=\"{}\" type=\"{}\">baseline {}, now {}, delta {}, limit "
          "{}</failure>\n",
          viz::EscapeMarkup(FailureSentence(f)),
          f.verdict == FigureCheck::Verdict::kGrew ? "regression" : "unexpected-improvement",
          Value(f, false), Value(f, true), viz::EscapeMarkup(Delta(f)), viz::EscapeMarkup(f.limit));
      out += "  </testcase>\n";
    }
  }
  out += "</testsuite>\n";
  return out;
}

std::string GateGithubAnnotations(const GateResult& result, const std::string& baseline_path) {
  std::string out;
  for (const ConfigCheck& c : result.checks) {
    const std::string title = GithubEscape("tflite-analyze gate [" + c.config + "]", true);
    const std::string file = GithubEscape(c.path, true);
    if (!c.problem.empty()) {
      out += fmt::format("::error file={},title={}::{}\n", file, title,
                         GithubEscape(c.file + ": " + c.problem, false));
      continue;
    }
    for (const FigureCheck& f : c.figures) {
      if (f.verdict == FigureCheck::Verdict::kPass) continue;
      out += fmt::format("::error file={},title={}::{}\n", file, title,
                         GithubEscape(c.file + ": " + FailureSentence(f), false));
    }
  }
  out += fmt::format("::notice title=tflite-analyze gate::{}\n",
                     GithubEscape(Summary(result, baseline_path), false));
  return out;
}

}  // namespace tfa::cli
