// One story in every output (issue 44): each figure a report gives (bytes copied per inference
// and uploaded once, arena, delegate memory, the delegates refused, which node runs where) is the
// same in every rendering of it: JSON (the figures' source here), text, Markdown, CSV, HTML (its
// tables, the partition graph and the arena picture in it), `dot`, and Model Explorer's overlays.
// Python reads `report --json` itself (python/tests compare analyze() with it), so it is JSON's.
//
// The commands run in this process (cli::RunCommandLine, as the Python module runs them), one
// model after another: the corpus models and the public external models (the tree's 29, or the 35
// of TFA_EXTERNAL_MODELS_DIR) with no delegate, gpu and xnnpack, an Edge TPU model and an NPU
// plugin. Under AddressSanitizer the external models are sampled (every fourth), so CI's sanitizer
// stage stays within its time.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "corpus/generator/synthetic_models.h"
#include "corpus/generator/tflite_writer.h"
#include "libanalysis/core/byte_units.h"
#include "tests/cli/cli_fixtures.h"
#include "tests/support/test_paths.h"

namespace tfa {
namespace {

using nlohmann::json;

#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kExternalModelStride = 4;
#else
constexpr size_t kExternalModelStride = 1;
#endif

using Output = testing::ToolRun;

Output Run(const std::vector<std::string>& args) { return testing::RunInProcess(args); }

std::vector<std::string> Args(std::vector<std::string> head, const std::vector<std::string>& more) {
  head.insert(head.end(), more.begin(), more.end());
  return head;
}

// DOT text with Graphviz's line continuations (a backslash, then a newline) taken out.
std::string Unwrapped(std::string dot) {
  for (size_t at = dot.find("\\\n"); at != std::string::npos; at = dot.find("\\\n", at))
    dot.erase(at, 2);
  return dot;
}

uint64_t U(const json& j, const char* key) { return j.value(key, uint64_t{0}); }

std::string Describe(const std::string& model, const std::vector<std::string>& flags) {
  std::string out = std::filesystem::path(model).filename().string();
  for (const std::string& f : flags) out += " " + f;
  return out;
}

// Every value of a Model Explorer overlay file, summed over its graphs.
uint64_t OverlaySum(const json& file) {
  uint64_t sum = 0;
  for (const auto& [graph, data] : file.items()) {
    for (const auto& [node, result] : data.at("results").items()) {
      if (result.at("value").is_number()) sum += result.at("value").get<uint64_t>();
    }
  }
  return sum;
}

size_t OverlayCount(const json& file, const std::string& value) {
  size_t count = 0;
  for (const auto& [graph, data] : file.items()) {
    for (const auto& [node, result] : data.at("results").items()) {
      count += result.at("value") == value ? 1 : 0;
    }
  }
  return count;
}

// The last CSV row's fields (the model path, which may be quoted, is the first and is skipped).
std::vector<std::string> CsvFigures(const std::string& csv) {
  std::string row = csv.substr(0, csv.find_last_not_of('\n') + 1);
  row = row.substr(row.rfind('\n') + 1);
  std::vector<std::string> fields;
  for (size_t end = row.size(), comma; fields.size() < 9; end = comma) {
    comma = row.rfind(',', end - 1);
    fields.insert(fields.begin(), row.substr(comma + 1, end - comma - 1));
  }
  return fields;  // nodes, partitions, delegated, bytes/inference, uploaded, arena, persistent, ...
}

std::string MemoryPartName(const json& memory, const json& part) {
  return memory.at("delegate").get<std::string>() + " " + part.at("kind").get<std::string>() +
         " (" + part.at("basis").get<std::string>() + ")";
}

// Where each model's part of a several-model output starts: its path at the start of a line,
// after `prefix`; each part runs to the next one's start. Models absent from the output (refused)
// get an empty part.
std::map<std::string, std::string> Parts(const std::string& out,
                                         const std::vector<std::string>& models,
                                         const std::string& prefix) {
  std::vector<std::pair<size_t, std::string>> starts;
  size_t from = 0;
  for (const std::string& model : models) {
    for (size_t at = out.find(prefix + model, from); at != std::string::npos;
         at = out.find(prefix + model, at + 1)) {
      if (at != 0 && out[at - 1] != '\n') continue;
      starts.emplace_back(at, model);
      from = at + 1;
      break;
    }
  }
  std::map<std::string, std::string> parts;
  for (size_t i = 0; i < starts.size(); ++i) {
    const size_t end = i + 1 < starts.size() ? starts[i + 1].first : out.size();
    parts[starts[i].second] = out.substr(starts[i].first, end - starts[i].first);
  }
  return parts;
}

// The reports of a `report --json` of one model or several, by model path.
std::map<std::string, json> Reports(const std::string& out) {
  std::map<std::string, json> reports;
  const json j = json::parse(out);
  if (!j.contains("reports")) {
    reports[j.at("model")] = j;
    return reports;
  }
  for (const json& r : j.at("reports")) reports[r.at("model")] = r;
  return reports;
}

class OneStory {
 public:
  OneStory(std::string model, std::vector<std::string> flags, json report)
      : model_(std::move(model)),
        flags_(std::move(flags)),
        what_(Describe(model_, flags_)),
        report_(std::move(report)) {}

