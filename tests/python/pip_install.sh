#!/usr/bin/env bash
# `pip install .` of the Python module into a fresh virtual environment, then
# its pytest suite (tests/python/test_module.py). The build tools, pytest and
# python-chess come from PyPI: when they cannot be fetched the test is
# skipped (77); when the module does not build or a test fails, it fails.
# The CUDA backend is left out of this build (nvcc would double CI's time).
# Usage: pip_install.sh SOURCE_DIR WORK_DIR PERFTIDE_BINARY
set -uo pipefail
src=$1 work=$2 binary=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
python3 -m venv "$work/venv" || { echo "python3 -m venv failed (python3-venv missing? run .ci/setup)"; exit 77; }
py=$work/venv/bin/python
if ! "$py" -m pip install -q "scikit-build-core>=0.10" "nanobind>=2.0" pytest "chess==1.11.2"; then
    echo "the build tools could not be installed from PyPI (is it reachable?)"
    exit 77
fi
set -e
"$py" -m pip install -q --no-build-isolation "$src" \
    -C cmake.define.PERFTIDE_CUDA=OFF -C build-dir="$work/build" -C cmake.build-type=Release
cd "$work"  # not the source tree: `import perftide` must find the installed module
PERFTIDE_BINARY=$binary "$py" -m pytest -q -p no:cacheprovider "$src/tests/python/test_module.py"
