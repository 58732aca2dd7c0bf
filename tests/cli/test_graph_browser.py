"""The HTML graph page in a real headless browser (Debian's chromium package).

Driven over the DevTools protocol (``tools/chromium.py``: a pipe, no
dependency).  Skipped, saying why, when no Chromium is installed
(``.ci/run`` installs it).  The page reports its own timings: first paint
(from the start of navigation until the frame after the first drawing) and
each expansion of a run (from the click until the frame after it is drawn).
Timings on a shared machine vary: each is taken up to three times and the
best must meet the target.
"""

from __future__ import annotations

import importlib.util
import re
import sys

import pytest

from .conftest import REPO, SEED, agrad as run

_spec = importlib.util.spec_from_file_location("agrad_tools_chromium", REPO / "tools" / "chromium.py")
chromium = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = chromium
_spec.loader.exec_module(chromium)

pytestmark = pytest.mark.skipif(
    chromium.Browser.find() is None,
    reason="no Chromium browser installed (apt-get install chromium; .ci/run installs it): "
           "the HTML page's browser test cannot run")

GRAPH_10K = ("x = tensor([1.0, 2.0], requires_grad=True)\nw = tensor(0.5, requires_grad=True)\n"
             "y = x\nfor i in range(2500):\n    y = tanh(sin(y) * w + 0.1)\nloss = y.sum()\n")
FIRST_PAINT_MS, EXPAND_MS = 3000, 500
READY = "document.documentElement.dataset.firstPaintMs"


@pytest.fixture(scope="module")
def browser():
    b = chromium.Browser()
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(autouse=True)
def no_page_errors(browser):
    """No uncaught JavaScript error, whatever the test did on the page."""
    before = len(browser.errors())
    yield
    assert browser.errors()[before:] == []


@pytest.fixture(scope="module")
def page_10k(tmp_path_factory):
    path = tmp_path_factory.mktemp("html") / "graph10k.html"
    r = run("graph", "-", "-o", path, input=GRAPH_10K)
    assert r.code == 0, r.stderr
    return path


def _open(browser, path, width=1400, height=900):
    page = browser.open(path.as_uri(), width, height)
    page.wait_for(READY)
    assert not browser.errors()
    return page


def count(page, selector) -> int:
    return page.eval(f"document.querySelectorAll({selector!r}).length")


def test_seed_page_renders(browser, tmp_path):
    path = tmp_path / "seed.html"
    assert run("graph", SEED, "-o", path).code == 0
    page = _open(browser, path)
    assert count(page, ".n") == 8
    titles = page.eval("[...document.querySelectorAll('.n .t')].map(e => e.textContent)")
    assert "#0 MeanBackward0" in titles and "#5 AccumulateGrad" in titles
    # hover shows a node's details: outputs, source span, saved tensors, gradient
    page.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 0, "y": 0})
    page.eval("document.querySelector('.n[data-e=\"4\"]').scrollIntoView()")
    page.click_selector('.n[data-e="4"]')
    panel = page.eval("document.getElementById('panel').innerText")
    assert "#4 MulBackward0" in panel
    assert "l1 = input_data * w1" in panel and "line 12, columns 6" in panel
    assert "self" in panel and "version 0" in panel  # saved tensors
    assert re.search(r"norm\s+14\b", panel)  # the gradient that reached it
    page.screenshot(tmp_path / "seed.png")
    assert (tmp_path / "seed.png").stat().st_size > 1000


def test_ten_thousand_nodes_first_paint_and_expand(browser, page_10k, tmp_path):
    paints = []
    for _ in range(3):
        page = _open(browser, page_10k)
        paints.append(float(page.eval(READY)))
        if paints[-1] <= FIRST_PAINT_MS:
            break
    assert min(paints) <= FIRST_PAINT_MS, f"first paint took {paints} ms (target {FIRST_PAINT_MS})"
    assert page.eval("JSON.parse(document.getElementById('agrad-data').textContent).n") == 10003
    # the 9,996 nodes of the loop are one collapsed box; the DOM holds only what is shown
    assert count(page, ".n.grp") == 1
    assert count(page, ".n") == 8
    page.screenshot(tmp_path / "collapsed.png")
    expands = []
    for attempt in range(3):
        page.click_selector(".n.grp")  # a real click on the collapsed run
        page.wait_for(f"agradPage.timings.expand.length > {attempt}")
        expands.append(page.eval(f"agradPage.timings.expand[{attempt}]"))
        assert count(page, ".n.grp") == 0
        members = count(page, ".n.member")
        assert members > 0
        # expanded: 10,003 boxes laid out, DOM elements only for those near the visible part
        assert page.eval("document.getElementById('title').textContent").endswith("10,003 boxes shown")
        assert count(page, ".n") < 200
        if min(expands) <= EXPAND_MS:
            break
        page.click_selector(".n.member .r")  # "collapse ×2499" on the run's first node
        page.wait_for("document.querySelectorAll('.n.grp').length === 1")
    assert min(expands) <= EXPAND_MS, f"expanding took {expands} ms (target {EXPAND_MS})"
    shot = tmp_path / "expanded.png"
    page.screenshot(shot)
    assert shot.stat().st_size > 1000
    print(f"first paint {paints} ms, expand {expands} ms, screenshots in {tmp_path}")


def test_search_reveals_a_node_inside_a_run(browser, page_10k):
    page = _open(browser, page_10k)
    page.click_selector("#search")
    page.type("#5000")
    page.key("Enter", keycode=13, text="\r")
    page.wait_for("document.querySelector('.n.sel') !== null")
    assert page.eval("document.querySelector('.n.sel .t').textContent").startswith("#5000 ")
    assert count(page, ".n.grp") == 0  # the run was opened to show it
    panel = page.eval("document.getElementById('panel').innerText")
    assert "#5000" in panel and "repeated run" in panel.lower()
    # search by name: every SinBackward0 (2,500 of them) is a match
    page.eval("(() => { const s = document.getElementById('search'); s.value = '';"
              " s.dispatchEvent(new Event('input')); })()")
    page.click_selector("#search")
    page.type("sinbackward")
    page.wait_for("document.getElementById('hits').textContent.endsWith('matches')", timeout=10)
    assert page.eval("document.getElementById('hits').textContent") == "2,500 matches"
    assert count(page, "#results a") == 100  # the first hundred, listed to click


def test_fold_and_unfold_a_subtree(browser, page_10k):
    page = _open(browser, page_10k)
    page.click_selector('.n[data-e="3"] .tg')  # fold MulBackward0 #3: its inputs go
    page.wait_for("document.querySelectorAll('.n').length === 4")
    assert page.eval("document.querySelector('.n[data-e=\"3\"] .tg').textContent") == "+9,999"
    page.click_selector('.n[data-e="3"] .tg')
    page.wait_for("document.querySelectorAll('.n').length === 8")


def test_user_text_is_shown_as_text(browser, tmp_path):
    from .test_graph_html import EVIL, PAYLOAD
    path = tmp_path / "evil.html"
    assert run("graph", "-", "-o", path, input=EVIL).code == 0
    page = _open(browser, path)
    assert count(page, "img") == 0
    assert page.eval("window.agradInjected === undefined")
    text = page.eval("document.getElementById('canvas').innerText")
    assert PAYLOAD in text  # the leaf's name and the source text, as text
    svg = tmp_path / "evil.svg"
    assert run("graph", "-", "-o", svg, input=EVIL).code == 0
    page = browser.open(svg.as_uri(), 800, 600)
    page.wait_for("document.querySelector('svg') !== null")
    assert count(page, "img") == 0
