#!/usr/bin/env bash
# Runs every analysing command on every .tflite of a folder and prints one line per command that
# does not exit 0 (model | command | exit code | first error line): info, report with no delegate
# and with gpu, xnnpack and nnapi, arena, and convert followed by report on the Graph JSON.
# usage: bench/every_command_on_models.sh [MODELS_DIR] [TFLITE_ANALYZE]
#   (defaults: ../shared/oracle/external, build/tflite-analyze)
set -uo pipefail
dir=${1:-../shared/oracle/external}
tool=${2:-build/tflite-analyze}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for model in "$dir"/*.tflite; do
  name=$(basename "$model" .tflite)
  for command in "info" "report" "report --delegate gpu" "report --delegate xnnpack" \
                 "report --delegate nnapi" "arena" "convert"; do
    if [ "$command" = convert ]; then
      out=$(timeout 60 "$tool" convert "$model" -o "$work/$name.json" 2>&1 >/dev/null)
      rc=$?
      if [ $rc = 0 ]; then
        out=$(timeout 60 "$tool" report "$work/$name.json" 2>&1 >/dev/null)
        rc=$?
        command="convert, report on the JSON"
      fi
    else
      # shellcheck disable=SC2086
      out=$(timeout 60 "$tool" $command "$model" 2>&1 >/dev/null)
      rc=$?
    fi
    [ $rc != 0 ] && echo "$name | $command | exit $rc | $(echo "$out" | head -1 | cut -c1-200)"
  done
done
exit 0
