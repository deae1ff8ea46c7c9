#include "cli/command.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "libanalysis/model/model_loader.h"
#include "libanalysis/profiles/delegate_profile.h"

namespace tfa::cli {

Model LoadModelOrThrow(const std::string& path) {
  auto model = LoadModelFile(path);
  if (!model.ok()) throw CommandError{model.status().message(), kExitBadInput};
  return std::move(model).value();
}

AnalysedModel AnalyseOrThrow(const std::string& path, const std::vector<DelegateRequest>& delegates,
                             const InvokeFacts& invoke_facts, bool for_advice,
                             const std::vector<InputShapeRequest>& input_shapes,
                             const std::string& signature, const KernelBuild& build) {
  Model model = LoadModelOrThrow(path);
  InputShapesApplied inputs = ApplyInputShapesOrThrow(model, input_shapes, signature);
  AnalysedModel analysed{
      std::make_shared<const Model>(std::move(model)), {}, {}, std::move(inputs)};
  auto profiles = ResolveDelegateRequests(delegates);
  if (!profiles.ok()) throw CommandError{profiles.status().message(), kExitBadInput};
  PlanOptions options;
  options.delegates = std::move(profiles).value();
  options.invoke_facts = invoke_facts;
  options.keep_delegate_inputs = for_advice;
  options.build = build;
  auto plan = PlanModel(analysed.model, options);
  if (!plan.ok()) throw CommandError{plan.status().message(), kExitBadInput};
  analysed.plan = std::move(plan).value();
  auto report = BuildReport(analysed.plan, TFA_VERSION);
  if (!report.ok()) throw CommandError{report.status().message(), kExitBadInput};
  analysed.report = std::move(report).value();
  return analysed;
}

std::string ReadFileOrThrow(const std::string& path) {
  // Baselines and profiles are small; the model loader's limit is generous for them.
  auto bytes = ReadFileBytes(path, LoadOptions{}.max_file_bytes);
  if (!bytes.ok()) throw CommandError{bytes.status().message(), kExitBadInput};
  return std::string(bytes->begin(), bytes->end());
}

void WriteOutput(const std::string& path, const std::string& text) {
  if (path == "-" || path.empty()) {
    std::cout << text;
    if (!text.empty() && text.back() != '\n') std::cout << '\n';
    return;
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) throw CommandError{path + ": cannot write: " + std::strerror(errno), kExitBadInput};
  out << text;
  if (!text.empty() && text.back() != '\n') out << '\n';
  if (!out) throw CommandError{path + ": write error", kExitBadInput};
}

}  // namespace tfa::cli
