/* agrad graph page: layout, drawing of the visible part only, collapse and expand,
   search, details.  Written for this page; no library.  Every string from the graph
   goes onto the page with textContent, never as markup.  Kept ASCII (\u escapes). */
"use strict";
(function () {
  const T0 = performance.now();
  const D = JSON.parse(document.getElementById("agrad-data").textContent);
  const COL = 250, ROW = 96, BW = 226, BH = 66, PAD = 30, MARGIN = 500;
  const SVGNS = "http://www.w3.org/2000/svg";
  const ARROW = " \u2192 ", TIMES = "\u00d7", DASH = "\u2013", UP = "\u2191", DOWN = "\u2193";
  const S = D.strs, DE = D.descs, N = D.n, G = D.groups.length, E = N + G, nd = D.node;
  const commas = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");  // not toLocaleString: slow to load
  const timings = { firstPaint: null, expand: [] };
  window.agradPage = { timings: timings };

  // ---------------------------------------------------------------- the data
  const inStart = new Int32Array(N + 1), inTo = new Int32Array(D.to.length);
  for (let i = 0, k = 0; i <= N; i++) {
    inStart[i] = k;
    if (i === N) break;
    const c = D.slots[DE[nd[i]][6]].length;
    for (let j = 0; j < c; j++, k++) inTo[k] = i + D.to[k];
  }
  const memberOf = new Int32Array(N).fill(-1), gFirst = new Int32Array(G), gSize = new Int32Array(G);
  D.groups.forEach(function (g, gi) {
    let size = 0;
    for (const r of g[2]) { for (let i = r[0]; i <= r[1]; i++) memberOf[i] = gi; size += r[1] - r[0] + 1; }
    gFirst[gi] = g[2][0][0];
    gSize[gi] = size;
  });
  const name = (i) => S[DE[nd[i]][0]];
  const meta = (i) => S[DE[nd[i]][1]];
  const label = (i) => S[DE[nd[i]][2]];
  const loc = (i) => D.locs[DE[nd[i]][3]];
  const where = (i) => { const l = loc(i); return l ? S[l[0]] : ""; };
  const shortWhere = (i) => where(i).replace(/^.*\//, "");
  const vname = (i) => S[DE[nd[i]][4]];
  const leaf = (i) => DE[nd[i]][7] === 1;
  const groupTitle = (g) => TIMES + D.groups[g][0] + " [" + D.groups[g][1].map((s) => S[s]).join(ARROW) + "]";
  const groupRange = (g) => {
    const r = D.groups[g][2];
    return "#" + gFirst[g] + DASH + "#" + r[r.length - 1][1] + ", " + commas(gSize[g]) + " nodes";
  };
  function grad(i) {
    if (!D.grad) return undefined;
    const g = D.grad[i];
    if (g === null) return null;
    const o = Array.isArray(g) ? { norm: g[0], min: g[1], max: g[2], shape: g[3] || null }
      : { norm: typeof g === "number" ? Math.abs(g) : g, min: g, max: g, shape: null };
    o.nonfinite = [o.norm, o.min, o.max].some((v) => typeof v === "string");
    return o;
  }

  // ---------------------------------------------------------------- layout
  // Each shown end (a node, or a collapsed run: end N + g) hangs below the in-neighbour with
  // the smallest key (id; a run's first id), which always comes before it: a tree, laid out
  // top-down, leaves packed left to right, a parent centred over its first and last child.
  const open = new Uint8Array(G), fold = new Uint8Array(E);
  let L = null;
  const endOf = (i) => { const g = memberOf[i]; return g >= 0 && !open[g] ? N + g : i; };
  const keyOf = (e) => (e < N ? e : gFirst[e - N]);

  function layout() {
    const parent = new Int32Array(E).fill(-1), pkey = new Int32Array(E).fill(2147483647);
    for (let u = 0; u < N; u++) {
      const a = endOf(u), ka = keyOf(a);
      for (let q = inStart[u]; q < inStart[u + 1]; q++) {
        const b = endOf(inTo[q]);
        if (b !== a && ka < pkey[b] && ka < keyOf(b)) { parent[b] = a; pkey[b] = ka; }
      }
    }
    const root = N ? endOf(0) : -1, ord = [];
    for (let i = 0; i < N; i++) { const e = endOf(i); if (e === i || gFirst[e - N] === i) ord.push(e); }
    const cStart = new Int32Array(E + 1), kids = new Int32Array(ord.length);
    for (const e of ord) { if (e !== root && parent[e] < 0) parent[e] = root; if (parent[e] >= 0) cStart[parent[e] + 1]++; }
    for (let e = 0; e < E; e++) cStart[e + 1] += cStart[e];
    const at = cStart.slice(0, E);
    for (const e of ord) if (parent[e] >= 0) kids[at[parent[e]]++] = e;
    const depth = new Int32Array(E), rep = new Int32Array(E).fill(-1), hidden = new Int32Array(E), pre = [];
    const stack = root >= 0 ? [root] : [];
    while (stack.length) {
      const e = stack.pop();
      pre.push(e);
      rep[e] = e;
      if (fold[e]) {  // a folded subtree: its ends are shown by e
        const st = [];
        for (let q = cStart[e]; q < cStart[e + 1]; q++) st.push(kids[q]);
        let count = 0;
        while (st.length) {
          const h = st.pop();
          rep[h] = e;
          count += h < N ? 1 : gSize[h - N];
          for (let q = cStart[h]; q < cStart[h + 1]; q++) st.push(kids[q]);
        }
        hidden[e] = count;
        continue;
      }
      for (let q = cStart[e + 1] - 1; q >= cStart[e]; q--) { depth[kids[q]] = depth[e] + 1; stack.push(kids[q]); }
    }
    const x = new Float64Array(E), isEnd = (e) => fold[e] || cStart[e + 1] === cStart[e];
    let col = 0, maxDepth = 0;
    for (const e of pre) { if (isEnd(e)) x[e] = col++; if (depth[e] > maxDepth) maxDepth = depth[e]; }
    for (let p = pre.length - 1; p >= 0; p--) {
      const e = pre[p];
      if (!isEnd(e)) x[e] = (x[kids[cStart[e]]] + x[kids[cStart[e + 1] - 1]]) / 2;
    }
    const rows = [];
    for (let r = 0; r <= maxDepth; r++) rows.push([]);
    for (const e of pre) rows[depth[e]].push(e);  // pre-order: left to right within a row
    return { parent, cStart, kids, depth, rep, hidden, x, rows, root, count: pre.length,
      W: 2 * PAD + Math.max(col, 1) * COL - (COL - BW), H: 2 * PAD + rows.length * ROW - (ROW - BH),
      inputs: new Map() };
  }
  const px = (e) => PAD + L.x[e] * COL;
  const py = (e) => PAD + L.depth[e] * ROW;
  const shownKids = (e) => (fold[e] ? 0 : L.cStart[e + 1] - L.cStart[e]);

  // the shown ends an end takes input from (a run: its members' inputs from outside it)
  function endInputs(e) {
    let out = L.inputs.get(e);
    if (out) return out;
    out = [];
    const seen = new Set();
    const add = (u) => {
      for (let q = inStart[u]; q < inStart[u + 1]; q++) {
        const b = L.rep[endOf(inTo[q])];
        if (b >= 0 && b !== e && !seen.has(b)) { seen.add(b); out.push(b); }
      }
    };
    if (e < N) add(e);
    else for (const r of D.groups[e - N][2]) for (let i = r[0]; i <= r[1]; i++) add(i);
    L.inputs.set(e, out);
    return out;
  }
  // inputs that are not tree edges: a dashed line when a little below and near, else a reference chip
  function extraInputs(e) {
    const lines = [], refs = [];
    for (const b of endInputs(e)) {
      if (L.parent[b] === e && !fold[e]) continue;
      const dd = L.depth[b] - L.depth[e];
      (dd > 0 && dd <= 3 && Math.abs(L.x[b] - L.x[e]) <= 6 && !fold[e] ? lines : refs).push(b);
    }
    return { lines, refs };
  }

  // ---------------------------------------------------------------- drawing
  const $ = (id) => document.getElementById(id);
  const view = $("view"), canvas = $("canvas"), panel = $("panel"), search = $("search");
  const svg = document.createElementNS(SVGNS, "svg");
  svg.id = "edges";
  const solid = document.createElementNS(SVGNS, "path"), dashed = document.createElementNS(SVGNS, "path");
  dashed.setAttribute("class", "x");
  svg.appendChild(solid);
  svg.appendChild(dashed);
  canvas.appendChild(svg);
  let shown = new Map(), selected = -1, hits = null, hitAt = -1;
  const hitNode = new Uint8Array(N), hitGroup = new Uint8Array(G);

  function el(tag, cls, text) {
    const x = document.createElement(tag);
    if (cls) x.className = cls;
    if (text !== undefined) x.textContent = text;
    return x;
  }

  function nodeEl(e) {
    const box = el("div", "n");
    box.dataset.e = e;
    box.style.left = px(e) + "px";
    box.style.top = py(e) + "px";
    const t = el("div", "t"), w = el("div", "w");
    let m, s;
    if (e >= N) {
      const g = e - N;
      const names = D.groups[g][1].map((k) => S[k]);
      box.classList.add("grp");
      t.textContent = TIMES + D.groups[g][0] + " repeats of " + names.length + " node" + (names.length > 1 ? "s" : "");
      m = el("div", "m2", "[" + names.join(ARROW) + "]");
      s = null;
      w.textContent = groupRange(g);
      box.title = groupTitle(g) + "\n" + shortWhere(gFirst[g]) + "\nclick to expand";
    } else {
      t.appendChild(el("span", "id", "#" + e + " "));
      t.appendChild(document.createTextNode(name(e)));
      const gr = grad(e);
      if (leaf(e)) {
        box.classList.add("leaf");
        m = el("div", "m", vname(e) + "  " + meta(e));
        box.title = vname(e);
        s = el("div", "s", gr ? "grad norm=" + gr.norm : "leaf");
      } else {
        m = el("div", "m", meta(e));
        s = el("div", "s", label(e) || (vname(e) ? vname(e) + " = \u2026" : ""));
      }
      if (gr && gr.nonfinite) box.classList.add("nonfinite");
      const g = memberOf[e];
      if (g >= 0) {
        box.classList.add("member");
        if (gFirst[g] === e) {
          const c = el("span", "r", "collapse " + TIMES + D.groups[g][0]);
          c.dataset.cg = g;
          w.appendChild(c);
        }
      }
      w.appendChild(document.createTextNode(shortWhere(e)));
    }
    const refs = extraInputs(e).refs;
    for (let k = Math.min(refs.length, 3) - 1; k >= 0; k--) {
      const b = refs[k];
      const c = el("span", "r", (L.depth[b] <= L.depth[e] ? UP : DOWN) + "#" + keyOf(b));
      c.dataset.go = b;
      c.title = "input " + (b < N ? "#" + b + " " + name(b) : groupTitle(b - N));
      w.insertBefore(c, w.firstChild);
    }
    if (refs.length > 3) w.insertBefore(el("span", "r", "+" + (refs.length - 3)), w.firstChild);
    box.appendChild(t);
    box.appendChild(m);
    if (s) box.appendChild(s);
    box.appendChild(w);
    if (shownKids(e) || fold[e]) {
      const b = el("button", "tg", fold[e] ? "+" + commas(L.hidden[e]) : "\u2212");
      b.title = fold[e] ? "unfold this subtree" : "fold this subtree";
      b.type = "button";
      box.appendChild(b);
    }
    if (e === selected) box.classList.add("sel");
    if (e < N ? hitNode[e] : hitGroup[e - N]) box.classList.add("hit");
    return box;
  }

  const curve = (x1, y1, x2, y2) => {
    const ym = (y1 + y2) / 2;
    return "M" + x1 + "," + y1 + "C" + x1 + "," + ym + " " + x2 + "," + ym + " " + x2 + "," + y2;
  };

  function render() {
    const vx0 = view.scrollLeft - MARGIN, vx1 = view.scrollLeft + view.clientWidth + MARGIN;
    const vy0 = view.scrollTop - MARGIN, vy1 = view.scrollTop + view.clientHeight + MARGIN;
    const r0 = Math.max(0, Math.floor((vy0 - PAD - BH) / ROW));
    const r1 = Math.min(L.rows.length - 1, Math.floor((vy1 - PAD) / ROW));
    const want = [];
    for (let r = r0; r <= r1; r++) {
      const row = L.rows[r];
      let lo = 0, hi = row.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (px(row[mid]) + BW < vx0) lo = mid + 1; else hi = mid; }
      for (let j = lo; j < row.length && px(row[j]) <= vx1; j++) want.push(row[j]);
    }
    const keep = new Set(want);
    for (const [e, box] of shown) if (!keep.has(e)) { box.remove(); shown.delete(e); }
    const frag = document.createDocumentFragment();
    for (const e of want) if (!shown.has(e)) { const box = nodeEl(e); shown.set(e, box); frag.appendChild(box); }
    canvas.appendChild(frag);
    // edges: the tree's (from each shown end to its children and its parent), and short extra ones
    const a = [], b = [];
    for (const e of want) {
      const ex = px(e) + BW / 2, ey = py(e) + BH;
      if (!fold[e]) for (let q = L.cStart[e]; q < L.cStart[e + 1]; q++) {
        const c = L.kids[q];
        a.push(curve(ex, ey, px(c) + BW / 2, py(c)));
      }
      const p = L.parent[e];
      if (p >= 0 && !keep.has(p)) a.push(curve(px(p) + BW / 2, py(p) + BH, ex, py(e)));
      for (const t of extraInputs(e).lines) b.push(curve(ex, ey, px(t) + BW / 2, py(t)));
    }
    const sx = Math.max(0, vx0), sy = Math.max(0, vy0);
    const sw = Math.max(1, Math.min(L.W, vx1) - sx), sh = Math.max(1, Math.min(L.H, vy1) - sy);
    svg.style.left = sx + "px";
    svg.style.top = sy + "px";
    svg.setAttribute("width", sw);
    svg.setAttribute("height", sh);
    svg.setAttribute("viewBox", sx + " " + sy + " " + sw + " " + sh);
    solid.setAttribute("d", a.join(""));
    dashed.setAttribute("d", b.join(""));
  }

  // Lay out again, keeping `anchor` (an end before) where it was on screen, as `after` (an end now).
  function relayout(anchor, after) {
    let dx = 0, dy = 0;
    const keepAnchor = L && anchor >= 0 && L.rep[anchor] === anchor;
    if (keepAnchor) { dx = px(anchor) - view.scrollLeft; dy = py(anchor) - view.scrollTop; }
    for (const box of shown.values()) box.remove();
    shown = new Map();
    const t0 = performance.now();
    L = layout();
    timings.layout = performance.now() - t0;
    canvas.style.width = L.W + "px";
    canvas.style.height = L.H + "px";
    if (keepAnchor && after >= 0 && L.rep[after] >= 0) {
      const e = L.rep[after];
      view.scrollLeft = px(e) - dx;
      view.scrollTop = py(e) - dy;
    }
    const t1 = performance.now();
    render();
    timings.render = performance.now() - t1;
    title();
  }

  function scrollToEnd(e) {
    view.scrollLeft = px(e) + BW / 2 - view.clientWidth / 2;
    view.scrollTop = py(e) - Math.min(view.clientHeight / 3, 200);
    render();
  }

  // ---------------------------------------------------------------- actions
  function afterPaint(fn) { requestAnimationFrame(() => setTimeout(fn, 0)); }

  function setGroup(g, isOpen) {
    const t0 = performance.now();
    const anchor = isOpen ? N + g : gFirst[g];
    open[g] = isOpen ? 1 : 0;
    fold[N + g] = 0;
    relayout(anchor, isOpen ? gFirst[g] : N + g);
    if (isOpen) afterPaint(() => {
      const ms = performance.now() - t0;
      timings.expand.push(ms);
      document.documentElement.dataset.expandMs = ms.toFixed(1);
    });
  }

  function setAll(isOpen) {
    const root = L.root;
    open.fill(isOpen ? 1 : 0);
    relayout(root, 0);
  }

  function toggleFold(e) {
    fold[e] ^= 1;
    relayout(e, e < N ? e : gFirst[e - N]);
  }

  function select(e) {
    const old = shown.get(selected);
    if (old) old.classList.remove("sel");
    selected = e;
    const box = shown.get(e);
    if (box) box.classList.add("sel");
    details(e);
  }

  // show node `i` (an id): open its run, unfold what hides it, scroll to it, select it
  function reveal(i) {
    const g = memberOf[i];
    if (g >= 0 && !open[g]) { open[g] = 1; relayout(-1, -1); }
    let unfolded = false;
    for (let p = L.parent[i]; p >= 0; p = L.parent[p]) if (fold[p]) { fold[p] = 0; unfolded = true; }
    if (unfolded) relayout(-1, -1);
    scrollToEnd(i);
    select(i);
  }

  function goTo(e) {
    if (e < N) { reveal(e); return; }
    scrollToEnd(e);
    select(e);
  }

  // ---------------------------------------------------------------- details
  function row(table, key, value, cls) {
    const tr = el("tr");
    tr.appendChild(el("td", "", key));
    const td = el("td", cls || "");
    if (value instanceof Node) td.appendChild(value); else td.textContent = value;
    tr.appendChild(td);
    table.appendChild(tr);
  }
  function link(e, text) {
    const a = el("a", "", text);
    a.dataset.go = e;
    return a;
  }
  function nodeText(i) {
    if (i >= N) return groupTitle(i - N);
    return "#" + i + " " + name(i) + (leaf(i) ? " (" + vname(i) + ")" : label(i) ? "  " + label(i) : "");
  }
  let users = null;
  function usersOf(i) {
    if (!users) {
      users = Array.from({ length: N }, () => []);
      for (let u = 0; u < N; u++) for (let q = inStart[u]; q < inStart[u + 1]; q++) users[inTo[q]].push(u);
    }
    return users[i];
  }

  function details(e) {
    panel.textContent = "";
    if (e < 0 || e === undefined) { overview(); return; }
    if (e >= N) {
      const g = e - N;
      panel.appendChild(el("h2", "", groupTitle(g)));
      panel.appendChild(el("div", "hint", "a run of repeated structure, collapsed"));
      const tb = el("table");
      row(tb, "repeats", String(D.groups[g][0]));
      row(tb, "nodes", groupRange(g));
      row(tb, "source", where(gFirst[g]));
      panel.appendChild(tb);
      const b = el("button", "", "expand");
      b.dataset.open = g;
      panel.appendChild(b);
      return;
    }
    const i = e;
    panel.appendChild(el("h2", "", "#" + i + " " + name(i)));
    const tb = el("table");
    row(tb, "outputs", meta(i) || "(none recorded)");
    if (leaf(i)) row(tb, "leaf", vname(i));
    else if (vname(i)) row(tb, "variable", vname(i));
    const l = loc(i);
    if (l) {
      row(tb, "source", S[l[0]]);
      if (l[1] !== null) row(tb, "span", "line " + l[1] + ", columns " + l[2] + DASH + l[3]);
    }
    panel.appendChild(tb);
    if (label(i)) panel.appendChild(el("pre", "", label(i)));
    const g = memberOf[i];
    if (g >= 0) {
      panel.appendChild(el("h3", "", "repeated run"));
      panel.appendChild(el("div", "", groupTitle(g) + ", " + groupRange(g)));
      const b = el("button", "", open[g] ? "collapse the run" : "expand the run");
      b.dataset[open[g] ? "close" : "open"] = g;
      panel.appendChild(b);
    }
    panel.appendChild(el("h3", "", "gradient"));
    const gr = grad(i);
    if (gr === undefined) panel.appendChild(el("div", "hint", "not recorded"));
    else if (gr === null) panel.appendChild(el("div", "hint", "none arrived in the backward pass"));
    else {
      const t = el("table");
      row(t, "shape", gr.shape || (meta(i).split(" ")[0] || ""));
      row(t, "norm", String(gr.norm));
      row(t, "min", String(gr.min));
      row(t, "max", String(gr.max));
      if (gr.nonfinite) row(t, "", "NONFINITE", "bad");
      panel.appendChild(t);
    }
    const sv = D.saved[DE[nd[i]][5]];
    panel.appendChild(el("h3", "", "saved tensors"));
    if (!sv.length) panel.appendChild(el("div", "hint", "none"));
    else {
      const t = el("table");
      for (const s of sv) row(t, s[0], s[1] + "  version " + s[2] + (s[3] ? "  freed" : ""));
      panel.appendChild(t);
    }
    const slots = D.slots[DE[nd[i]][6]];
    if (slots.length) {
      panel.appendChild(el("h3", "", "inputs (next_functions)"));
      const t = el("table");
      for (let k = 0; k < slots.length; k++) {
        const j = inTo[inStart[i] + k];
        row(t, "[" + slots[k] + "]", link(j, nodeText(j)));
      }
      panel.appendChild(t);
    }
    const us = usersOf(i);
    if (us.length) {
      panel.appendChild(el("h3", "", "used by"));
      const t = el("div");
      for (const u of us.slice(0, 50)) { t.appendChild(link(u, nodeText(u))); t.appendChild(el("br")); }
      if (us.length > 50) t.appendChild(el("div", "hint", "and " + (us.length - 50) + " more"));
      panel.appendChild(t);
    }
  }

  function overview() {
    panel.appendChild(el("h2", "", D.target ? "graph of " + D.target : "graph"));
    if (!N) { panel.appendChild(el("div", "hint", "no graph to show")); return; }
    const tb = el("table");
    row(tb, "nodes", commas(N));
    row(tb, "repeated runs", String(G));
    row(tb, "shown boxes", commas(L.count));
    panel.appendChild(tb);
    panel.appendChild(el("p", "hint", "Hover or click a node for its outputs, source, saved tensors and " +
      "gradient. A dashed stacked box is a repeated run: click it to expand it. The \u2212 / +N button " +
      "folds and unfolds a subtree. " + UP + "#id / " + DOWN + "#id: an input drawn elsewhere (click to go " +
      "there). Type in the search box to find nodes by name, variable, source text or #id."));
  }

  function title() {
    $("title").textContent = (D.target ? "graph of " + D.target + "  \u00b7  " : "") + commas(N) +
      " nodes  \u00b7  " + G + " repeated run" + (G === 1 ? "" : "s") + "  \u00b7  " +
      commas(L.count) + " boxes shown";
  }

  // ---------------------------------------------------------------- search
  let descHay = null;
  function runSearch() {
    const q = search.value.trim().toLowerCase();
    hitNode.fill(0);
    hitGroup.fill(0);
    hits = null;
    hitAt = -1;
    const list = $("results");
    list.textContent = "";
    if (q) {
      hits = [];
      const idm = /^#?(\d+)$/.exec(q);
      if (idm && +idm[1] < N) hits.push(+idm[1]);
      if (!descHay) descHay = DE.map((d) => (d === null ? "" : (S[d[0]] + "\n" + S[d[4]] + "\n" + S[d[2]] +
        "\n" + (d[3] ? S[D.locs[d[3]][0]] : "")).toLowerCase()));
      const match = DE.map((_d, k) => descHay[k].includes(q));
      for (let i = 0; i < N; i++) if (match[nd[i]] && !(idm && i === +idm[1])) hits.push(i);
      for (const i of hits) { hitNode[i] = 1; if (memberOf[i] >= 0) hitGroup[memberOf[i]] = 1; }
      $("hits").textContent = hits.length ? commas(hits.length) + " match" +
        (hits.length === 1 ? "" : "es") : "no match";
      for (const i of hits.slice(0, 100)) list.appendChild(link(i, nodeText(i) + "  " + where(i)));
      if (hits.length > 100) list.appendChild(el("div", "more", "Enter: next match (" +
        commas((hits.length - 100)) + " more)"));
      list.hidden = !hits.length;
    } else {
      $("hits").textContent = "";
      list.hidden = true;
    }
    for (const [e, box] of shown) box.classList.toggle("hit", e < N ? hitNode[e] === 1 : hitGroup[e - N] === 1);
  }
  let searchTimer = 0;
  search.addEventListener("input", () => { clearTimeout(searchTimer); searchTimer = setTimeout(runSearch, 120); });
  search.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") {
      clearTimeout(searchTimer);
      if (hits === null) runSearch();
      if (hits && hits.length) { hitAt = (hitAt + 1) % hits.length; reveal(hits[hitAt]); }
      $("results").hidden = true;
    } else if (ev.key === "Escape") { search.value = ""; runSearch(); search.blur(); }
  });

  // ---------------------------------------------------------------- events
  canvas.addEventListener("click", (ev) => {
    const t = ev.target;
    const chip = t.closest(".r");
    if (chip && chip.dataset.go !== undefined) { goTo(+chip.dataset.go); return; }
    if (chip && chip.dataset.cg !== undefined) { setGroup(+chip.dataset.cg, false); return; }
    const box = t.closest(".n");
    if (!box) return;
    const e = +box.dataset.e;
    if (t.closest(".tg")) { toggleFold(e); return; }
    if (e >= N && !fold[e]) { setGroup(e - N, true); return; }
    select(e);
  });
  canvas.addEventListener("mouseover", (ev) => {
    const box = ev.target.closest(".n");
    if (box) details(+box.dataset.e);
  });
  view.addEventListener("mouseleave", () => details(selected));
  const follow = (ev) => {
    const a = ev.target.closest("a, button");
    if (!a) return;
    if (a.dataset.go !== undefined) { goTo(+a.dataset.go); $("results").hidden = true; }
    else if (a.dataset.open !== undefined) setGroup(+a.dataset.open, true);
    else if (a.dataset.close !== undefined) setGroup(+a.dataset.close, false);
  };
  panel.addEventListener("click", follow);
  $("results").addEventListener("click", follow);
  $("expand-all").addEventListener("click", () => setAll(true));
  $("collapse-all").addEventListener("click", () => setAll(false));
  let pending = false;
  view.addEventListener("scroll", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; render(); });
  });
  window.addEventListener("resize", () => render());
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "/" && document.activeElement !== search) { ev.preventDefault(); search.focus(); }
    else if (ev.key === "Escape" && document.activeElement !== search) { select(-1); $("results").hidden = true; }
  });

  // ---------------------------------------------------------------- start
  relayout(-1, -1);
  if (N) view.scrollLeft = px(L.root) + BW / 2 - view.clientWidth / 2;
  render();
  details(-1);
  timings.script = performance.now() - T0;
  afterPaint(() => {
    timings.firstPaint = performance.now();
    document.documentElement.dataset.firstPaintMs = timings.firstPaint.toFixed(1);
  });
})();