  void CheckCheapFormats(const std::string& text, const std::string& markdown,
                         const std::string& csv_row) {
    CheckCsv(csv_row);
    if (report_.at("subgraphs").empty()) return;
    CheckText(text);
    CheckMarkdown(markdown);
  }

  // The HTML page (its tables, partition graph and arena picture), Model Explorer's overlays and
  // `dot --collapse`: one model a command.
  void CheckPictures() {
    if (report_.at("subgraphs").empty()) return;
    const std::string dir = testing::FreshDir("cross_format");
    const std::string html_path = dir + "/report.html";
    const Output page = Run(Args(
        {"report", model_, "--html", html_path, "--model-explorer", dir + "/overlays"}, flags_));
    ASSERT_EQ(page.exit_code, 0) << what_ << ": " << page.err;
    CheckOverlays(dir + "/overlays");
    CheckHtml(testing::ReadTextFile(html_path));
    const Output dot = Run(Args({"dot", model_, "--collapse"}, flags_));
    ASSERT_EQ(dot.exit_code, 0) << what_ << ": " << dot.err;
    CheckPartitionPicture(Unwrapped(dot.out), "dot");
  }

 private:
  const json& First() const { return report_.at("subgraphs").at(0); }
  bool Delegated() const { return !report_.value("delegates", json::array()).empty(); }

  // Each delegate partition's own copy figures, as its box or cluster gives them.
  std::vector<std::string> PartitionCopyLines() const {
    std::vector<std::string> lines;
    for (const json& p : First().at("partitions")) {
      if (p.at("kind") != "delegate") continue;
      if (p.value("in_place", false)) {
        lines.push_back("in place: nothing copied");
      } else {
        lines.push_back(fmt::format("copied per inference: {} in, {} out",
                                    HumanBytes(U(p, "bytes_to_delegate")),
                                    HumanBytes(U(p, "bytes_from_delegate"))));
      }
      if (U(p, "init_upload_bytes") > 0) {
        lines.push_back("uploaded once: " + HumanBytes(U(p, "init_upload_bytes")));
      }
    }
    return lines;
  }

  void CheckText(const std::string& text) {
    const json& s = First();
    const json& copy = s.at("copy");
    if (Delegated() || s.contains("accelerators")) {
      EXPECT_NE(text.find(fmt::format("copies per inference: {} to ",
                                      HumanBytes(U(copy, "bytes_to_delegate")))),
                std::string::npos)
          << what_ << "\n"
          << text;
      EXPECT_NE(
          text.find(fmt::format(", {} back, {} transitions; {} uploaded once",
                                HumanBytes(U(copy, "bytes_from_delegate")), U(copy, "transitions"),
                                HumanBytes(U(copy, "init_upload_bytes")))),
          std::string::npos)
          << what_ << "\n"
          << text;
    }
    if (s.contains("arena")) {
      const uint64_t size = U(s.at("arena"), "size");
      EXPECT_NE(text.find(fmt::format("arena size        {:>12}  ({})", size, HumanBytes(size))),
                std::string::npos)
          << what_;
    }
    for (const json& m : s.value("delegate_memory", json::array())) {
      for (const json& part : m.at("parts")) {
        const std::string bytes =
            part.at("basis") == "unknown" ? std::string("unknown") : HumanBytes(U(part, "bytes"));
        EXPECT_NE(text.find(fmt::format("{} {} ({})", part.at("kind").get<std::string>(), bytes,
                                        part.at("basis").get<std::string>())),
                  std::string::npos)
            << what_ << ": " << MemoryPartName(m, part);
      }
    }
    for (const json& refusal : report_.value("delegate_refusals", json::array())) {
      EXPECT_NE(text.find(refusal.at("reason").get<std::string>()), std::string::npos) << what_;
    }
    for (const json& failure : report_.value("delegate_failures", json::array())) {
      EXPECT_NE(text.find(failure.at("reason").get<std::string>()), std::string::npos) << what_;
    }
  }

