"""test_golden.py — every schema theme of golden/ (README there): decode(bin)
equals the JSON value after the native mapping of python/README.md (written
independently in jsonmap.py), encode gives the bin back, and the
cross-version files (read-by-v<k>, v<k>.read-by-current) decode the other
version's bytes as the corpus says. Then desert-scala's golden dataset
against what `desert decode` prints."""
import glob
import json
import os
import re
import subprocess

import pytest

import desert
from conftest import DATASET_DIR, GOLDEN
from jsonmap import Mapper, same


def load(path):
    with open(path, "rb") as f:
        return f.read()


def themes():
    names = []
    for p in sorted(glob.glob(os.path.join(GOLDEN, "*.schema.json"))):
        name = os.path.basename(p)[:-len(".schema.json")]
        if os.path.exists(os.path.join(GOLDEN, name + ".bin")):
            names.append(name)
    return names


def cross_cases():
    """(schema name, bin name, expected json file) of the cross-version files."""
    cases = []
    for p in sorted(glob.glob(os.path.join(GOLDEN, "*.json"))):
        base = os.path.basename(p)
        m = re.fullmatch(r"(.+)\.read-by-(v\d+)\.json", base)
        if m and not m.group(1).endswith(".v0"):
            if re.fullmatch(r".+\.v\d+", m.group(1)):
                continue
            cases.append((m.group(1) + "." + m.group(2), m.group(1), base))
        m = re.fullmatch(r"(.+)\.(v\d+)\.read-by-current\.json", base)
        if m:
            cases.append((m.group(1), m.group(1) + "." + m.group(2), base))
    return cases


def test_corpus_is_there():
    assert len(themes()) >= 20, themes()
    assert len(cross_cases()) >= 8, cross_cases()


@pytest.mark.parametrize("name", themes())
def test_golden_round_trip(name):
    doc_text = load(os.path.join(GOLDEN, name + ".schema.json"))
    schema = desert.Schema(doc_text)
    data = load(os.path.join(GOLDEN, name + ".bin"))
    expected = Mapper(json.loads(doc_text)).native(
        json.loads(doc_text)["root"], json.loads(load(os.path.join(GOLDEN, name + ".json"))))
    value = schema.decode(data)
    diff = same(value, expected)
    assert diff is None, diff
    assert schema.encode(value) == data
    assert schema.encode(expected) == data


@pytest.mark.parametrize("schema_name,bin_name,json_name", cross_cases())
def test_golden_cross_version(schema_name, bin_name, json_name):
    doc = json.loads(load(os.path.join(GOLDEN, schema_name + ".schema.json")))
    schema = desert.Schema(doc)
    data = load(os.path.join(GOLDEN, bin_name + ".bin"))
    # a newer reader of older data may stop before the end (golden/README.md:
    # evolution.v0's removed trailing fields are never read)
    value = schema.decode(data, allow_trailing=True)
    expected = Mapper(doc).native(doc["root"], json.loads(load(os.path.join(GOLDEN, json_name))))
    diff = same(value, expected)
    assert diff is None, diff


def desert_cli():
    cli = os.environ.get("DESERT_CLI")
    return cli if cli and os.access(cli, os.X_OK) else None


@pytest.mark.skipif(not os.path.exists(os.path.join(DATASET_DIR, "dataset1.bin")),
                    reason="golden dataset ../shared/golden/dataset1.bin not present")
def test_golden_dataset():
    schema_path = os.path.join(DATASET_DIR, "dataset1.schema.json")
    bin_path = os.path.join(DATASET_DIR, "dataset1.bin")
    doc = json.loads(load(schema_path))
    cli = desert_cli()
    if cli:  # what `desert decode` prints, now
        text = subprocess.run([cli, "decode", "--schema", schema_path, bin_path], check=True,
                              capture_output=True).stdout
    else:
        pytest.skip("DESERT_CLI (the desert tool) not given")
    expected = Mapper(doc).native(doc["root"], json.loads(text))
    schema = desert.Schema(doc)
    data = load(bin_path)
    value = schema.decode(data)
    diff = same(value, expected)
    assert diff is None, diff
    assert value["exception"]["className"] == expected["exception"]["className"]
    # the document sets legacy_header_strings when it re-encodes byte for byte
    if doc.get("options", {}).get("legacy_header_strings"):
        assert schema.encode(value) == data
