"""PEP 517 build backend of the tflite_analyze wheel: CMake builds the package (python/), and
the wheel is zipped here.

It lives in the tree (pyproject.toml's backend-path) and uses only the standard library, because
Debian 12 packages no backend that drives CMake (scikit-build-core is newer): so
`pip install --no-build-isolation .` works offline in a fresh venv. TFA_BUILD_DIR names a build
tree to reuse (the tests use ./build); otherwise a Release build goes to ./build-python.
"""
from __future__ import annotations

import base64
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

_ROOT = pathlib.Path(__file__).resolve().parents[2]
_NAME = "tflite_analyze"


def _version() -> str:
    cmake = (_ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(\w+ VERSION ([0-9.]+)", cmake).group(1)


def _dist_info() -> str:
    return f"{_NAME}-{_version()}.dist-info"


def _metadata() -> str:
    return (f"Metadata-Version: 2.1\nName: {_NAME}\nVersion: {_version()}\n"
            "Summary: Predict TensorFlow Lite delegate partitions, copies and tensor arenas\n"
            "Requires-Python: >=3.9\nProvides-Extra: run\n"
            "Requires-Dist: numpy; extra == \"run\"\n")


def _wheel_tag() -> str:
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"{python}-{python}-{platform}"


def _built_package() -> pathlib.Path:
    """Builds the package with CMake and returns the folder that holds it."""
    build = pathlib.Path(os.environ.get("TFA_BUILD_DIR") or _ROOT / "build-python")
    env = dict(os.environ)
    env.setdefault("CCACHE_BASEDIR", str(_ROOT))
    env.setdefault("CCACHE_NOHASHDIR", "1")
    if not (build / "CMakeCache.txt").exists():
        subprocess.run(["cmake", "-S", str(_ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                        "-DTFA_BUILD_TESTS=OFF", "-DTFA_BUILD_BENCHMARKS=OFF",
                        f"-DPython3_EXECUTABLE={sys.executable}"], check=True, env=env)
    subprocess.run(["cmake", "--build", str(build), "--target", "tflite_analyze_python",
                    "--parallel", str(os.cpu_count() or 1)], check=True, env=env)
    return build / "python" / _NAME


def _file_bytes(path: pathlib.Path) -> bytes:
    """The file as the wheel holds it: the extension without debug info (a RelWithDebInfo build
    tree's module is ~180 MB, ~10x its stripped size), as wheels ship it."""
    strip = shutil.which("strip")
    if path.suffix != ".so" or strip is None:
        return path.read_bytes()
    with tempfile.TemporaryDirectory() as work:
        stripped = pathlib.Path(work) / path.name
        subprocess.run([strip, "--strip-debug", "-o", str(stripped), str(path)], check=True)
        return stripped.read_bytes()


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    package = _built_package()
    files = {f"{_NAME}/{p.name}": _file_bytes(p) for p in sorted(package.iterdir())
             if p.suffix in (".py", ".so")}
    info = _dist_info()
    files[f"{info}/METADATA"] = _metadata().encode()
    files[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: {_NAME}_build\n"
                              f"Root-Is-Purelib: false\nTag: {_wheel_tag()}\n").encode()
    record = [_record_line(name, data) for name, data in files.items()]
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel_name = f"{_NAME}-{_version()}-{_wheel_tag()}.whl"
    with zipfile.ZipFile(pathlib.Path(wheel_directory) / wheel_name, "w",
                         zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            wheel.writestr(name, data)
    return wheel_name
