// Runs the built tflite-analyze binary (or another command) with arguments, capturing stdout,
// stderr and exit code.
#ifndef TESTS_SUPPORT_TOOL_RUNNER_H_
#define TESTS_SUPPORT_TOOL_RUNNER_H_

#include <string>

namespace tfa::testing {

struct ToolRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs a shell command line, capturing stdout, stderr and exit code.
ToolRun RunCommand(const std::string& command);

// `args` is appended to the tool path as shell words.
ToolRun RunTool(const std::string& args);

// TempDir()/tfa_PID_name: ctest runs test processes side by side, so every file a test writes
// is named after its process.
std::string ProcessTempPath(const std::string& name);

// Writes `bytes` to a file in the test's temp dir and returns its path.
std::string WriteTempFile(const std::string& name, const std::string& bytes);

}  // namespace tfa::testing

#endif  // TESTS_SUPPORT_TOOL_RUNNER_H_