  void CheckMarkdown(const std::string& markdown) {
    const json& s = First();
    const json& copy = s.at("copy");
    EXPECT_NE(markdown.find(fmt::format("| bytes to delegates / inference | {} |",
                                        U(copy, "bytes_to_delegate"))),
              std::string::npos)
        << what_;
    EXPECT_NE(markdown.find(fmt::format("| bytes from delegates / inference | {} |",
                                        U(copy, "bytes_from_delegate"))),
              std::string::npos)
        << what_;
    if (s.contains("arena")) {
      const uint64_t size = U(s.at("arena"), "size");
      EXPECT_NE(markdown.find(fmt::format("| arena | {} ({}) |", size, HumanBytes(size))),
                std::string::npos)
          << what_;
    }
    for (const json& m : s.value("delegate_memory", json::array())) {
      for (const json& part : m.at("parts")) {
        const std::string bytes = part.at("basis") == "unknown" ? std::string("unknown")
                                                                : std::to_string(U(part, "bytes"));
        EXPECT_NE(markdown.find("| " + MemoryPartName(m, part) + " | " + bytes + " |"),
                  std::string::npos)
            << what_ << ": " << MemoryPartName(m, part);
      }
    }
    for (const json& refusal : report_.value("delegate_refusals", json::array())) {
      EXPECT_NE(markdown.find(refusal.at("reason").get<std::string>()), std::string::npos) << what_;
    }
  }

  // The CSV row sums every subgraph, as the summary table does.
  void CheckCsv(const std::string& csv) {
    uint64_t copies = 0, uploaded = 0, arena = 0, persistent = 0, delegated = 0;
    for (const json& s : report_.at("subgraphs")) {
      copies += U(s.at("copy"), "bytes_to_delegate") + U(s.at("copy"), "bytes_from_delegate");
      uploaded += U(s.at("copy"), "init_upload_bytes");
      delegated += U(s, "delegated_partition_count");
      if (s.contains("arena")) {
        arena += U(s.at("arena"), "size");
        persistent += U(s.at("arena"), "persistent_size");
      }
    }
    const std::vector<std::string> f = CsvFigures(csv);
    ASSERT_EQ(f.size(), 9u) << what_ << "\n" << csv;
    EXPECT_EQ(f[2], std::to_string(delegated)) << what_;
    EXPECT_EQ(f[3], std::to_string(copies)) << what_;
    EXPECT_EQ(f[4], std::to_string(uploaded)) << what_;
    EXPECT_EQ(f[5], std::to_string(arena)) << what_;
    EXPECT_EQ(f[6], std::to_string(persistent)) << what_;
  }

  // Copies on the nodes that make them, summed: the report's copies; every node the delegates
  // run named after its delegate.
  void CheckOverlays(const std::string& dir) {
    const json copies = testing::ReadJsonFile(dir + "/copy_bytes.json");
    const json delegates = testing::ReadJsonFile(dir + "/delegate.json");
    uint64_t copied = 0;
    std::map<std::string, size_t> delegated_nodes;
    for (const json& s : report_.at("subgraphs")) {
      copied += U(s.at("copy"), "bytes_to_delegate") + U(s.at("copy"), "bytes_from_delegate");
      for (const json& p : s.at("partitions")) {
        if (p.at("kind") == "delegate") delegated_nodes[p.at("delegate")] += p.at("nodes").size();
      }
    }
    EXPECT_EQ(OverlaySum(copies), copied) << what_;
    for (const auto& [delegate, nodes] : delegated_nodes) {
      EXPECT_EQ(OverlayCount(delegates, delegate), nodes) << what_ << ": " << delegate;
    }
  }

  void CheckHtml(const std::string& html) {
    const json& s = First();
    const json& copy = s.at("copy");
    const auto figure = [&](const std::string& name, uint64_t bytes) {
      EXPECT_NE(html.find(fmt::format("<th>{}</th><td class=\"num\" title=\"{} B\">", name, bytes)),
                std::string::npos)
          << what_ << ": " << name;
    };
    figure("copied to delegates per inference", U(copy, "bytes_to_delegate"));
    figure("copied from delegates per inference", U(copy, "bytes_from_delegate"));
    figure("constants uploaded once", U(copy, "init_upload_bytes"));
    if (s.contains("arena")) {
      figure("arena size", U(s.at("arena"), "size"));
      EXPECT_NE(html.find(">arena size " + HumanBytes(U(s.at("arena"), "size")) + "<"),
                std::string::npos)
          << what_ << ": the arena picture";
    }
    for (const json& m : s.value("delegate_memory", json::array())) {
      for (const json& part : m.at("parts")) {
        if (part.at("basis") == "unknown") {
          EXPECT_NE(html.find("<th>" + MemoryPartName(m, part) + "</th><td class=\"num\">unknown"),
                    std::string::npos)
              << what_;
        } else {
          figure(MemoryPartName(m, part), U(part, "bytes"));
        }
      }
    }
    for (const json& refusal : report_.value("delegate_refusals", json::array())) {
      EXPECT_NE(html.find("<p class=\"headline\">delegate " +
                          refusal.at("delegate").get<std::string>() + " refused"),
                std::string::npos)
          << what_;
    }
    CheckPartitionPicture(html, "html");
  }

