#include "tests/support/tool_runner.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>

#include "tests/support/test_paths.h"

namespace tfa::testing {

std::string ProcessTempPath(const std::string& name) {
  return ::testing::TempDir() + "/tfa_" + std::to_string(getpid()) + "_" + name;
}

ToolRun RunCommand(const std::string& command) {
  const std::string err_file = ProcessTempPath("tool_stderr.txt");
  ToolRun run;
  FILE* pipe = popen((command + " 2>" + err_file).c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = ReadTextFile(err_file);
  return run;
}

ToolRun RunTool(const std::string& args) { return RunCommand(ToolPath() + " " + args); }

std::string WriteTempFile(const std::string& name, const std::string& bytes) {
  const std::string path = ProcessTempPath(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace tfa::testing
