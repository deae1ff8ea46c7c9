// The GPU mutants (tests/oracle/gpu_mutants.tar.xz): corpus models with small edits that make
// the GPU delegate take only part of them, stored as xdelta3 patches against the corpus models
// and rebuilt on demand. See tests/oracle/README.md.
#ifndef TESTS_SUPPORT_GPU_MUTANTS_H_
#define TESTS_SUPPORT_GPU_MUTANTS_H_

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

}  // namespace tfa::testing

#endif  // TESTS_SUPPORT_GPU_MUTANTS_H_
