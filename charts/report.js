// tcpviz report: draws each graph of the page on its canvas from the JSON
// in #tcpviz-data. The graphs of a connection whose x axis is its time
// share that axis: zoom or pan one and the others follow, and a crosshair
// shows every graph's values at the time under the pointer. Box zoom
// (drag), pan (shift-drag), wheel zoom (shift: the y axis), keys (+ - and
// the arrows, 0 to reset), double-click or Reset for the whole graph;
// hover shows a point's frame, a click copies it. No dependencies, no
// network.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("tcpviz-data").textContent);
  const M = { l: 70, r: 14, t: 10, b: 40 }; // plot margins, CSS pixels
  const plots = [];

  // Decode the delta-encoded frames and times, and compute x, y (and y2).
  function decode(g) {
    for (const s of g.series) {
      const n = s.f.length;
      s.x = new Float64Array(n);
      s.y = new Float64Array(n);
      s.y2 = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        if (i > 0) {
          s.f[i] += s.f[i - 1];
          s.t[i] += s.t[i - 1];
        }
        s.x[i] = g.xcol < 0 ? s.t[i] / 1e9 : s.v[g.xcol][i];
        s.y[i] = s.kind === "spans" ? 0 : s.v[g.ycol][i]; // bands have no value
        s.y2[i] = s.kind === "bars" ? s.v[g.ycol + 1][i] : s.y[i];
      }
      s.hidden = false;
    }
  }

  // SI formats v with a prefix, at most 4 significant digits.
  function si(v) {
    const a = Math.abs(v);
    for (const [f, p] of [[1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"]]) {
      if (a >= f) return trim(v / f) + p;
    }
    return trim(v);
  }
  function trim(v) {
    let s = v.toFixed(3).replace(/\.?0+$/, "");
    return s === "-0" ? "0" : s;
  }
  // ticks returns about n round values in [lo, hi].
  function ticks(lo, hi, n) {
    const raw = (hi - lo) / Math.max(n, 2);
    if (!(raw > 0) || !isFinite(raw)) return [];
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    let step = 10 * mag;
    for (const f of [1, 2, 2.5, 5]) {
      if (f * mag >= raw) { step = f * mag; break; }
    }
    const out = [];
    for (let k = Math.ceil(lo / step); k * step <= hi + step * 1e-9; k++) out.push(k * step);
    return out;
  }
  // A value with the axis's unit: 1.23 kB, 45.6 ms.
  function withUnit(v, a) { return si(v) + (a.unit ? " " + a.unit : ""); }
  function fmt(v) { return Number.isInteger(v) ? String(v) : String(+v.toPrecision(7)); }
  function label(a) { return a.unit ? a.label + " (" + a.unit + ")" : a.label; }
  // The page's colours (light or dark theme), for the canvases.
  function colors() {
    const cs = getComputedStyle(document.documentElement);
    const v = (n, d) => (cs.getPropertyValue(n) || d).trim();
    return { fg: v("--fg", "#222"), grid: v("--grid", "#e1e1e1"), frame: v("--frame", "#888"), cross: v("--cross", "#444") };
  }

  function Plot(fig, ci, gi) {
    this.fig = fig;
    this.ci = ci;
    this.gi = gi;
    this.g = data.conns[ci].graphs[gi];
    this.canvas = fig.querySelector("canvas");
    this.tip = fig.querySelector(".tip");
    this.readout = fig.querySelector(".readout");
    this.frameOut = fig.querySelector(".frame");
    this.linked = this.g.x.time && this.g.xcol < 0; // on the connection's time axis
    const r = this.g.range;
    this.full = { x0: r[0], x1: r[1], y0: r[2], y1: r[3] };
    this.view = Object.assign({}, this.full);
    this.drag = null;
    this.hover = null;
    this.cross = null; // the crosshair's time
    this.legend(fig.querySelector(".legend"));
    this.listen();
  }

  Plot.prototype.size = function () {
    const c = this.canvas, dpr = window.devicePixelRatio || 1;
    const w = c.clientWidth, h = c.clientHeight;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
    }
    this.w = w;
    this.h = h;
    this.dpr = dpr;
    this.pw = Math.max(w - M.l - M.r, 10);
    this.ph = Math.max(h - M.t - M.b, 10);
  };

  Plot.prototype.sx = function (x) { return M.l + (x - this.view.x0) / (this.view.x1 - this.view.x0) * this.pw; };
  Plot.prototype.sy = function (y) { return M.t + this.ph - (y - this.view.y0) / (this.view.y1 - this.view.y0) * this.ph; };
  Plot.prototype.dx = function (px) { return this.view.x0 + (px - M.l) / this.pw * (this.view.x1 - this.view.x0); };
  Plot.prototype.dy = function (py) { return this.view.y0 + (M.t + this.ph - py) / this.ph * (this.view.y1 - this.view.y0); };

  // siblings are the plots on the same time axis as this one (itself
  // included).
  Plot.prototype.siblings = function () {
    return this.linked ? plots.filter((p) => p.ci === this.ci && p.linked) : [this];
  };

  // setView shows v; the x range goes to every plot on the same time axis.
  Plot.prototype.setView = function (v) {
    this.view = v;
    for (const p of this.siblings()) {
      if (p === this) continue;
      p.view = Object.assign({}, p.view, { x0: v.x0, x1: v.x1 });
      p.redraw();
    }
    this.redraw();
  };

  Plot.prototype.redraw = function () {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); });
  };

  Plot.prototype.legend = function (el) {
    for (const s of this.g.series) {
      const b = document.createElement("button");
      b.type = "button";
      b.setAttribute("aria-pressed", "true");
      b.title = "show or hide this series";
      const sw = document.createElement("i");
      sw.style.background = s.color === "#000000" ? "var(--fg)" : s.color;
      b.appendChild(sw);
      let text = s.legend;
      if (s.total > s.f.length) text += " (" + s.f.length + " of " + s.total + " points, thinned per pixel)";
      b.appendChild(document.createTextNode(text));
      b.addEventListener("click", () => {
        s.hidden = !s.hidden;
        b.classList.toggle("off", s.hidden);
        b.setAttribute("aria-pressed", String(!s.hidden));
        this.draw();
      });
      el.appendChild(b);
    }
    for (const n of this.g.notes || []) {
      const p = document.createElement("span");
      p.className = "note";
      p.textContent = n;
      el.appendChild(p);
    }
  };

  Plot.prototype.draw = function () {
    if (this.fig.closest("section").hidden || this.fig.hidden) return;
    this.size();
    const ctx = this.canvas.getContext("2d"), v = this.view, g = this.g, col = colors();
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, this.w, this.h);
    ctx.font = "11px sans-serif";
    ctx.fillStyle = col.fg;
    ctx.strokeStyle = col.grid;
    ctx.lineWidth = 1;
    // Grid and tick labels.
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    for (const x of ticks(v.x0, v.x1, Math.floor(this.pw / 110))) {
      const px = Math.round(this.sx(x)) + 0.5;
      ctx.beginPath(); ctx.moveTo(px, M.t); ctx.lineTo(px, M.t + this.ph); ctx.stroke();
      ctx.fillText(si(x), px, M.t + this.ph + 4);
    }
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (const y of ticks(v.y0, v.y1, Math.floor(this.ph / 60))) {
      const py = Math.round(this.sy(y)) + 0.5;
      ctx.beginPath(); ctx.moveTo(M.l, py); ctx.lineTo(M.l + this.pw, py); ctx.stroke();
      ctx.fillText(si(y), M.l - 4, py);
    }
    ctx.strokeStyle = col.frame;
    ctx.strokeRect(M.l + 0.5, M.t + 0.5, this.pw, this.ph);
    ctx.textAlign = "center";
    ctx.textBaseline = "bottom";
    ctx.fillText(label(g.x), M.l + this.pw / 2, this.h - 2);
    ctx.save();
    ctx.translate(12, M.t + this.ph / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = "middle";
    ctx.fillText(label(g.y), 0, 0);
    ctx.restore();
    // Series: lines under bars and dots, marks on top.
    ctx.save();
    ctx.beginPath();
    ctx.rect(M.l, M.t, this.pw, this.ph);
    ctx.clip();
    for (const layer of [["spans"], ["steps", "lines"], ["bars", "dots"], ["marks"]]) {
      for (const s of g.series) {
        if (!s.hidden && layer.includes(s.kind)) this.series(ctx, s);
      }
    }
    if (this.cross !== null) {
      const px = Math.round(this.sx(this.cross)) + 0.5;
      ctx.strokeStyle = col.cross;
      ctx.setLineDash([3, 3]);
      ctx.lineWidth = 1;
      ctx.beginPath(); ctx.moveTo(px, M.t); ctx.lineTo(px, M.t + this.ph); ctx.stroke();
      ctx.setLineDash([]);
    }
    if (this.hover) {
      const s = this.hover.s, i = this.hover.i;
      ctx.strokeStyle = col.fg;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.arc(this.sx(s.x[i]), this.sy(s.y[i]), 6, 0, 2 * Math.PI);
      ctx.stroke();
    }
    ctx.restore();
    if (this.drag && this.drag.mode === "zoom") {
      const d = this.drag;
      ctx.fillStyle = "rgba(31,119,180,.15)";
      ctx.strokeStyle = "#1f77b4";
      const x = Math.min(d.x0, d.x1), y = Math.min(d.y0, d.y1);
      ctx.fillRect(x, y, Math.abs(d.x1 - d.x0), Math.abs(d.y1 - d.y0));
      ctx.strokeRect(x + 0.5, y + 0.5, Math.abs(d.x1 - d.x0), Math.abs(d.y1 - d.y0));
    }
  };

  // series draws s in the current view.
  Plot.prototype.series = function (ctx, s) {
    const n = s.x.length, pxw = s.width * 96 / 72;
    const c = s.color === "#000000" ? colors().fg : s.color; // black marks show on a dark page too
    ctx.strokeStyle = c;
    ctx.fillStyle = c;
    ctx.lineWidth = Math.max(pxw, 1);
    if (s.kind === "lines" || s.kind === "steps") {
      ctx.beginPath();
      let py = 0;
      for (let i = 0; i < n; i++) {
        const x = this.sx(s.x[i]), y = this.sy(s.y[i]);
        if (i === 0) ctx.moveTo(x, y);
        else {
          if (s.kind === "steps") ctx.lineTo(x, py);
          ctx.lineTo(x, y);
        }
        py = y;
      }
      ctx.stroke();
      return;
    }
    if (s.kind === "spans") { // bands from each even point to the next, in a lane along the foot
      const h = Math.max(0.025 * this.ph, 5), y0 = M.t + this.ph - (s.lane + 1) * h;
      for (let i = 0; i + 1 < n; i += 2) {
        const x0 = Math.max(this.sx(s.x[i]), M.l), x1 = Math.min(this.sx(s.x[i + 1]), M.l + this.pw);
        if (x1 >= x0) ctx.fillRect(x0, y0, Math.max(x1 - x0, 1), h);
      }
      return;
    }
    if (s.kind === "bars") {
      let inView = 0;
      for (let i = 0; i < n; i++) if (s.x[i] >= this.view.x0 && s.x[i] <= this.view.x1) inView++;
      const caps = inView * 6 < this.pw;
      ctx.beginPath();
      for (let i = 0; i < n; i++) {
        const x = Math.round(this.sx(s.x[i])) + 0.5;
        if (x < M.l - 3 || x > M.l + this.pw + 3) continue;
        const y0 = this.sy(s.y[i]);
        let y1 = this.sy(s.y2[i]);
        if (y0 - y1 < 1) y1 = y0 - 1;
        ctx.moveTo(x, y0); ctx.lineTo(x, y1);
        if (caps) {
          ctx.moveTo(x - 2, y0); ctx.lineTo(x + 2, y0);
          ctx.moveTo(x - 2, y1); ctx.lineTo(x + 2, y1);
        }
      }
      ctx.stroke();
      return;
    }
    const r = s.kind === "dots" ? Math.max(pxw, 1.5) : Math.max(pxw, 3);
    ctx.lineWidth = 1.3;
    for (let i = 0; i < n; i++) {
      const x = this.sx(s.x[i]), y = this.sy(s.y[i]);
      if (x < M.l - r || x > M.l + this.pw + r || y < M.t - r || y > M.t + this.ph + r) continue;
      glyph(ctx, s.kind === "dots" ? "circle" : s.glyph, x, y, r);
    }
  };

  function glyph(ctx, kind, x, y, r) {
    ctx.beginPath();
    switch (kind) {
      case "ring": ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.stroke(); return;
      case "tick": ctx.moveTo(x, y - r); ctx.lineTo(x, y + r); ctx.moveTo(x - r / 2, y - r); ctx.lineTo(x + r / 2, y - r); ctx.stroke(); return;
      // As the pictures draw them (gonum's glyphs): filled box, hollow
      // square and triangle, filled pyramid.
      case "box": ctx.rect(x - r, y - r, 2 * r, 2 * r); ctx.fill(); return;
      case "square": ctx.rect(x - r, y - r, 2 * r, 2 * r); ctx.stroke(); return;
      case "triangle": ctx.moveTo(x, y - r); ctx.lineTo(x + r, y + r); ctx.lineTo(x - r, y + r); ctx.closePath(); ctx.stroke(); return;
      case "pyramid": ctx.moveTo(x, y - r); ctx.lineTo(x + r, y + r); ctx.lineTo(x - r, y + r); ctx.closePath(); ctx.fill(); return;
      case "diamond": ctx.moveTo(x, y - r); ctx.lineTo(x + r, y); ctx.lineTo(x, y + r); ctx.lineTo(x - r, y); ctx.closePath(); ctx.fill(); return;
      case "cross": ctx.moveTo(x - r, y - r); ctx.lineTo(x + r, y + r); ctx.moveTo(x - r, y + r); ctx.lineTo(x + r, y - r); ctx.stroke(); return;
      case "plus": ctx.moveTo(x - r, y); ctx.lineTo(x + r, y); ctx.moveTo(x, y - r); ctx.lineTo(x, y + r); ctx.stroke(); return;
    }
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fill();
  }

  // nearest returns the visible point closest to (px, py), within 8 px.
  Plot.prototype.nearest = function (px, py) {
    let best = null, bd = 8;
    for (const s of this.g.series) {
      if (s.hidden || s.kind === "spans") continue;
      for (let i = 0; i < s.x.length; i++) {
        const dx = Math.abs(this.sx(s.x[i]) - px);
        if (dx > bd) continue;
        const a = this.sy(s.y[i]), b = this.sy(s.y2[i]);
        const dy = py > Math.max(a, b) ? py - Math.max(a, b) : py < Math.min(a, b) ? Math.min(a, b) - py : 0;
        const d = Math.hypot(dx, dy);
        if (d <= bd) { bd = d; best = { s: s, i: i }; }
      }
    }
    return best;
  };

  // valueAt is each visible series' value at x: its last point at or
  // before x (lines and steps hold it), or its point nearest x within a
  // pixel (bars, dots and marks).
  Plot.prototype.valueAt = function (x) {
    const out = [];
    const tol = (this.view.x1 - this.view.x0) / this.pw * 3;
    for (const s of this.g.series) {
      if (s.hidden || s.x.length === 0) continue;
      let lo = 0, hi = s.x.length; // first index with s.x > x
      while (lo < hi) { const m = (lo + hi) >> 1; if (s.x[m] <= x) lo = m + 1; else hi = m; }
      let i = lo - 1;
      if (s.kind === "spans") { // inside a band: its name
        if (i >= 0 && i % 2 === 0 && i + 1 < s.x.length) out.push({ name: s.legend, frame: s.f[i] });
        continue;
      }
      if (s.kind !== "lines" && s.kind !== "steps") {
        let best = -1;
        for (const k of [lo - 1, lo]) if (k >= 0 && k < s.x.length && Math.abs(s.x[k] - x) <= tol && (best < 0 || Math.abs(s.x[k] - x) < Math.abs(s.x[best] - x))) best = k;
        i = best;
      }
      if (i >= 0) out.push({ name: s.legend, value: s.y[i], frame: s.f[i] });
    }
    return out;
  };

  // crossAt puts the crosshair at x on every plot of the time axis, each
  // saying its values there.
  Plot.prototype.crossAt = function (x) {
    for (const p of this.siblings()) {
      p.cross = x;
      if (p.readout) {
        if (x === null) { p.readout.textContent = ""; } else {
          const parts = p.valueAt(x).map((e) => e.value === undefined ? e.name : e.name + " " + withUnit(e.value, p.g.y));
          p.readout.textContent = withUnit(x, p.g.x) + (parts.length ? ": " + parts.join(" · ") : "");
        }
      }
      p.redraw();
    }
  };

  Plot.prototype.showTip = function (px, py) {
    const h = this.nearest(px, py);
    this.hover = h;
    if (!h) {
      this.tip.hidden = true;
      return;
    }
    const s = h.s, i = h.i, g = this.g;
    const lines = [s.legend, "frame " + s.f[i], "time " + (s.t[i] / 1e9).toFixed(6) + " s"];
    for (let k = 0; k < s.n; k++) lines.push(g.cols[k] + " " + fmt(s.v[k][i]));
    if (s.kind === "bars") lines.push("length " + fmt(s.y2[i] - s.y[i]));
    this.tip.textContent = lines.join("\n");
    this.tip.hidden = false;
    const left = px + 14 + 180 > this.w ? px - 194 : px + 14;
    this.tip.style.left = Math.max(0, left) + "px";
    this.tip.style.top = Math.max(0, py - 10) + "px";
  };

  // pick shows the frame of the point clicked, and copies it.
  Plot.prototype.pick = function (px, py) {
    const h = this.nearest(px, py);
    if (!h || !this.frameOut) return;
    const f = h.s.f[h.i];
    this.frameOut.textContent = "frame " + f + " (" + h.s.legend + ")";
    this.frameOut.dataset.frame = String(f);
    try {
      if (navigator.clipboard) navigator.clipboard.writeText(String(f)).then(() => { this.frameOut.textContent += ", copied"; }, () => {});
    } catch (e) { /* no clipboard from file:// in some browsers */ }
  };

  Plot.prototype.pos = function (ev) {
    const r = this.canvas.getBoundingClientRect();
    return [ev.clientX - r.left, ev.clientY - r.top];
  };

  // zoom scales the view by f around (px, py): the x axis, or the y axis
  // (yAxis).
  Plot.prototype.zoom = function (f, px, py, yAxis) {
    const v = Object.assign({}, this.view);
    if (yAxis) {
      const y = this.dy(py);
      v.y0 = y - (y - v.y0) * f; v.y1 = y + (v.y1 - y) * f;
    } else {
      const x = this.dx(px);
      v.x0 = x - (x - v.x0) * f; v.x1 = x + (v.x1 - x) * f;
    }
    this.setView(v);
  };

  // pan moves the view by a fraction of its span.
  Plot.prototype.pan = function (fx, fy) {
    const v = Object.assign({}, this.view);
    const sx = (v.x1 - v.x0) * fx, sy = (v.y1 - v.y0) * fy;
    v.x0 += sx; v.x1 += sx; v.y0 += sy; v.y1 += sy;
    this.setView(v);
  };

  Plot.prototype.listen = function () {
    const c = this.canvas;
    c.addEventListener("mousedown", (ev) => {
      if (ev.button !== 0) return;
      const [x, y] = this.pos(ev);
      this.drag = { mode: ev.shiftKey ? "pan" : "zoom", x0: x, y0: y, x1: x, y1: y, view: Object.assign({}, this.view) };
      this.tip.hidden = true;
      this.hover = null;
      c.focus({ preventScroll: true });
      ev.preventDefault();
    });
    window.addEventListener("mousemove", (ev) => {
      const [x, y] = this.pos(ev);
      const d = this.drag;
      if (d) {
        d.x1 = Math.min(Math.max(x, M.l), M.l + this.pw);
        d.y1 = Math.min(Math.max(y, M.t), M.t + this.ph);
        if (d.mode === "pan") {
          const fx = (x - d.x0) / this.pw * (d.view.x1 - d.view.x0);
          const fy = (y - d.y0) / this.ph * (d.view.y1 - d.view.y0);
          this.setView({ x0: d.view.x0 - fx, x1: d.view.x1 - fx, y0: d.view.y0 + fy, y1: d.view.y1 + fy });
        } else this.redraw();
        return;
      }
      if (ev.target !== c) {
        if (!this.tip.hidden) { this.tip.hidden = true; this.hover = null; this.redraw(); }
        return;
      }
      this.showTip(x, y);
      if (x >= M.l && x <= M.l + this.pw) this.crossAt(this.dx(x));
      this.redraw();
    });
    window.addEventListener("mouseup", (ev) => {
      const d = this.drag;
      if (!d) return;
      this.drag = null;
      const wx = Math.abs(d.x1 - d.x0), wy = Math.abs(d.y1 - d.y0);
      if (d.mode === "zoom") {
        if (wx >= 5 || wy >= 5) {
          // A thin box zooms one axis only.
          const v = Object.assign({}, this.view);
          if (wx >= 5) { v.x0 = this.dx(Math.min(d.x0, d.x1)); v.x1 = this.dx(Math.max(d.x0, d.x1)); }
          if (wy >= 5) { v.y0 = this.dy(Math.max(d.y0, d.y1)); v.y1 = this.dy(Math.min(d.y0, d.y1)); }
          this.setView(v);
        } else if (ev.detail < 2) {
          this.pick(d.x0, d.y0); // a click, not a drag: the point's frame
        }
      }
      this.redraw();
    });
    c.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const [x, y] = this.pos(ev);
      this.zoom(Math.exp(Math.max(-1, Math.min(1, ev.deltaY / 300))), x, y, ev.shiftKey);
    }, { passive: false });
    c.addEventListener("keydown", (ev) => {
      const mid = [M.l + this.pw / 2, M.t + this.ph / 2], y = ev.shiftKey;
      switch (ev.key) {
        case "+": case "=": this.zoom(0.8, mid[0], mid[1], y); break;
        case "-": case "_": this.zoom(1.25, mid[0], mid[1], y); break;
        case "ArrowLeft": this.pan(-0.1, 0); break;
        case "ArrowRight": this.pan(0.1, 0); break;
        case "ArrowUp": this.pan(0, 0.1); break;
        case "ArrowDown": this.pan(0, -0.1); break;
        case "0": case "Home": case "Escape": this.reset(); break;
        default: return;
      }
      ev.preventDefault();
    });
    c.addEventListener("dblclick", () => this.reset());
    this.fig.querySelector(".reset").addEventListener("click", () => this.reset());
    c.addEventListener("mouseleave", () => {
      if (this.drag) return;
      this.tip.hidden = true;
      this.hover = null;
      this.crossAt(null);
    });
  };

  // reset shows the whole graph (and the whole time axis on the others).
  Plot.prototype.reset = function () {
    this.setView(Object.assign({}, this.full));
  };

  // The graphs on a connection's time axis share their whole range: the
  // union of theirs.
  function linkRanges(ci) {
    const byConn = new Map();
    for (const p of plots) {
      if (!p.linked || p.ci !== ci) continue;
      const r = byConn.get(p.ci) || [Infinity, -Infinity];
      byConn.set(p.ci, [Math.min(r[0], p.full.x0), Math.max(r[1], p.full.x1)]);
    }
    for (const p of plots) {
      if (!p.linked || p.ci !== ci) continue;
      const r = byConn.get(p.ci);
      p.full.x0 = r[0]; p.full.x1 = r[1];
      p.view = Object.assign({}, p.full);
    }
  }

  // Connections: one section shown at a time.
  function show(ci) {
    for (const sec of document.querySelectorAll("section.conn")) sec.hidden = +sec.dataset.conn !== ci;
    for (const b of document.querySelectorAll("nav button[data-conn]")) {
      b.classList.toggle("on", +b.dataset.conn === ci);
      b.setAttribute("aria-current", String(+b.dataset.conn === ci));
    }
    for (const tr of document.querySelectorAll("tr.graphed")) tr.classList.toggle("on", +tr.dataset.conn === ci);
    for (const p of plots) if (p.ci === ci) p.draw();
  }

  // The graph-type picker: every graph, or one kind.
  function pickGraph(sel) {
    const sec = sel.closest("section");
    for (const fig of sec.querySelectorAll("figure.graph")) fig.hidden = sel.value !== "" && fig.dataset.graph !== sel.value;
    for (const p of plots) if (p.fig.closest("section") === sec) p.draw();
  }

  // The table: sorted by a column (a click on its header, again to
  // reverse), filtered by text (every word must be in the row; col>n,
  // col<n and col=x compare a column), columns picked.
  function table() {
    const t = document.getElementById("summary");
    if (!t) return;
    const head = [...t.tHead.rows[0].cells], body = t.tBodies[0];
    const rows = [...body.rows];
    const names = head.map((th) => th.dataset.name);
    let sortCol = -1, asc = true;
    const num = (s) => (s === "" ? NaN : Number(s));
    head.forEach((th, k) => {
      const b = th.querySelector("button");
      b.addEventListener("click", () => {
        asc = sortCol === k ? !asc : true;
        sortCol = k;
        const sorted = rows.slice().sort((a, b) => {
          const x = a.cells[k].textContent, y = b.cells[k].textContent, nx = num(x), ny = num(y);
          let c;
          if (!isNaN(nx) && !isNaN(ny)) c = nx - ny;
          else if (isNaN(nx) !== isNaN(ny)) c = isNaN(nx) ? 1 : -1; // empty cells last
          else c = x.localeCompare(y);
          return asc ? c : -c;
        });
        for (const r of sorted) body.appendChild(r);
        head.forEach((h, j) => h.setAttribute("aria-sort", j === k ? (asc ? "ascending" : "descending") : "none"));
      });
    });
    const filter = document.getElementById("filter");
    filter.addEventListener("input", () => {
      const words = filter.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
      let shown = 0;
      for (const r of rows) {
        const cells = [...r.cells].map((c) => c.textContent.toLowerCase());
        const ok = words.every((w) => {
          const m = w.match(/^([a-z0-9_]+)(>=|<=|>|<|=)(.*)$/);
          const k = m ? names.indexOf(m[1]) : -1;
          if (k < 0) return cells.join(" ").includes(w);
          const v = cells[k], nv = num(v), nw = num(m[3]);
          switch (m[2]) {
            case ">": return nv > nw;
            case "<": return nv < nw;
            case ">=": return nv >= nw;
            case "<=": return nv <= nw;
          }
          return v === m[3];
        });
        r.hidden = !ok;
        if (ok) shown++;
      }
      document.getElementById("shown").textContent = shown + " of " + rows.length + " rows";
    });
    for (const box of document.querySelectorAll("#columns input")) {
      box.addEventListener("change", () => {
        const k = +box.value;
        t.classList.toggle("show-" + k, box.checked);
        t.classList.toggle("hide-" + k, !box.checked);
        for (const r of [t.tHead.rows[0], ...rows]) r.cells[k].hidden = !box.checked;
      });
      const k = +box.value;
      for (const r of [t.tHead.rows[0], ...rows]) r.cells[k].hidden = !box.checked;
    }
  }

  // Light and dark themes: the system's, or the one chosen.
  function theme() {
    const b = document.getElementById("theme");
    if (!b) return;
    b.addEventListener("click", () => {
      const root = document.documentElement;
      const dark = root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
      root.dataset.theme = dark ? "light" : "dark";
      b.setAttribute("aria-pressed", String(!dark));
      for (const p of plots) p.draw();
    });
  }

  // attach makes the plots of a connection's section and its picker.
  function attach(sec) {
    const ci = +sec.dataset.conn;
    for (const fig of sec.querySelectorAll("figure.graph")) plots.push(new Plot(fig, ci, +fig.dataset.graph));
    linkRanges(ci);
    for (const sel of sec.querySelectorAll("select.pick")) sel.addEventListener("change", () => pickGraph(sel));
  }

  // open shows a connection: one of the page's, or one whose section and
  // points are in a script beside it (conns/conn-N.js), loaded with a
  // script element (which works from file://) the first time.
  const loading = {};
  function open(el) {
    const ci = +el.dataset.conn;
    if (!document.getElementById("conn-" + ci) && el.dataset.script) {
      if (!loading[ci]) {
        loading[ci] = true;
        const s = document.createElement("script");
        s.src = el.dataset.script;
        s.onerror = () => { loading[ci] = false; el.title = "could not load " + el.dataset.script; };
        document.body.appendChild(s);
      }
      return;
    }
    show(ci);
  }

  // tcpvizMore receives a connection from its script: its section, and
  // the points of its graphs.
  window.tcpvizMore = function (ci, html, conn) {
    if (document.getElementById("conn-" + ci)) return;
    data.conns[ci] = conn;
    for (const g of conn.graphs) decode(g);
    document.querySelector('section[aria-labelledby="every"]').insertAdjacentHTML("beforebegin", html);
    attach(document.getElementById("conn-" + ci));
    show(ci);
  };

  for (const c of data.conns) for (const g of c.graphs) decode(g);
  for (const sec of document.querySelectorAll("section.conn")) attach(sec);
  for (const el of document.querySelectorAll("nav button[data-conn], tr.graphed")) {
    el.addEventListener("click", () => open(el));
  }
  for (const tr of document.querySelectorAll("tr.graphed")) {
    tr.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); open(tr); } });
  }
  table();
  theme();
  window.addEventListener("resize", () => { for (const p of plots) p.draw(); });
  show(0);

  // For tests and the curious: what each graph shows, and where a point is.
  window.tcpvizReport = {
    plots: () => plots.map((p) => ({
      conn: p.ci, graph: p.gi, title: p.g.title, visible: !p.fig.closest("section").hidden && !p.fig.hidden,
      x: [p.view.x0, p.view.x1], y: [p.view.y0, p.view.y1], linked: p.linked,
      cross: p.cross, readout: p.readout ? p.readout.textContent : "",
      series: p.g.series.map((s) => ({ name: s.name, kind: s.kind, points: s.x.length, total: s.total })),
    })),
    point: (pi, si, i) => {
      const p = plots[pi], s = p.g.series[si], r = p.canvas.getBoundingClientRect();
      return { x: r.left + p.sx(s.x[i]), y: r.top + p.sy(s.y[i]), frame: s.f[i] };
    },
    show: show,
  };
  document.body.dataset.ready = "1";
})();
