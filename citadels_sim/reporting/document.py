"""The document every report is: a title, headings, text (Markdown), tables and figures,
rendered to report.md and a self-contained report.html (figures embedded as base64 PNG) and
saved with the figures as PNG, the tables as CSV and metadata.json."""

from __future__ import annotations

import base64
import html
import json
from dataclasses import dataclass, field
from pathlib import Path

import markdown
import numpy as np
import polars as pl
from matplotlib.figure import Figure

from . import figures

#: a table longer than this shows only an excerpt in report.md (all its rows folded in the
#: HTML, and in its CSV)
MAX_ROWS = 40
EXCERPT_ROWS = 12


@dataclass
class Table:
    """A table as shown; a long one (over :data:`MAX_ROWS` rows) is excerpted: its
    :data:`EXCERPT_ROWS` rows of largest ``rank`` (``what`` says which they are), or its
    first rows without a rank, and a note linking the CSV ``csv`` under tables/."""

    frame: pl.DataFrame
    csv: str | None = None
    rank: np.ndarray | None = None
    what: str = ""

    @property
    def long(self) -> bool:
        return self.frame.height > MAX_ROWS

    def excerpt(self) -> pl.DataFrame:
        """The rows report.md shows."""
        if not self.long:
            return self.frame
        if self.rank is None:
            return self.frame.head(EXCERPT_ROWS)
        order = np.argsort(-np.nan_to_num(self.rank, nan=-np.inf), kind="stable")
        return self.frame[order[:EXCERPT_ROWS].tolist()]

    def note(self, also: str) -> str:
        """What the excerpt is and where all the rows are (Markdown); ``also``: where else
        they are."""
        shown = (f"the {EXCERPT_ROWS} {self.what}" if self.rank is not None
                 else f"the first {EXCERPT_ROWS}")
        where = f"tables/{self.csv}.csv" if self.csv else "tables/"
        return (f"*{self.frame.height} rows; shown: {shown}. All of them: "
                f"[{where}]({where}), and {also}.*")


@dataclass
class Report:
    """A report as a list of blocks, rendered to Markdown and HTML alike."""

    title: str
    blocks: list[tuple] = field(default_factory=list)
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    figures: dict[str, figures.Image] = field(default_factory=dict)
    meta: dict = field(default_factory=dict)

    def heading(self, text: str) -> None:
        self.blocks.append(("h2", text))

    def text(self, text: str) -> None:
        self.blocks.append(("p", text))

    def table(self, frame: pl.DataFrame, csv: str | None = None,
              rank: np.ndarray | pl.Series | None = None, what: str = "") -> None:
        """A table; see :class:`Table` for how a long one is excerpted."""
        self.blocks.append(("table", Table(frame, csv, None if rank is None
                                           else np.asarray(rank, float), what)))

    def figure(self, name: str, figs: Figure | list[Figure], caption: str) -> None:
        """A figure, or figures under one caption, rendered now, saved as ``name.png`` or
        ``name_1.png``, ..."""
        figs = [figs] if isinstance(figs, Figure) else figs
        names = [name] if len(figs) == 1 else [f"{name}_{i + 1}" for i in range(len(figs))]
        self.figures.update(zip(names, map(figures.render, figs)))
        self.blocks.append(("figure", names, caption))

    def save(self, path: str | Path) -> Path:
        """Write the report's files into directory ``path`` (report.md, report.html,
        figures/, tables/, metadata.json); returns it."""
        path = Path(path)
        (path / "figures").mkdir(parents=True, exist_ok=True)
        (path / "tables").mkdir(exist_ok=True)
        for old in (path / "figures").glob("*.png"):  # a figure split differently last time
            old.unlink()
        images = {}
        for name, image in self.figures.items():
            (path / "figures" / f"{name}.png").write_bytes(image.png)
            images[name] = (image.title, base64.b64encode(image.png).decode())
        for name, frame in self.tables.items():
            frame.write_csv(path / "tables" / f"{name}.csv")
        (path / "metadata.json").write_text(json.dumps(self.meta, indent=2, default=str))
        blocks = [b for b in self.blocks if b[0] != "p" or b[1]] + [("p", FOOTER)]
        md = [f"# {self.title}"] + [_md_block(b, images) for b in blocks]
        (path / "report.md").write_text("\n\n".join(md) + "\n")
        body = "\n".join(_html_block(b, images) for b in blocks)
        (path / "report.html").write_text(HTML.format(title=html.escape(self.title), body=body))
        return path


