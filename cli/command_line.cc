#include "cli/command_line.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <string_view>

#include "cli/arena_command.h"
#include "cli/command.h"
#include "cli/convert_command.h"
#include "cli/diff_command.h"
#include "cli/dot_command.h"
#include "cli/gate_command.h"
#include "cli/info_command.h"
#include "cli/report_command.h"
#include "cli/run_command.h"
#include "libanalysis/core/closest_name.h"

namespace tfa::cli {
namespace {

// CLI11's message, except for a word that is no command: CLI11 then says only that a subcommand
// is required.
std::string UsageErrorMessage(const CLI::App& app, const CLI::ParseError& error) {
  const std::vector<std::string> rest = app.remaining();
  if (!app.get_subcommands().empty() || rest.empty() || rest.front().starts_with("-")) {
    return std::string(error.what()) + " (see --help)";
  }
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(command->get_name());
  }
  const std::vector<std::string_view> candidates(names.begin(), names.end());
  std::string message = "unknown command '" + rest.front() + "'" +
                        DidYouMean(rest.front(), candidates) + "; commands:";
  for (const std::string& name : names) message += " " + name;
  return message;
}

}  // namespace

int RunCommandLine(const std::vector<std::string>& args) {
  CLI::App app{"tflite-analyze: predict TFLite delegate partitions, copy costs and tensor arenas"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(TFA_VERSION));
  AddInfoCommand(app);
  AddConvertCommand(app);
  AddReportCommand(app);
  AddArenaCommand(app);
  AddDotCommand(app);
  AddGateCommand(app);
  AddDiffCommand(app);
  AddRunCommand(app);
  AddDevicesCommand(app);
  try {
    std::vector<std::string> words{"tflite-analyze"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "tflite-analyze: error: " << UsageErrorMessage(app, e) << "\n";
    return kExitBadInput;
  } catch (const CommandError& e) {
    if (!e.message.empty()) std::cerr << "tflite-analyze: error: " << e.message << "\n";
    return e.exit_code;
  }
  return kExitOk;
}

}  // namespace tfa::cli
