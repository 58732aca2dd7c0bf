"""agrad graph --format html and svg: a self-contained page and a static picture.

The page's behaviour in a real browser is tested in test_graph_browser.py;
here: what the page is made of (no URL, nothing loaded, the policy), the
graph data it carries, escaping of everything a user wrote, ``-o FILE``.
"""

from __future__ import annotations

import json
import re
import time
import xml.etree.ElementTree as ET

import pytest

import agrad
from agrad.render import htmlview
from agrad.render.graphmodel import GraphModel

from .conftest import SEED, agrad as run

PAYLOAD = "</script><img src=x onerror=window.agradInjected=1><!--"
#: the payload in a string, a comment and a leaf's name
EVIL = (
    f"d = {{{PAYLOAD!r}: tensor([1.0, 2.0], requires_grad=True)}}\n"
    "x = d[list(d)[0]] * 1\n"
    f"x += 1  # {PAYLOAD}\n"
    f"loss = (x * len({PAYLOAD!r})).sum()\n"
)


def page_json(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="agrad-data">(.*?)</script>', page, re.S)
    assert m, "no data block"
    return json.loads(m.group(1))


def test_seed_page_is_self_contained(in_repo):
    r = run("graph", SEED, "--format", "html")
    assert r.code == 0
    page = r.stdout
    assert page.startswith("<!DOCTYPE html>")
    assert page.rstrip().endswith("</html>")
    # nothing is loaded from anywhere: no src or href attribute at all, no url(), no @import
    assert not re.search(r"\b(src|href)\s*=", page, re.I)
    assert "url(" not in page and "@import" not in page
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page).group(1)
    assert "default-src 'none'" in csp and "'unsafe-inline'" not in csp
    assert page.isascii()
    data = page_json(page)
    assert data["n"] == 8 and data["target"] == "loss"
    names = [data["strs"][data["descs"][d][0]] for d in data["node"]]
    assert names[0] == "MeanBackward0" and names.count("AccumulateGrad") == 3
    # the gradients of --grads and the saved tensors of --saved come with every page
    assert data["grad"][0] == 1
    assert any(data["saved"][data["descs"][d][5]] for d in data["node"])


def test_csp_hashes_match_the_inline_blocks(in_repo):
    import base64
    import hashlib
    page = run("graph", SEED, "--format", "html").stdout
    csp = re.search(r'content="(default-src[^"]+)"', page).group(1)
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    script = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(script) == 1

    def sha(text):
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    assert f"style-src {sha(style)}" in csp
    assert f"script-src {sha(script[0])}" in csp


def test_page_data_matches_the_graph():
    code = ("x = tensor([1.0, 2.0], requires_grad=True)\nw = tensor(0.5, requires_grad=True)\n"
            "y = x\nfor i in range(50):\n    y = tanh(sin(y) * w + 0.1)\nloss = y.sum()\n")
    obj = run("graph", "-", "--format", "json", "--expand", input=code).json()
    data = page_json(run("graph", "-", "--format", "html", input=code).stdout)
    n = data["n"]
    assert n == len(obj["nodes"]) == 203
    # inputs: per node, its descriptor's slots and the id differences, in next_functions order
    edges, k = [], 0
    for i in range(n):
        for slot in data["slots"][data["descs"][data["node"][i]][6]]:
            edges.append((i, i + data["to"][k], slot))
            k += 1
    assert k == len(data["to"])
    assert sorted(edges) == sorted((e["from"], e["to"], e["input"]) for e in obj["edges"])
    # the run: ×49 of 4 names, its members as id ranges
    (count, names, ranges), = data["groups"]
    assert count == 49 and [data["strs"][s] for s in names] == [
        "SinBackward0", "TanhBackward0", "AddBackward0", "MulBackward0"]
    assert ranges == [[5, 200]]
    # a loop's nodes share descriptors: far fewer than nodes
    assert len(data["descs"]) < 15
    # spans: [where, line, col, end]
    tanh = next(d for d in data["node"] if data["strs"][data["descs"][d][0]] == "TanhBackward0")
    where, line, col, end = data["locs"][data["descs"][tanh][3]]
    assert data["strs"][where] == "<stdin>:5:9" and (line, col, end) == (5, 9, 31)


def test_grad_tokens():
    g = {"shape": [], "norm": 0.5, "min": -0.5, "max": -0.5, "nonfinite": False}
    assert htmlview._grad_token(g, ()) == "-0.5"
    g = {"shape": [2], "norm": 2.8284271, "min": 2.0, "max": 2.0, "nonfinite": False}
    assert htmlview._grad_token(g, (2,)) == "[2.828,2,2]"
    g = {"shape": [2], "norm": "nan", "min": "nan", "max": "inf", "nonfinite": True}
    assert htmlview._grad_token(g, (2,)) == '["nan","nan","inf"]'
    g = {"shape": [3], "norm": 1.0, "min": 1.0, "max": 1.0, "nonfinite": False}
    assert htmlview._grad_token(g, (1,)) == '[1,1,1,"[3]"]'
    assert htmlview._grad_token(None, ()) == "null"


