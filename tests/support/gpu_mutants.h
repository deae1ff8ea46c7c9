// The GPU mutants (tests/oracle/gpu_mutants.tar.xz): corpus models with small edits that make
// the GPU delegate take only part of them, stored as xdelta3 patches against the corpus models
// and rebuilt on demand. See tests/oracle/README.md.
#ifndef TESTS_SUPPORT_GPU_MUTANTS_H_
#define TESTS_SUPPORT_GPU_MUTANTS_H_

#include <map>
#include <string>
#include <vector>

namespace tfa::testing {

struct GpuMutant {
  std::string name;          // e.g. "hll_signbit_conv_mid"
  std::string source_model;  // the corpus model it was made from
};

// The rows of gpu_mutants/MUTANTS.tsv, in file order; the test fails when it cannot be read.
std::vector<GpuMutant> GpuMutants();

// Rebuilds `mutant` from its corpus model with xdelta3 into `dir` (which must exist) and
// returns the model's path; the test fails when xdelta3 does.
std::string RebuildGpuMutant(const GpuMutant& mutant, const std::string& dir);

// Every mutant rebuilt into a fresh directory `dir_name` of the test process's temp dir, which
// goes when the object does. Test suites hold one from SetUpTestSuite to TearDownTestSuite.
class RebuiltGpuMutants {
 public:
  explicit RebuiltGpuMutants(const std::string& dir_name);
  ~RebuiltGpuMutants();
  RebuiltGpuMutants(const RebuiltGpuMutants&) = delete;
  RebuiltGpuMutants& operator=(const RebuiltGpuMutants&) = delete;

  // Model path by mutant name.
  const std::map<std::string, std::string>& paths() const { return paths_; }

 private:
  std::string dir_;
  std::map<std::string, std::string> paths_;
};

}  // namespace tfa::testing

#endif  // TESTS_SUPPORT_GPU_MUTANTS_H_
