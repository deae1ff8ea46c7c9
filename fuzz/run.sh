#!/usr/bin/env bash
# Build every libFuzzer target with clang (ASan + UBSan + coverage) and run each for SECONDS on
# its seed corpus. Exits non-zero on any finding (crash, leak, timeout, out-of-memory) and prints
# executions and coverage per target. Findings are kept in fuzz/findings/TARGET/.
# usage: fuzz/run.sh [SECONDS]   (default 60)
# FUZZ_RUNTIME=1 adds fuzz_run, the runtime (plan, Prepare, Invoke) on mutated real models, which
# builds the whole runtime under clang's instrumentation; CI keeps to the parsers' targets.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${FUZZ_BUILD_DIR:-build-fuzz}
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTFA_BUILD_FUZZERS=ON -DTFA_BUILD_TESTS=OFF -DTFA_BUILD_BENCHMARKS=OFF \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target fuzz_tflite_loader fuzz_graph_json fuzz_json_run fuzz_report fuzz_gate_baseline \
  fuzz_delegate_profile fuzz_npy fuzz_tflm $([ "${FUZZ_RUNTIME:-0}" = 1 ] && echo fuzz_run)

# Seeds: the committed ones plus small real and synthetic models made now (never committed).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tflite_loader" "$work/graph_json" "$work/json_run" "$work/report" "$work/gate_baseline" \
  "$work/delegate_profile" "$work/npy" "$work/run" "$work/tflm"
# The built-in profiles and the documented example are the profile parser's seeds.
cp libanalysis/profiles/builtin/*.json "$work/delegate_profile/"
cp fuzz/seeds/gate_baseline/* "$work/gate_baseline/"
cp fuzz/seeds/graph_json/* "$work/graph_json/"
cp fuzz/seeds/graph_json/* "$work/json_run/"
cp fuzz/seeds/npy/* "$work/npy/"
cp fuzz/seeds/tflite_loader/* "$work/tflite_loader/" 2>/dev/null || true
find corpus/models -name '*.tflite' -size -300k -exec cp {} "$work/tflite_loader/" \; 2>/dev/null || true
# Real models nobody here wrote (INT4 blockwise weights, STABLEHLO composites, control flow).
find build/tests/oracle/external -name '*.tflite' -size -300k -exec cp {} "$work/tflite_loader/" \; \
  2>/dev/null || true
if [ -x build/tfa-generate ]; then build/tfa-generate --out "$work/tflite_loader" >/dev/null || true; fi
# The runtime's seeds: the small real models (every op they run is one the mutations reach).
find build/tests/oracle/external build/tests/oracle/control_flow build/tests/oracle/families \
  -name '*.tflite' -size -100k -exec cp {} "$work/run/" \; 2>/dev/null || true

# Report seeds: each model seed prefixed with a delegate-selector byte.
i=0
for f in "$work"/tflite_loader/* "$work"/graph_json/*; do
  [ -f "$f" ] || continue
  { printf "\\$(printf '%03o' $((i % 6)))"; cat "$f"; } >"$work/report/seed_$i"
  i=$((i + 1))
done

# TFLM seeds: the models TFLite Micro's own tests allocate, one of them rewritten with an offline
# plan, each prefixed with a build-selector byte.
mkdir -p "$work/tflm_models"
find build/tests/oracle/external -name 'tflite-micro__*.tflite' -size -300k \
  -exec cp {} "$work/tflm_models/" \; 2>/dev/null || true
conv=build/tests/oracle/external/tflite-micro__tensorflow_lite_micro_testing_test_conv_model.tflite
if [ -x build/tflite-analyze ] && [ -f "$conv" ]; then
  build/tflite-analyze convert "$conv" --tflm-offline-plan "$work/tflm_models/offline_plan.tflite" \
    >/dev/null 2>&1 || true
fi
i=0
for f in "$work"/tflm_models/*; do
  [ -f "$f" ] || continue
  for selector in 0 3 5 16 144; do
    { printf "\\$(printf '%03o' $(((selector + i) % 256)))"; cat "$f"; } >"$work/tflm/seed_${i}_$selector"
  done
  i=$((i + 1))
done

# Targets run side by side, one per core, so CI's short run costs SECONDS per pair of targets.
jobs_max=${FUZZ_JOBS:-$(nproc)}
run() {
  local target=$1 dict=$2 seeds=$3
  mkdir -p "fuzz/findings/$target"
  local log="$work/$target.log" result="$work/$target.result"
  if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 "$build/$target" "$seeds" \
      -dict="$dict" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
      -print_final_stats=1 -artifact_prefix="fuzz/findings/$target/" >"$log" 2>&1; then
    local execs cov
    execs=$(awk '/stat::number_of_executed_units/{print $NF}' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
    echo "fuzz: $target: ${seconds}s, $execs executions, $cov coverage edges, no findings" >"$result"
  else
    { echo "fuzz: $target: FINDING (see fuzz/findings/$target/)"
      grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5; } >"$result"
  fi
}
targets=(
  "fuzz_tflite_loader fuzz/tflite.dict $work/tflite_loader"
  "fuzz_graph_json fuzz/graph_json.dict $work/graph_json"
  "fuzz_json_run fuzz/graph_json.dict $work/json_run"
  "fuzz_report fuzz/tflite.dict $work/report"
  "fuzz_gate_baseline fuzz/gate_baseline.dict $work/gate_baseline"
  "fuzz_delegate_profile fuzz/delegate_profile.dict $work/delegate_profile"
  "fuzz_npy fuzz/npy.dict $work/npy"
  "fuzz_tflm fuzz/tflite.dict $work/tflm"
)
if [ "${FUZZ_RUNTIME:-0}" = 1 ]; then targets+=("fuzz_run fuzz/tflite.dict $work/run"); fi
for spec in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 1; done
  # shellcheck disable=SC2086 # the spec is three words: target, dictionary, seed folder
  run $spec &
done
wait
status=0
for spec in "${targets[@]}"; do
  target=${spec%% *}
  cat "$work/$target.result"
  if grep -q FINDING "$work/$target.result"; then status=1; fi
done
exit $status
