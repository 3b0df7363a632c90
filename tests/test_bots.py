"""The bot families' plumbing: the registry, the generated dispatch, and the kernel cache that
must notice an edit to a bot file.  (What the bots decide is pinned by the golden games and
tests/test_reference.py.)"""

import shutil
import types
from pathlib import Path

import pytest

from citadels_sim.kernel import source_digest
from citadels_sim.kernel.bots import FAMILIES, dispatch, generate
from citadels_sim.kernel.bots import random as random_family

KERNEL = Path(source_digest.__code__.co_filename).parent


def test_dispatch_is_generated_from_the_registry():
    """dispatch.py is what the generator writes today: after adding a family or a decision,
    run ``python -m citadels_sim.kernel.bots.generate``."""
    assert generate.TARGET.read_text() == generate.source()


def test_every_family_module_names_its_base_and_one_writes_every_decision():
    families = generate._families()
    assert list(families) == list(FAMILIES)
    complete = [n for n, m in families.items() if m.BASE is None]
    assert complete == ["heuristic"]
    for name, module in families.items():
        assert module.BASE is None or module.BASE in FAMILIES, name


def test_a_family_decision_reaches_that_familys_code():
    """The random family's build is its own; the builder takes the heuristic's keep."""
    assert generate._owner(generate._families(), "random", "choose_build") == "random"
    assert generate._owner(generate._families(), "builder", "choose_keep") == "heuristic"
    assert "random.choose_build(st, tb, s)" in generate.source()
    assert callable(dispatch.choose_build)


def test_the_generator_refuses_a_decision_with_other_parameters(monkeypatch):
    bad = types.SimpleNamespace(py_func=lambda st, tb, seat: None)
    bad.py_func.__module__ = random_family.__name__
    monkeypatch.setattr(random_family, "choose_smithy", bad)
    with pytest.raises(SystemExit, match=r"random.choose_smithy must take \(st, tb, s\)"):
        generate.source()


def test_an_edit_to_a_bot_file_gives_the_kernel_a_new_cache(tmp_path):
    copy = tmp_path / "kernel"
    shutil.copytree(KERNEL, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = source_digest(copy)
    assert before == source_digest(KERNEL)
    bot = copy / "bots" / "heuristic.py"
    bot.write_text(bot.read_text() + "\n# an edit\n")
    edited = source_digest(copy)
    assert edited != before
    (copy / "bots" / "newfamily.py").write_text("BASE = 'heuristic'\n")
    assert source_digest(copy) not in (before, edited)
