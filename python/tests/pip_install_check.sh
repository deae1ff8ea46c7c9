#!/usr/bin/env bash
# The README's install of the Python package, as a user does it: a fresh venv (no site
# packages), `pip install --no-build-isolation .` offline, then an import from outside the
# checkout and one analysis that must equal the CLI's report --json.
# Usage: pip_install_check.sh PYTHON SOURCE_DIR BUILD_DIR CLI MODEL
set -euo pipefail
python=$1 source_dir=$2 build_dir=$3 cli=$4 model=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" -m venv "$work/venv"
# The build tree ctest runs in already holds the package's targets: reuse it.
TFA_BUILD_DIR=$build_dir "$work/venv/bin/pip" install --quiet --no-index --no-build-isolation \
  "$source_dir"
"$cli" report "$model" --delegate gpu --json >"$work/cli.json"
cd "$work"
"$work/venv/bin/python" - "$model" "$work/cli.json" <<'PY'
import json, sys
import tflite_analyze
assert "site-packages" in tflite_analyze.__file__, tflite_analyze.__file__
report = tflite_analyze.analyze(sys.argv[1], delegates=["gpu"])
assert report.to_dict() == json.load(open(sys.argv[2])), "analyze() differs from report --json"
print(f"installed {tflite_analyze.__version__}: arena {report.arena.size}")
PY
