#include "tests/support/gpu_mutants.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/support/test_paths.h"
#include "tests/support/tool_runner.h"

namespace tfa::testing {

std::vector<GpuMutant> GpuMutants() {
  std::vector<GpuMutant> mutants;
  std::ifstream tsv(OraclePath("gpu_mutants/MUTANTS.tsv"));
  EXPECT_TRUE(tsv.good()) << OraclePath("gpu_mutants/MUTANTS.tsv");
  std::string line;
  std::getline(tsv, line);  // header: name, source_model, ...
  while (std::getline(tsv, line)) {
    const size_t name_end = line.find('\t');
    const size_t source_end = line.find('\t', name_end + 1);
    if (name_end == std::string::npos) continue;
    mutants.push_back(
        {line.substr(0, name_end), line.substr(name_end + 1, source_end - name_end - 1)});
  }
  return mutants;
}

std::string RebuildGpuMutant(const GpuMutant& mutant, const std::string& dir) {
  const std::string out = (std::filesystem::path(dir) / (mutant.name + ".tflite")).string();
  const std::string command = "xdelta3 -d -f -s '" + CorpusModelPath(mutant.source_model) + "' '" +
                              OraclePath("gpu_mutants/patches/" + mutant.name + ".xd3") + "' '" +
                              out + "'";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return out;
}

RebuiltGpuMutants::RebuiltGpuMutants(const std::string& dir_name)
    : dir_(ProcessTempPath(dir_name)) {
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
  for (const GpuMutant& mutant : GpuMutants()) paths_[mutant.name] = RebuildGpuMutant(mutant, dir_);
}

RebuiltGpuMutants::~RebuiltGpuMutants() { std::filesystem::remove_all(dir_); }

}  // namespace tfa::testing
