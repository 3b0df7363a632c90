"""Reports that read at any size: figures split into small multiples and several images,
long tables excerpted, Markdown rendered in the HTML."""

import itertools
import re
import struct

import polars as pl
import pytest

from citadels_sim.reporting import document, experiment as report, facets, figures
from citadels_sim.studies import experiment

NAMED_SETS = ["first_game", "ambitious_aristocrats", "cunning_agents", "illustrious_emissaries",
           "devious_dignitaries", "vicious_nobles", "tenacious_delegates"]


def grid_rows(**axes) -> pl.DataFrame:
    """One row per combination of the label values (a cell), as the analysis tables have."""
    base = {"ruleset": ["2016"], "players": [4], "characters": ["base"],
            "districts": ["default"], "lineup": ["heuristic"], **axes}
    rows = [dict(zip(base, values)) for values in itertools.product(*base.values())]
    return pl.DataFrame([{**r, "cell": "-".join(map(str, r.values()))} for r in rows])


@pytest.mark.parametrize("axes", [
    {"players": [2, 3, 4, 5, 6, 7], "characters": NAMED_SETS, "lineup": ["heuristic", "mixed"]},
    {"players": [4, 5], "districts": [f"d{i}" for i in range(16)]},
    {"districts": [f"d{i}" for i in range(23)]},
    {"players": [4]},
])
def test_line_blocks_keep_every_panel_to_ten_lines(axes):
    cells = grid_rows(**axes)
    blocks = facets.line_blocks(cells)
    for block in blocks:
        assert block.frame["line"].n_unique() <= facets.MAX_LINES
        panels = block.frame["panel"].n_unique()
        assert panels <= block.ncols * facets.MAX_PANEL_ROWS
        # a line is one cell within its panel
        assert block.frame.group_by("panel", "line").len()["len"].max() == 1
    drawn = pl.concat([b.frame for b in blocks])
    assert set(drawn["cell"]) == set(cells["cell"])  # every cell drawn
    again = drawn.filter(pl.col("cell").is_duplicated())  # only the first line, repeated
    assert again["line"].n_unique() <= 1 and (again.is_empty() or len(blocks) > 1)


def test_heat_blocks_split_by_character_set_and_columns():
    cells = grid_rows(players=[2, 3, 4, 5, 6, 7], characters=NAMED_SETS,
                      lineup=["heuristic", "mixed"])
    blocks = facets.heat_blocks(cells)
    assert len(blocks) == len(NAMED_SETS)
    assert all(b.frame["characters"].n_unique() == 1 for b in blocks)
    assert blocks[0].frame["line"][0] == "2p heuristic"  # the set is in the title
    wide = facets.heat_blocks(grid_rows(players=[4, 5], districts=[f"d{i}" for i in range(16)]))
    assert [b.frame.height for b in wide] == [11, 11, 10]


def png_size(path) -> tuple[int, int]:
    return struct.unpack(">II", path.read_bytes()[16:24])


LAYOUT = """
title = "layout"
seed = 3
games = 240
chunk_size = 240
[grid]
ruleset = ["2016"]
players = [4, 5]
set = ["first_game", "cunning_agents", "vicious_nobles"]
lineup = ["heuristic", "mixed"]
[lineups]
mixed = ["heuristic", "builder", "aggressive", "random"]
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A 12-cell experiment's report, the entries of each figure's legends, and the
    directory it was written to."""
    tmp = tmp_path_factory.mktemp("layout")
    record = experiment.run(experiment.parse(LAYOUT, "layout"), tmp / "runs", progress=False)
    legends = []
    render = figures.render

    def counting(fig):
        legends.extend(len(leg.get_texts()) for leg in fig.legends
                       + [ax.get_legend() for ax in fig.axes if ax.get_legend()])
        return render(fig)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(figures, "render", counting)
        rep = report.build(record)
    return rep, legends, rep.save(tmp / "reports" / "layout")


def test_figures_are_small_and_their_legends_short(built):
    rep, legends, out = built
    pngs = sorted((out / "figures").glob("*.png"))
    assert len(pngs) == len(rep.figures) > 6  # split into several images
    assert max(max(png_size(p)) for p in pngs) <= 2000
    assert legends and max(legends) <= 10
    html = (out / "report.html").read_text()
    md = (out / "report.md").read_text()
    assert html.count("data:image/png;base64,") == len(pngs)
    assert all(f"](figures/{p.name})" in md for p in pngs)
    assert "character_heatmap_3.png" in md and "points" in md  # one per set, in points


def test_html_renders_markdown(built):
    _, _, out = built
    html = (out / "report.html").read_text()
    assert re.search(r"`[^`<>\n]+`", html) is None  # no literal backtick-quoted text
    assert "<code>citadels experiment experiments/layout.toml</code>" in html


def test_long_tables_are_excerpted_in_markdown_and_folded_in_html(built):
    _, _, out = built
    md = (out / "report.md").read_text()
    runs = [len(list(g)) for table, g in itertools.groupby(md.splitlines(),
                                                           lambda line: line.startswith("|"))
            if table]
    assert max(runs) <= document.MAX_ROWS + 2  # header and rule
    assert "[tables/characters.csv](tables/characters.csv)" in md
    html = (out / "report.html").read_text()
    assert "<details><summary>All " in html
    characters = pl.read_csv(out / "tables" / "characters.csv")
    assert characters.height > document.MAX_ROWS


def test_one_table_maps_each_result_to_its_report(tmp_path):
    """Every report kind (a module with ``write``) is in the dispatch table, under the
    result type its ``write`` takes; anything else is refused before a file is written."""
    import importlib
    import inspect
    import pkgutil
    from typing import get_type_hints

    from citadels_sim import reporting
    kinds = [importlib.import_module(f"citadels_sim.reporting.{m.name}")
             for m in pkgutil.iter_modules(reporting.__path__)]
    writers = {get_type_hints(k.write)[next(iter(inspect.signature(k.write).parameters))]: k
               for k in kinds if hasattr(k, "write")}
    assert writers == reporting.KINDS
    with pytest.raises(TypeError, match="no report for a str; there are reports of RunRecord"):
        reporting.write("a", tmp_path / "rep")
    assert not (tmp_path / "rep").exists()
