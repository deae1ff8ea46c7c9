// tflite-analyze: predicts what TensorFlow Lite does with a model (delegate partitions, copy
// costs, tensor arena) and checks those predictions. Exit codes: 0 ok, 1 gate failed, 2 bad input.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/command_line.h"

namespace {

// A million-node graph is a gigabyte of small structs, and faulting it in 4 KiB pages cost about
// half the CPU time of `report` (issue 18). glibc puts its large allocations on transparent huge
// pages when the tunable glibc.malloc.hugetlb is 1, but reads tunables only at startup: so the
// process starts itself again once with it set. A GLIBC_TUNABLES that already names it is kept,
// and a failed exec just runs on as it is. Under AddressSanitizer malloc is the sanitizer's, the
// tunable does nothing, and the second start only doubled the cost of every CLI test in CI.
void ExecWithHugePageMalloc(char** argv) {
#if defined(__SANITIZE_ADDRESS__)
  return;
#endif
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
  return tfa::cli::RunCommandLine(std::vector<std::string>(argv + 1, argv + argc));
}
