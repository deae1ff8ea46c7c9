"""Shared fixtures: the fetched corpus and the tflite-analyze binary the package is checked
against (ctest sets TFA_CORPUS_DIR and TFA_CLI; python/CMakeLists.txt)."""
import json
import os
import pathlib
import subprocess

import pytest

CORPUS = pathlib.Path(os.environ.get("TFA_CORPUS_DIR", "corpus/models"))
CLI = os.environ.get("TFA_CLI", "build/tflite-analyze")
GENERATE = os.environ.get("TFA_GENERATE", "build/tfa-generate")


def corpus_models():
    return sorted(CORPUS.glob("*.tflite"))


def cli(*args, check=True):
    """Runs the tflite-analyze binary; returns (exit code, stdout bytes, stderr text)."""
    done = subprocess.run([CLI, *map(str, args)], capture_output=True)
    if check and done.returncode != 0:
        raise AssertionError(f"tflite-analyze {args} exited {done.returncode}: {done.stderr}")
    return done.returncode, done.stdout, done.stderr.decode()


def cli_json(*args):
    return json.loads(cli(*args)[1])


@pytest.fixture
def small_model():
    return CORPUS / "hands__hand_landmark_lite.tflite"


@pytest.fixture
def default_model():
    return CORPUS / "face_detection__face_detection_short_range.tflite"


@pytest.fixture(scope="session")
def dynamic_batch_model(tmp_path_factory):
    """The generator's dynamic_batch: input [1,16] with shape_signature [-1,16]."""
    out = tmp_path_factory.mktemp("generated")
    subprocess.run([GENERATE, "--out", out, "--name", "dynamic_batch"], check=True,
                   capture_output=True)
    return out / "dynamic_batch.tflite"
