"""tools/kernel_profile.py: the perf map it writes names the kernel's compiled functions."""

import re
import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).parents[1] / "tools" / "kernel_profile.py"


def test_the_perf_map_covers_the_kernel_functions_without_overlap():
    out = subprocess.run([sys.executable, str(TOOL), "--map-only"], capture_output=True,
                         text=True, check=True).stdout
    count, path = re.search(r"(\d+) kernel functions mapped in (\S+)", out).groups()
    rows = [line.split(" ", 2) for line in Path(path).read_text().splitlines()]
    Path(path).unlink()
    spans = sorted((int(a, 16), int(n, 16), name) for a, n, name in rows)
    assert len(spans) == int(count) > 50
    names = {name for _, _, name in spans}
    assert {"kernel:run.play_games", "kernel:bots.reference.ref_pick",
            "kernel:draft._deal"} <= names
    assert all(size > 0 for _, size, _ in spans)
    assert all(a + n <= b for (a, n, _), (b, _, _) in zip(spans, spans[1:]))  # no overlap
