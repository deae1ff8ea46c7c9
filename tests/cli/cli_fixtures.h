// Inputs shared by the end-to-end CLI tests: a small Graph JSON chain whose middle tensor and
// middle op can be changed, so a "new version" of the model has a known bigger arena and a known
// op change, and helpers to put files in a fresh directory.
#ifndef TESTS_CLI_CLI_FIXTURES_H_
#define TESTS_CLI_CLI_FIXTURES_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa::testing {

// input (4096 B) -> #0 ADD -> mid (4096 B) -> #1 `middle_op` -> wide (`wide_bytes`) -> #2 ADD
// -> output (4096 B); no in-place sharing, so every tensor gets its own arena block.
inline std::string ChainGraphJson(uint64_t wide_bytes, const std::string& middle_op = "MUL") {
  return R"({"format":"tflite-analyze-graph/1",
 "tensors":[{"name":"input","bytes":4096},{"name":"mid","bytes":4096},
            {"name":"wide","bytes":)" +
         std::to_string(wide_bytes) + R"(},{"name":"output","bytes":4096}],
 "nodes":[{"op":"ADD","inputs":[0,0],"outputs":[1],"inplace":0},
          {"op":")" +
         middle_op + R"(","inputs":[1,1],"outputs":[2],"inplace":0},
          {"op":"ADD","inputs":[2,2],"outputs":[3],"inplace":0}],
 "inputs":[0],"outputs":[3],"variables":[]})";
}

// A fresh directory under the test's temp dir (removed first if a previous run left it).
inline std::string FreshDir(const std::string& name) {
  const std::string dir = ProcessTempPath(name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// A tflite-analyze command run in this process (cli::RunCommandLine, as the Python module runs
// it), stdout and stderr captured: a test looping over many models spawns no process per model.
inline ToolRun RunInProcess(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  struct Redirect {
    std::streambuf* old_out;
    std::streambuf* old_err;
    ~Redirect() {
      std::cout.flush();
      std::cout.rdbuf(old_out);
      std::cerr.rdbuf(old_err);
    }
  } redirect{std::cout.rdbuf(out.rdbuf()), std::cerr.rdbuf(err.rdbuf())};
  ToolRun run;
  run.exit_code = cli::RunCommandLine(args);
  std::cout.flush();
  run.out = out.str();
  run.err = err.str();
  return run;
}

// The public external models (oracle/external/*.tflite), sorted: the 29 the tree's oracle holds,
// or every model of TFA_EXTERNAL_MODELS_DIR when set (the 35 of /work/shared/oracle/external, six
// of them too large for the tree).
inline std::vector<std::string> ExternalModelPaths() {
  const char* dir = std::getenv("TFA_EXTERNAL_MODELS_DIR");
  std::vector<std::string> models;
  for (const auto& entry : std::filesystem::directory_iterator(
           dir != nullptr && *dir != '\0' ? std::string(dir) : OraclePath("external"))) {
    if (entry.path().extension() == ".tflite") models.push_back(entry.path().string());
  }
  std::sort(models.begin(), models.end());
  return models;
}

inline std::string WriteFile(const std::string& path, const std::string& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace tfa::testing

#endif  // TESTS_CLI_CLI_FIXTURES_H_