def test_user_text_cannot_inject_markup():
    r = run("graph", "-", "--format", "html", input=EVIL)
    assert r.code == 0, r.stderr
    page = r.stdout
    assert "<img" not in page.lower() and "<!--" not in page
    # the only </script> are the page's own two
    assert page.lower().count("</script") == 2
    data = page_json(page)
    # ... and the text itself is all there, unchanged, for the page to show as text
    texts = "\n".join(data["strs"])
    assert f"d[{PAYLOAD!r}]" in texts                 # a leaf's name
    assert "x += 1" in texts and "# </script>" not in texts  # a statement's text: no comment
    assert f"x * len({PAYLOAD!r})" in texts           # a string in a sub-expression
    # the title (the target's name) is escaped too
    assert "<title>agrad graph of loss</title>" in page


def test_svg_escapes_and_parses():
    r = run("graph", "-", "--format", "svg", input=EVIL)
    assert r.code == 0
    assert "<img" not in r.stdout.lower()
    root = ET.fromstring(r.stdout)
    texts = " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "AccumulateGrad" in texts and "<img" in texts  # shown as text, never as markup


def test_svg_of_seed(in_repo):
    r = run("graph", SEED, "--format", "svg")
    assert r.code == 0
    root = ET.fromstring(r.stdout)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    boxes = [g for g in root.iter(f"{ns}g")]
    assert len(boxes) == 8
    texts = ["".join(t.itertext()) for t in root.iter(f"{ns}text")]
    assert "#0 MeanBackward0" in texts and "loss = l4.mean()" in texts
    assert "w1  [] float32" in texts
    # l1 (#4) is used by #2 (tree edge) and #6: a dashed edge, one row down
    assert root.find(f"{ns}path[@class='x']") is not None
    assert not re.search(r"\b(href)\s*=", r.stdout)


def test_svg_collapses_runs_and_refs():
    code = ("x = tensor([1.0, 2.0], requires_grad=True)\nw = tensor(0.5, requires_grad=True)\n"
            "y = x\nfor i in range(300):\n    y = tanh(sin(y) * w + 0.1)\nloss = y.sum()\n")
    r = run("graph", "-", "--format", "svg", input=code)
    root = ET.fromstring(r.stdout)
    ns = "{http://www.w3.org/2000/svg}"
    assert len(list(root.iter(f"{ns}g"))) == 8
    texts = ["".join(t.itertext()) for t in root.iter(f"{ns}text")]
    assert "×299 repeats of 4 nodes" in texts
    assert "[SinBackward0 → TanhBackward0" in texts and "→ AddBackward0 → MulBackward0]" in texts
    titles = ["".join(t.itertext()) for t in root.iter(f"{ns}title")]
    assert any(t.startswith("×299 [SinBackward0 → TanhBackward0 → AddBackward0 → MulBackward0]\n#5–#1200")
               for t in titles)  # uncut
    assert "↑#4" in texts  # the run's MulBackward0 nodes take w (#4): a reference, not an edge


def test_output_file(tmp_path, in_repo):
    out = tmp_path / "g.html"
    r = run("graph", SEED, "-o", out)
    assert r.code == 0 and r.stdout == ""
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and page_json(page)["n"] == 8  # .html: --format html
    svg = tmp_path / "g.svg"
    assert run("graph", SEED, "-o", svg).code == 0
    assert ET.parse(svg).getroot().tag.endswith("svg")
    txt = tmp_path / "g.out"
    assert run("graph", SEED, "-o", txt).code == 0  # no known suffix: text, as when piped
    assert txt.read_text().startswith("#0 MeanBackward0")
    js = tmp_path / "g.data"
    assert run("graph", SEED, "-o", js, "--format", "json").code == 0
    assert json.loads(js.read_text())["nodes"][0]["name"] == "MeanBackward0"


def test_output_file_errors(tmp_path):
    r = run("graph", "-e", "x = tensor(1.0, requires_grad=True)", "-e", "y = x * 2",
            "-o", tmp_path / "missing" / "g.html")
    assert r.code == 1
    assert "cannot write" in r.stderr and "missing" in r.stderr
    # a script error writes no file
    bad = tmp_path / "bad.html"
    r = run("graph", "-e", "y = 1 / 0", "-o", bad)
    assert r.code == 1 and not bad.exists()
    assert "ZeroDivisionError" in r.stderr


def test_empty_graph_page():
    r = run("graph", "-e", "y = ones(2) * 2", "--format", "html")
    assert r.code == 0
    assert page_json(r.stdout)["n"] == 0
    r = run("graph", "-e", "y = ones(2) * 2", "--format", "svg")
    assert "no graph" in r.stdout
    ET.fromstring(r.stdout)


def test_hundred_thousand_node_chain_html_size_and_time():
    x = agrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = agrad.sin(y)
    y.backward()
    model = GraphModel(y.grad_fn)
    t0 = time.perf_counter()
    parts = []
    htmlview.render_html(model, "y", parts.append)
    elapsed = time.perf_counter() - t0
    page = "".join(parts)
    assert len(page.encode()) < 5_000_000
    data = page_json(page)
    assert data["n"] == 100_001 and len(data["to"]) == 100_000
    assert elapsed < 30  # bench/bench_graph_html.py holds the 2 s target; this only catches a blow-up
