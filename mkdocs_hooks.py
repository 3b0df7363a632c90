"""mkdocs hook: the shipped reports, the experiment files and the changelog join the site.

``citadels experiment`` writes its reports to ``reports/NAME/`` and the experiment files live
in ``experiments/``, beside the documentation rather than in ``docs/``.  This hook adds those
files to the site under the same paths (``reports/base_balance/report.md``,
``experiments/base_balance.toml``) and ``CHANGELOG.md`` at the top, so a page links them
like any page of the site and ``mkdocs build --strict`` fails on a link to a report that is
not there.  A report's ``report.md`` becomes a page; its HTML, figures, tables and metadata
are copied as they are.  A report links its folder of tables (``[tables/](tables/)``),
which GitHub lists but a static site cannot: the hook writes that folder an ``index.md``
listing its files and points the link there.  The folders' own README.md files (GitHub's
view of them) stay out: ``docs/reports.md`` and ``docs/experiments.md`` are the site's.
The docstrings name objects with Sphinx roles (":func:" before a name), which mkdocstrings
prints as they are; the hook drops the role and keeps the code.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

ROOT = Path(__file__).parent
FOLDERS = ("reports", "experiments")
FILES = ("CHANGELOG.md",)
#: a link to a folder beside the page, as reports write it: [tables/](tables/)
FOLDER_LINK = re.compile(r"\]\(([\w.-]+)/\)")
#: a link into docs/ from a file at the top of the checkout, as in [D44](docs/rules.md#d44)
DOCS_LINK = re.compile(r"\]\(docs/")
#: a Sphinx role before rendered code, as in :func:<code>simulate</code>
ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc|obj):(?=<code>)")


def _file(path: Path, config: MkDocsConfig) -> File:
    return File(path.relative_to(ROOT).as_posix(), src_dir=str(ROOT),
                dest_dir=config.site_dir, use_directory_urls=config.use_directory_urls)


def _listing(folder: Path, config: MkDocsConfig) -> File:
    """A generated ``index.md`` linking every file of a report's ``folder``."""
    items = "\n".join(f"- [{p.name}]({p.name})" for p in sorted(folder.iterdir()) if p.is_file())
    uri = (folder.relative_to(ROOT) / "index.md").as_posix()
    return File.generated(config, uri, content=f"# {folder.parent.name}: {folder.name}\n\n"
                                               f"{items}\n")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add every file of :data:`FOLDERS` (their README.md files aside), :data:`FILES`, and
    a listing of each folder a report links."""
    paths = [ROOT / name for name in FILES]
    for folder in FOLDERS:
        paths += sorted(p for p in (ROOT / folder).rglob("*")
                        if p.is_file() and p.name != "README.md" and "__pycache__" not in p.parts)
    for path in paths:
        files.append(_file(path, config))
        if path.name == "report.md":
            for name in FOLDER_LINK.findall(path.read_text(encoding="utf-8")):
                if (path.parent / name).is_dir():
                    files.append(_listing(path.parent / name, config))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """In a report, point each link to a folder at the folder's listing; in the changelog,
    a link into ``docs/`` (right on GitHub, where it sits beside that folder) at the page,
    which the site serves from its root."""
    if page.file.src_uri in FILES:
        return DOCS_LINK.sub("](", markdown)
    if not page.file.src_uri.endswith("/report.md"):
        return markdown
    return FOLDER_LINK.sub(r"](\1/index.md)", markdown)


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Drop the Sphinx roles mkdocstrings leaves before the code of an object's name."""
    return ROLE.sub("", html)
