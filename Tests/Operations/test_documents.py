"""The README and the guide stay true: their Swift blocks are compiled (and the marked
ones run) by the test targets that scripts/doc-snippets.py generates from them, and
those sources must match the documents; a manifest block must be a manifest SwiftPM
accepts."""

import importlib.util
import pathlib
import shutil
import subprocess
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("doc_snippets", ROOT / "scripts" / "doc-snippets.py")
doc_snippets = importlib.util.module_from_spec(spec)
spec.loader.exec_module(doc_snippets)


@pytest.mark.parametrize("document", sorted(doc_snippets.DOCUMENTS))
def test_the_compiled_snippets_are_the_documents_own(document):
    for path, text in doc_snippets.generate(document).items():
        committed = (ROOT / path).read_text()
        assert committed == text, f"{path} is stale: run python3 scripts/doc-snippets.py --write"


@pytest.mark.parametrize("document", sorted(doc_snippets.DOCUMENTS))
def test_manifest_blocks_are_manifests_swiftpm_accepts(document):
    manifests = [
        code for _, code, _ in doc_snippets.blocks((ROOT / document).read_text())
        if code.startswith("// swift-tools-version")
    ]
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    for manifest in manifests:
        with tempfile.TemporaryDirectory() as folder:
            (pathlib.Path(folder) / "Package.swift").write_text(manifest)
            result = subprocess.run(
                [swift, "package", "dump-package"], cwd=folder, capture_output=True, text=True, timeout=300
            )
            assert result.returncode == 0, result.stderr
