"""Shared fixtures: a tiny dictd dictionary written by the tests themselves, and small models."""

from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same cases on every run: CI's clean clone has no example database, so a rare case drawn
# once (a pre-existing spacing one in test_every_protected_item_survives_whatever_the_model_does, this way) failed
# some runs at random. HYPOTHESIS_PROFILE=explore draws new cases each run (`make fuzz` does).
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

# Each test process (pytest-xdist) gets one of torch's threads: with two a process each on 2 cores, torch's OpenMP
# threads wait on one another at every small operation while the other process holds a core (the shipped model's
# export and parity check took 197.6 s beside a busy core, against 30.2 s with one thread and 25.9 s alone).
# Set before any test module imports torch; servers and commands the tests start inherit it (ONNX Runtime ignores it).
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("OMP_NUM_THREADS", "1")

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

ENTRIES = [
    ("station", 'station /stˈeɪʃən/\nBahnhof <masc> [transp.], Station <fem>\n'
                '      "Where is the station?"  - Wo ist der Bahnhof?\n'
                '      "the main station"  - der Hauptbahnhof\n'),
    ("apple", 'apple /ˈapəl/\nApfel <masc>\n      "an apple a day"  - ein Apfel am Tag\n'
              '      "I eat an apple."  - Ich esse einen Apfel., Ich esse \'nen Apfel.\n'),
    ("street", 'street /stɹˈiːt/\n [coll.] Straße <fem>, Gasse <fem>\n         Note: in a town\n'
               '      "He crossed the street."  - Er überquerte die Straße.\n see: {streets}\n'),
    ("colour", 'colour/color /kˈʌlə/\nFarbe <fem>\n      "colour/color fastness"  - Farbechtheit\n'
               '      "I like (the) green colour."  - Ich mag die grüne Farbe.\n'),
    ("greeting", 'greeting /ɡɹˈiːtɪŋ/\nGruß <masc>\n      "Greetings from Munich!"  - Grüße aus München!\n'
                 '      "Greetings from Munich!"  - Grüße aus München!\n'),
    ("broken", 'broken /bɹˈəʊkən/\n'),
]


def b64(number: int) -> str:
    digits = ""
    while True:
        digits = B64[number % 64] + digits
        number //= 64
        if number == 0:
            return digits


def write_dictd(directory: Path, entries=ENTRIES, extra_examples: int = 0, name: str = "freedict-eng-deu") -> Path:
    """A dictd database (.index + .dict) in the format Debian's package ships."""
    directory.mkdir(parents=True, exist_ok=True)
    entries = list(entries) + [
        (f"thing{i}", f"thing{i} /θˈɪŋ/\nDing{i} <neut>\n      \"The thing {i} is here.\"  - Das Ding {i} ist hier.\n")
        for i in range(extra_examples)
    ]
    header = "00-database-info\nThis is a test dictionary.\n"
    body, index = header.encode(), [f"00-database-info\t{b64(0)}\t{b64(len(header.encode()))}"]
    for headword, text in entries:
        raw = text.encode("utf-8")
        index.append(f"{headword}\t{b64(len(body))}\t{b64(len(raw))}")
        body += raw
    (directory / f"{name}.dict").write_bytes(body)
    (directory / f"{name}.index").write_text("\n".join(sorted(index)) + "\n", encoding="utf-8")
    return directory


@pytest.fixture
def dictd_dir(tmp_path: Path) -> Path:
    return write_dictd(tmp_path / "dictd", extra_examples=300)


TINY = dict(vocab_size=80, d_model=32, n_heads=4, d_ff=64, encoder_layers=2, decoder_layers=2, dropout=0.0)


@pytest.fixture(scope="session")
def corpus_dir(tmp_path_factory) -> Path:
    from model.data import build_corpus

    root = tmp_path_factory.mktemp("corpus")
    build_corpus(root / "data", write_dictd(root / "dictd", extra_examples=300))
    return root / "data"


@pytest.fixture(scope="session")
def tiny_checkpoint(tmp_path_factory, corpus_dir) -> Path:
    """A randomly initialised small model with a tokenizer trained on the fixture corpus."""
    import torch

    from model.checkpoint import save_checkpoint
    from model.data import read_tsv
    from model.tokenizer import train_sentencepiece
    from model.transformer import Transformer, TransformerConfig

    directory = tmp_path_factory.mktemp("checkpoint")
    pairs = read_tsv(corpus_dir / "train.tsv")
    train_sentencepiece([t for p in pairs for t in (p.en, p.de)], directory, vocab_size=TINY["vocab_size"])
    torch.manual_seed(0)
    save_checkpoint(Transformer(TransformerConfig(**TINY)).eval(), directory)
    return directory


@pytest.fixture(scope="session", autouse=True)
def onnx_exports_reused(tmp_path_factory):
    """torch.onnx.export takes ~6 s a model on 2 cores, and a dozen tests export the same tiny weights: a model of
    the same configuration and weights is exported once a session and its graphs copied after that. A test that
    changes the weights or the configuration exports its own."""
    import dataclasses
    import hashlib
    import shutil

    from export import repository

    export_onnx, exported = repository.export_onnx, {}
    cache = tmp_path_factory.mktemp("onnx-exports")

    def export_once(model, out_dir: Path, **options) -> dict:
        digest = hashlib.sha256(repr((dataclasses.asdict(model.cfg), options)).encode())
        for tensor in model.state_dict().values():
            digest.update(tensor.detach().contiguous().numpy().tobytes())
        key = digest.hexdigest()
        if key not in exported:
            (cache / key).mkdir(exist_ok=True)  # (an export that failed left it)
            exported[key] = export_onnx(model, cache / key, **options)
        for graph in exported[key]:
            shutil.copy(cache / key / graph, out_dir / graph)
        return copy.deepcopy(exported[key])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(repository, "export_onnx", export_once)
        yield


@pytest.fixture(scope="session")
def exported_tiny(tmp_path_factory, tiny_checkpoint, corpus_dir) -> Path:
    from export.repository import export_model

    out = tmp_path_factory.mktemp("repository") / "tiny" / "1"
    export_model(tiny_checkpoint, out, corpus_dir)
    return out
