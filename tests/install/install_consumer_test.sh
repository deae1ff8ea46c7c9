#!/usr/bin/env bash
# Installs libanalysis from the build tree into a scratch prefix, builds the consumer project
# against the installed CMake package, and runs it on a corpus model. Only the public headers are
# installed, and none of them exposes nlohmann's types.
set -euo pipefail
build_dir=$1 source_dir=$2 model=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
if grep -rlE "nlohmann(/|::)" "$work/prefix/include"; then
  echo "installed headers must not expose nlohmann types" >&2
  exit 1
fi
cmake -S "$source_dir/tests/install/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
out=$("$work/build/consumer" "$model")
echo "$out"
[ "$out" = "nodes: 164, partitions: 1, arena: 257536, json: ok" ]
