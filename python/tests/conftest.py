"""conftest.py — where the tests find the repository's golden corpus, the
golden dataset and the `desert` tool (DESERT_CLI, set by ctest python_tests)."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
GOLDEN = os.path.join(REPO, "golden")
DATASET_DIR = os.environ.get("DESERT_GOLDEN_DIR", os.path.join(REPO, "..", "shared", "golden"))
sys.path.insert(0, HERE)


@pytest.fixture
def golden_dir():
    return GOLDEN
