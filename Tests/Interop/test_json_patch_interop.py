"""Cross-check of Statecast's JSON Patch diff against Python's `jsonpatch` library.

Swift's `InteropCorpusTests` writes a corpus of cases (old document, new document, the
RFC 6902 patch that StatecastJSON computed between them); this test applies every patch
with the independent `jsonpatch` implementation and requires the result to equal `new`.

One command runs both halves, from the repository root:

    python3 -m pytest Tests/Interop

- If `STATECAST_INTEROP_CORPUS` names an existing file, that corpus is checked as is
  (for a CI step that has already run `swift test` with the variable set).
- Otherwise the test runs `swift test --filter InteropCorpusTests` itself, with
  `STATECAST_INTEROP_CORPUS` pointing into a temporary directory. Set
  `STATECAST_SWIFT_SCRATCH` to pass a `--scratch-path` to that build.

Needs `pip install jsonpatch pytest` (scripts/setup.sh --test installs them).
"""

import json
import os
import pathlib
import subprocess

import jsonpatch
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
ALLOWED_OPS = {"add", "remove", "replace", "move", "copy", "test"}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    given = os.environ.get("STATECAST_INTEROP_CORPUS")
    if given and pathlib.Path(given).is_file():
        path = pathlib.Path(given)
    else:
        path = tmp_path_factory.mktemp("interop") / "corpus.json"
        command = ["swift", "test", "--filter", "InteropCorpusTests"]
        scratch = os.environ.get("STATECAST_SWIFT_SCRATCH")
        if scratch:
            command += ["--scratch-path", scratch]
        environment = dict(os.environ, STATECAST_INTEROP_CORPUS=str(path))
        subprocess.run(command, cwd=ROOT, env=environment, check=True)
    cases = json.loads(path.read_text(encoding="utf-8"))
    assert len(cases) > 1000, "the corpus should hold thousands of cases"
    return cases


def same(a, b):
    """JSON equality as RFC 6902 `test` defines it; unlike Python's `==`, `true` is not `1`."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[key], b[key]) for key in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def test_jsonpatch_applies_every_patch_to_the_target(corpus):
    failures = []
    for case in corpus:
        try:
            result = jsonpatch.apply_patch(case["old"], case["patch"], in_place=False)
        except Exception as error:  # noqa: BLE001 - report every kind of failure alike
            failures.append(f"{case['name']}: {type(error).__name__}: {error}")
            continue
        if not same(result, case["new"]):
            failures.append(f"{case['name']}: got {result!r}, want {case['new']!r}")
    assert not failures, f"{len(failures)} of {len(corpus)} cases failed:\n" + "\n".join(failures[:20])


def test_patches_are_well_formed_rfc6902(corpus):
    for case in corpus:
        assert isinstance(case["patch"], list)
        for operation in case["patch"]:
            assert operation["op"] in ALLOWED_OPS
            assert operation["path"] == "" or operation["path"].startswith("/")
            if operation["op"] in ("add", "replace", "test"):
                assert "value" in operation


def test_unchanged_documents_give_empty_patches(corpus):
    unchanged = [case for case in corpus if same(case["old"], case["new"]) and case["name"].startswith("random")]
    assert unchanged, "the corpus should contain some pairs without changes"
    for case in unchanged:
        assert case["patch"] == [], case["name"]
