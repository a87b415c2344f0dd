"""The HTML report in a real browser: headless Chromium (Debian's `chromium` package) driven by
playwright. Opens the index, follows a link to a file page, checks that the side-by-side view
and an inline diagnostic render, and saves a screenshot under the test's tmp_path.

Needs `/usr/bin/chromium` (or $NP2REF_CHROMIUM) and the `playwright` package (the
`report-test` extra); `.ci/run` installs both. Skipped with the reason when either is missing.
"""

from __future__ import annotations

import os
import shutil
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT
from np2ref.report import collect, html

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed "
                               "(pip install '.[report-test]')")

CHROMIUM = os.environ.get("NP2REF_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set NP2REF_CHROMIUM)",
                allow_module_level=True)

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

REFUSED = textwrap.dedent('''\
    import sys

    import numpy as np


    def relax(u, tol):
        while np.abs(u).max() > tol:
            u = u[1:]
            u[0] *= 0.5


    def sweep(u, tol):
        relax(u, tol)
        u[1:-1] = 0.5 * (u[2:] + u[:-2])


    def scale(u, k):
        u *= k


    def show(u):
        print(u.sum(), file=sys.stderr)
    ''')


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser_codebase")
    shutil.copy(ROOT / "corpus" / "jacobi_tolerance.py", root / "jacobi_tolerance.py")
    (root / "solver.py").write_text(REFUSED)
    report = collect.collect([str(root)])
    return html.write(report, root / "site")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except Exception as exc:  # a browser that cannot start here is an environment gap
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {exc}")
        yield b
        b.close()


def _visible_box(locator):
    locator.wait_for(state="visible")
    box = locator.bounding_box()
    assert box is not None and box["width"] > 50 and box["height"] > 10, box
    return box


def test_index_link_to_side_by_side_with_inline_diagnostic(site, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(site.as_uri())
    assert page.title() == "np2ref readiness report"
    _visible_box(page.locator(".totals"))
    page.select_option("#code-filter", "NPR011")  # the filter by code hides files without it
    assert not page.get_by_role("link", name="jacobi_tolerance.py").is_visible()
    page.get_by_role("link", name="solver.py").first.click()
    page.wait_for_load_state()
    assert "solver" in page.url and page.url.endswith("?code=NPR011")  # the filter travels along
    assert page.locator("#code-filter").input_value() == "NPR011"
    host_note = page.locator("tr.diag", has_text="NPR021")
    assert not host_note.is_visible()
    page.select_option("#code-filter", "")
    assert host_note.is_visible()

    table = page.locator("table.sbs")
    _visible_box(table)
    headers = table.locator("thead th")
    left, right = headers.nth(0).bounding_box(), headers.nth(1).bounding_box()
    assert right["x"] >= left["x"] + left["width"] - 1  # the converted column beside the original
    assert abs(right["y"] - left["y"]) < 2

    refused = page.locator("tr#L7")  # the `while` line: highlighted, its diagnostic under it
    assert "bad" in refused.get_attribute("class")
    assert refused.locator("mark.span").inner_text().startswith("while")
    box = page.locator("tr.diag .diagbox").first
    diag = _visible_box(box)
    assert "NPR011" in box.inner_text() and "np2ref explain NPR011" in box.inner_text()
    line = _visible_box(refused)
    assert line["y"] + line["height"] <= diag["y"] + 1  # inline, right under the line

    # a converted statement sits on the row of its source line
    row = page.locator("tr#L18")
    assert row.locator("td.src").nth(0).inner_text().strip() == "u *= k"
    assert row.locator("td.src").nth(1).inner_text().strip() == "u = npr_iop(u, '*', k)"

    shot = tmp_path / "file_page.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    page.close()
