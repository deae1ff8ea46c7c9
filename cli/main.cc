// tflite-analyze: predicts what TensorFlow Lite does with a model (delegate partitions, copy
// costs, tensor arena) and checks those predictions. Exit codes: 0 ok, 1 gate failed, 2 bad input.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

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
                        tfa::DidYouMean(rest.front(), candidates) + "; commands:";
  for (const std::string& name : names) message += " " + name;
  return message;
}

// A million-node graph is a gigabyte of small structs, and faulting it in 4 KiB pages cost about
// half the CPU time of `report` (issue 18). glibc puts its large allocations on transparent huge
// pages when the tunable glibc.malloc.hugetlb is 1, but reads tunables only at startup: so the
// process starts itself again once with it set. A GLIBC_TUNABLES that already names it is kept,
// and a failed exec just runs on as it is.
void ExecWithHugePageMalloc(char** argv) {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables != nullptr && std::strstr(tunables, "glibc.malloc.hugetlb") != nullptr) return;
  const std::string hugetlb = "glibc.malloc.hugetlb=1";
  const std::string value =
      tunables != nullptr && *tunables != '\0' ? std::string(tunables) + ":" + hugetlb : hugetlb;
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
}

}  // namespace

int main(int argc, char** argv) {
  ExecWithHugePageMalloc(argv);
  using namespace tfa::cli;
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
    app.parse(argc, argv);
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