  // The partition picture gives each delegate partition's own copies and uploads (where the
  // picture draws it in a box of its own: ten partitions or fewer), and no upload the report
  // does not count.
  void CheckPartitionPicture(const std::string& picture, const char* where) {
    if (First().at("partitions").size() <= 10) {
      for (const std::string& line : PartitionCopyLines()) {
        EXPECT_NE(picture.find(line), std::string::npos) << what_ << " (" << where << "): " << line;
      }
    }
    bool uploads = false;
    for (const json& s : report_.at("subgraphs"))
      uploads |= U(s.at("copy"), "init_upload_bytes") > 0;
    if (!uploads) {
      EXPECT_EQ(picture.find("uploaded once: "), std::string::npos)
          << what_ << " (" << where << ")";
    }
  }

  std::string model_;
  std::vector<std::string> flags_;
  std::string what_;
  json report_;
};

const std::vector<std::vector<std::string>> kDelegates = {
    {}, {"--delegate", "gpu"}, {"--delegate", "xnnpack"}};

// Every model with `flags`: JSON, text, Markdown and CSV in one command each for all the models
// (several models are analysed in parallel), the pictures model by model where `pictures` says.
// A model refused in one format is refused alike, in the same line, in every other.
void CheckModels(const std::vector<std::string>& models, const std::vector<std::string>& flags,
                 const std::function<bool(const std::string&)>& pictures) {
  const Output j = Run(Args(Args({"report", "--json"}, models), flags));
  const Output text = Run(Args(Args({"report", "--subgraph", "all"}, models), flags));
  const Output markdown =
      Run(Args(Args({"report", "--format", "markdown", "--subgraph", "all"}, models), flags));
  const Output csv = Run(Args(Args({"report", "--format", "csv"}, models), flags));
  for (const Output* other : {&text, &markdown, &csv}) {
    EXPECT_EQ(other->exit_code, j.exit_code) << Describe(models.front(), flags);
    EXPECT_EQ(other->err, j.err) << Describe(models.front(), flags);
  }
  if (j.out.empty()) return;
  const std::map<std::string, json> reports = Reports(j.out);
  const auto texts = Parts(text.out, models, "");
  const auto markdowns = Parts(markdown.out, models, "## `");
  const auto rows = Parts(csv.out, models, "");
  for (const std::string& model : models) {
    auto report = reports.find(model);
    if (report == reports.end()) continue;  // refused: its line is checked above
    OneStory story(model, flags, report->second);
    story.CheckCheapFormats(texts.count(model) ? texts.at(model) : "",
                            markdowns.count(model) ? markdowns.at(model) : "",
                            rows.count(model) ? rows.at(model) : "");
    if (pictures(model)) story.CheckPictures();
  }
}

TEST(CrossFormat, CorpusModelsTellOneStory) {
  std::vector<std::string> models;
  for (const std::string& name : testing::CorpusModelNames())
    models.push_back(testing::CorpusModelPath(name));
  for (const auto& flags : kDelegates) {
    CheckModels(models, flags, [](const std::string&) { return true; });
  }
}

// Every external model in the cheap formats; its pictures too (every fourth under
// AddressSanitizer).
TEST(CrossFormat, ExternalModelsTellOneStory) {
  const std::vector<std::string> models = testing::ExternalModelPaths();
  ASSERT_GE(models.size(), 29u);
  for (const auto& flags : kDelegates) {
    CheckModels(models, flags, [&](const std::string& model) {
      const size_t i =
          static_cast<size_t>(std::find(models.begin(), models.end(), model) - models.begin());
      return i % kExternalModelStride == 0;
    });
  }
}

// An Edge TPU model's transfers and an NPU plugin's unknown memory, in every format.
TEST(CrossFormat, AcceleratorsTellOneStory) {
  const std::string dir = testing::FreshDir("cross_format_accelerators");
  auto built = BuildSyntheticModel("edgetpu_classifier_edgetpu");
  ASSERT_TRUE(built.ok()) << built.status().message();
  const std::vector<uint8_t> bytes = WriteTflite(built->model, built->data);
  const std::string edgetpu = dir + "/edgetpu_classifier_edgetpu.tflite";
  std::ofstream(edgetpu, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  const auto all = [](const std::string&) { return true; };
  CheckModels({edgetpu}, {}, all);
  CheckModels({testing::CorpusModelPath("face_detection__face_detection_short_range")},
              {"--accelerator", "npu:qualcomm,gpu"}, all);
}

}  // namespace
}  // namespace tfa