# ---- formatting -------------------------------------------------------------------------
def with_ci(frame: pl.DataFrame, *names: str, digits: int = 3) -> pl.DataFrame:
    """Replace each rate column ``name`` (and its ``_low``/``_high``) by one text column
    "rate [low, high]"."""
    def fmt(name):
        return pl.format("{} [{}, {}]", *[pl.col(c).round(digits).cast(pl.String)
                                          for c in (name, f"{name}_low", f"{name}_high")])
    return frame.with_columns(fmt(n).alias(n) for n in names).drop(
        [f"{n}_{s}" for n in names for s in ("low", "high")])


def _cell_text(value) -> str:
    if isinstance(value, float):
        return "" if value != value else (f"{value:.3g}" if abs(value) < 1e-3 and value
                                          else f"{value:.3f}".rstrip("0").rstrip("."))
    return str(value)


def markdown_table(frame: pl.DataFrame) -> str:
    """A GitHub-flavoured Markdown table."""
    lines = ["| " + " | ".join(frame.columns) + " |",
             "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(_cell_text(v).replace("|", "\\|") for v in row) + " |"
              for row in frame.iter_rows()]
    return "\n".join(lines)


def html_table(frame: pl.DataFrame) -> str:
    """An HTML table."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in frame.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_cell_text(v))}</td>" for v in row)
                   + "</tr>" for row in frame.iter_rows())
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


FOOTER = ("Tables behind the figures: [tables/](tables/); run metadata: "
          "[metadata.json](metadata.json).")


def md_html(text: str, inline: bool = False) -> str:
    """Markdown text as HTML (``inline``: without the enclosing paragraph)."""
    out = markdown.markdown(text)
    return out[3:-4] if inline and out.startswith("<p>") and out.endswith("</p>") else out


def _md_block(block: tuple, images: dict[str, tuple[str, str]]) -> str:
    """One block of report.md."""
    kind = block[0]
    if kind == "h2":
        return f"## {block[1]}"
    if kind == "p":
        return block[1]
    if kind == "table":
        tab = block[1]
        note = f"\n\n{tab.note('in report.html')}" if tab.long else ""
        return markdown_table(tab.excerpt()) + note
    names, caption = block[1], block[2]
    shown = [f"![{images[n][0]}](figures/{n}.png)" for n in names]
    return "\n\n".join(shown + [f"*{caption}*"])


def _html_block(block: tuple, images: dict[str, tuple[str, str]]) -> str:
    """One block of report.html: text as Markdown; a long table's excerpt, then all its
    rows folded."""
    kind = block[0]
    if kind == "h2":
        return f"<h2>{md_html(block[1], inline=True)}</h2>"
    if kind == "p":
        return md_html(block[1])
    if kind == "table":
        tab = block[1]
        if not tab.long:
            return html_table(tab.frame)
        return (html_table(tab.excerpt()) + md_html(tab.note("below"))
                + f"<details><summary>All {tab.frame.height} rows</summary>"
                + html_table(tab.frame) + "</details>")
    names, caption = block[1], block[2]
    imgs = "".join(f'<img alt="{html.escape(images[n][0])}" '
                   f'src="data:image/png;base64,{images[n][1]}">' for n in names)
    return f"<figure>{imgs}<figcaption>{md_html(caption, inline=True)}</figcaption></figure>"


HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
      color: #222; line-height: 1.45}}
table {{border-collapse: collapse; font-size: 0.85em; margin: 0.8em 0; display: block;
       overflow-x: auto}}
th, td {{border: 1px solid #ccc; padding: 3px 7px; text-align: right; white-space: nowrap}}
th:first-child, td:first-child {{text-align: left}}
th {{background: #f0f0f0}} tr:nth-child(even) td {{background: #fafafa}}
figure {{margin: 1em 0}} img {{max-width: 100%; display: block; margin: 0.5em 0}}
figcaption {{font-size: 0.9em; color: #555}} code {{font-size: 0.95em; background: #f3f3f3}}
details {{margin: 0.3em 0 1em}} summary {{cursor: pointer; color: #245}}
</style></head>
<body><h1>{title}</h1>
{body}
</body></html>
"""
