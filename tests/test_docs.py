"""The documentation against the code: the replay events page lists every event the kernel
logs, every rule citation in the package lands on a heading of docs/rules.md, and the
README files' links point at files that exist.  (``mkdocs build --strict`` in CI checks the
links inside docs/.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citadels_sim.kernel.log import EVENTS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES = (DOCS / "rules.md").read_text(encoding="utf-8")
HEADINGS = [m.group(2).strip() for m in re.finditer(r"^(#+) (.+)$", RULES, re.MULTILINE)]
#: a section citation such as §2.5.3 or §3 Witch
SECTION = re.compile(r"§(\d+(?:\.\d+)*)(?: ([A-Z][a-z]+))?")
#: a decision citation such as D12 or K3
DECISION = re.compile(r"\b([DK]\d{1,2})\b")
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")


def event_rows() -> dict[str, set[str]]:
    """Event type -> the fields its row in docs/replay-events.md names."""
    rows = {}
    text = (DOCS / "replay-events.md").read_text(encoding="utf-8")
    for m in re.finditer(r"^\| `(\w+)` \|([^|]*)\|", text, re.MULTILINE):
        rows[m.group(1)] = set(re.findall(r"`(\w+)`", m.group(2)))
    return rows


def test_replay_events_page_lists_every_event_and_field():
    rows = event_rows()
    assert set(rows) == {name for name, _ in EVENTS}
    for name, fields in EVENTS:
        assert set(fields) <= rows[name], name


def section_exists(number: str, name: str | None) -> bool:
    """Is there a heading for section ``number`` (and, in §3, a character ``name``)?"""
    if not any(re.match(rf"{re.escape(number)}\.?( |$)", h) for h in HEADINGS):
        return False
    return name is None or number != "3" or name in HEADINGS


def package_texts(*folders: str) -> list[tuple[Path, str]]:
    out = []
    for folder in folders:
        for path in sorted((ROOT / "citadels_sim" / folder).rglob("*")):
            if path.suffix in (".py", ".toml"):
                out.append((path, path.read_text(encoding="utf-8")))
    return out


def test_every_decision_has_its_heading():
    wanted = {f"D{i}" for i in range(1, 52)} | {f"K{i}" for i in range(1, 19)}
    assert wanted <= set(HEADINGS)


@pytest.mark.parametrize("path, text", package_texts("."), ids=lambda x: getattr(x, "name", ""))
def test_section_citations_land_on_headings(path, text):
    bad = [m.group(0) for m in SECTION.finditer(text) if not section_exists(*m.groups())]
    assert not bad, f"{path.relative_to(ROOT)} cites sections docs/rules.md lacks: {bad}"


@pytest.mark.parametrize("path, text", package_texts("kernel", "game"),
                         ids=lambda x: getattr(x, "name", ""))
def test_decision_citations_land_on_headings(path, text):
    bad = sorted(set(DECISION.findall(text)) - set(HEADINGS))
    assert not bad, f"{path.relative_to(ROOT)} cites decisions docs/rules.md lacks: {bad}"


@pytest.mark.parametrize("readme", ["README.md", "experiments/README.md", "reports/README.md",
                                    "CHANGELOG.md"])
def test_readme_links_point_at_files(readme):
    page = ROOT / readme
    links = [t for t in LINK.findall(page.read_text(encoding="utf-8"))
             if not re.match(r"[a-z]+:", t)]
    assert links or readme == "CHANGELOG.md"
    missing = [t for t in links if not (page.parent / t).exists()]
    assert not missing, f"{readme} links to missing files: {missing}"


def test_the_house_rules_page_lists_every_parameter_as_the_code_has_it():
    """docs/house_rules.md's table: one row per parameter, with its meaning, default and
    range as game/house_rules.py declares them."""
    from citadels_sim.game.house_rules import PARAMETERS
    text = (DOCS / "house_rules.md").read_text(encoding="utf-8")
    rows = {m[0]: m[1:] for m in re.findall(
        r"^\| `(\w+)` \| ([^|\n]*) \| ([^|\n]*) \| ([^|\n]*) \|", text, re.M)}
    assert set(rows) == set(PARAMETERS)
    for name, p in PARAMETERS.items():
        meaning, default, allowed = rows[name]
        assert p.meaning.startswith(meaning), name
        if p.default is not None:
            assert default.rstrip("%") == str(p.default), name
        assert allowed.startswith(f"{p.low}-{p.high}"), name
