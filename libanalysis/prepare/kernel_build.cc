#include "libanalysis/prepare/kernel_build.h"

#include <array>

namespace tfa {
namespace {

struct PlatformBuild {
  std::string_view name;
  bool mobile;
  bool ruy;
  int32_t fc_4bit_max_rows;
};

// ruy: Bazel turns it on for aarch64 and android_arm, CMake for Android. The 4-bit rows: Bazel
// defines FC_4BIT_SSE on x86-64 (4 rows with SSSE3) and FC_4BIT_NEON on ARM (4 rows on aarch64,
// 1 on 32-bit ARM); LiteRT's CMake defines neither (1 row).
constexpr std::array<PlatformBuild, 5> kPlatforms = {{
    {"x86-64", false, false, 1},
    {"x86-64-ssse3", false, false, 4},
    {"linux-arm64", false, true, 4},
    {"android-arm64", true, true, 4},
    {"android-arm32", true, true, 1},
}};

}  // namespace

std::vector<std::string_view> KernelBuildPlatforms() {
  std::vector<std::string_view> names;
  for (const PlatformBuild& p : kPlatforms) names.push_back(p.name);
  return names;
}

Result<KernelBuild> KernelBuildFor(std::string_view platform, int32_t num_threads) {
  if (num_threads == 0 || num_threads < -1) {
    return Status::Error("--num-threads must be 1 or more, or -1 for upstream's default (unset)");
  }
  for (const PlatformBuild& p : kPlatforms) {
    if (p.name != platform) continue;
    KernelBuild build;
    build.platform = std::string(p.name);
    build.mobile = p.mobile;
    build.ruy = p.ruy;
    build.fc_4bit_max_rows = p.fc_4bit_max_rows;
    build.num_threads = num_threads;
    return build;
  }
  std::string names;
  for (const PlatformBuild& p : kPlatforms)
    names += (names.empty() ? "" : ", ") + std::string(p.name);
  return Status::Error("unknown platform '" + std::string(platform) + "' (one of: " + names + ")");
}

}  // namespace tfa
