package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdpinput "github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"tcpviz/analyze"
	"tcpviz/charts"
	"tcpviz/scripts/pcapngcraft"
)

// browserPath finds Chromium (.ci/run installs Debian's). Without one the
// browser tests skip, saying so.
func browserPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium on PATH (apt-get install chromium): the interactive report is not checked in a browser")
	return ""
}

// newBrowser starts headless Chromium for a test (stopped at its end).
func newBrowser(t *testing.T, browser string) context.Context {
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1300, 1400))
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// plotInfo is what the page's test hook says of one graph.
type plotInfo struct {
	Conn    int       `json:"conn"`
	Graph   int       `json:"graph"`
	Title   string    `json:"title"`
	Visible bool      `json:"visible"`
	X       []float64 `json:"x"`
	Y       []float64 `json:"y"`
	Linked  bool      `json:"linked"`
	Cross   any       `json:"cross"`
	Readout string    `json:"readout"`
	Series  []struct {
		Name   string `json:"name"`
		Kind   string `json:"kind"`
		Points int    `json:"points"`
	} `json:"series"`
}

// TestReportInBrowser opens the report of the demo capture in headless
// Chromium: no console errors and no network request, a canvas per graph
// of the registry, a drag zooms in, a double-click zooms back out, hovering
// the SYN shows its frame, and a row of the table switches connection.
// With TCPVIZ_SCREENSHOTS=dir, screenshots before and after the zoom are
// written there.
func TestReportInBrowser(t *testing.T) {
	browser := browserPath(t)
	dir := t.TempDir()
	stdout, stderr, code := tcpviz(t, nil, "report", "--out-dir", dir, demoCapture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	index := strings.TrimSpace(stdout)
	page := (&url.URL{Scheme: "file", Path: index}).String()

	ctx := newBrowser(t, browser)

	var mu sync.Mutex
	var problems []string
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				problems = append(problems, fmt.Sprintf("console error: %v", ev.Args))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			if d.Exception != nil {
				problems = append(problems, fmt.Sprintf("exception at line %d: %s %s", d.LineNumber+1, d.Text, d.Exception.Description))
			} else {
				problems = append(problems, fmt.Sprintf("exception at line %d: %s", d.LineNumber+1, d.Text))
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				problems = append(problems, "log error: "+ev.Entry.Text)
			}
		case *network.EventRequestWillBeSent:
			if u := ev.Request.URL; !strings.HasPrefix(u, "file:") && !strings.HasPrefix(u, "data:") {
				problems = append(problems, "network request: "+u)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
		t.Fatalf("opening %s: %v", page, err)
	}
	plots := func() []plotInfo {
		t.Helper()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](`tcpvizReport.plots()`))
		if err != nil {
			t.Fatal(err)
		}
		var ps []plotInfo
		if err := json.Unmarshal(raw, &ps); err != nil {
			t.Fatal(err)
		}
		return ps
	}
	eval := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	shot := func(name string) {
		t.Helper()
		out := os.Getenv("TCPVIZ_SCREENSHOTS")
		if out == "" {
			return
		}
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// Every graph of the registry, for both connections of the capture
	// (the main one shown), each with its canvas drawn.
	var captions []string
	for _, rg := range charts.ReportGraphs() {
		captions = append(captions, charts.Caption(rg))
	}
	ps := plots()
	for conn := range 2 {
		var got []string
		for _, p := range ps {
			if p.Conn == conn {
				got = append(got, p.Title)
				if p.Visible != (conn == 0) {
					t.Errorf("connection %d, %s: visible %v", conn, p.Title, p.Visible)
				}
			}
		}
		if conn == 0 && strings.Join(got, "|") != strings.Join(captions, "|") {
			t.Errorf("main connection's graphs %q, want %q", got, captions)
		}
		if conn == 1 && len(got) == 0 {
			t.Errorf("no graphs for the second connection")
		}
	}
	if n := eval(`String(document.querySelectorAll("#conn-0 figure.graph canvas").length)`); n != fmt.Sprint(len(captions)) {
		t.Errorf("%s canvases in the main section, want %d", n, len(captions))
	}
	if n := eval(`String([...document.querySelectorAll("#conn-0 canvas")].filter(c => c.width > 0 && c.height > 0).length)`); n != fmt.Sprint(len(captions)) {
		t.Errorf("%s canvases drawn, want %d", n, len(captions))
	}

	// A drag over the first graph zooms into the box.
	var rect [4]float64
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](`(() => { const c = document.querySelector("#conn-0 canvas");
		c.closest("figure").scrollIntoView(); const r = c.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`))
	if err == nil {
		err = json.Unmarshal(raw, &rect)
	}
	if err != nil {
		t.Fatal(err)
	}
	shot("report-before-zoom.png")
	before := plots()[0]
	x0, y0 := rect[0]+0.35*rect[2], rect[1]+0.3*rect[3]
	x1, y1 := rect[0]+0.6*rect[2], rect[1]+0.7*rect[3]
	steps := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(cdpinput.DispatchMouseEventTypeMousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1))}
	for k := 1; k <= 5; k++ {
		f := float64(k) / 5
		steps = append(steps, chromedp.MouseEvent(cdpinput.DispatchMouseEventTypeMouseMoved, x0+f*(x1-x0), y0+f*(y1-y0), chromedp.ButtonLeft))
	}
	steps = append(steps, chromedp.MouseEvent(cdpinput.DispatchMouseEventTypeMouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
	after := plots()[0]
	span := func(r []float64) float64 { return r[1] - r[0] }
	if !(span(after.X) < 0.4*span(before.X) && after.X[0] > before.X[0] && after.X[1] < before.X[1]) {
		t.Errorf("the drag did not zoom in: x range %v, before %v", after.X, before.X)
	}
	if !(span(after.Y) < 0.6*span(before.Y)) {
		t.Errorf("the drag did not zoom the y axis: %v, before %v", after.Y, before.Y)
	}
	// Let the page draw the zoomed graph before the screenshot.
	eval(`new Promise(r => requestAnimationFrame(() => r("")))`)
	shot("report-after-zoom.png")

	// A double-click shows the whole graph again.
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(x0, y0, chromedp.ClickCount(2))); err != nil {
		t.Fatal(err)
	}
	if reset := plots()[0]; reset.X[0] != before.X[0] || reset.X[1] != before.X[1] {
		t.Errorf("double-click: x range %v, want %v", reset.X, before.X)
	}

	// Hovering the client's SYN shows its frame.
	syn := -1
	for i, s := range before.Series {
		if s.Name == analyze.SeriesSYN {
			syn = i
		}
	}
	if syn < 0 {
		t.Fatalf("no SYN series in %+v", before.Series)
	}
	var pt struct{ X, Y, Frame float64 }
	raw, err = chromedp.Run(ctx, chromedp.Evaluate[[]byte](fmt.Sprintf(`tcpvizReport.point(0, %d, 0)`, syn)))
	if err == nil {
		err = json.Unmarshal(raw, &pt)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseEvent(cdpinput.DispatchMouseEventTypeMouseMoved, pt.X+2, pt.Y-1)); err != nil {
		t.Fatal(err)
	}
	tip := eval(`(() => { const t = document.querySelector("#conn-0 .tip"); return t.hidden ? "" : t.textContent; })()`)
	shot("report-hover.png")
	if !regexp.MustCompile(`(?m)^frame \d+$`).MatchString(tip) || !strings.Contains(tip, fmt.Sprintf("frame %d\n", int(pt.Frame))) || !strings.HasPrefix(tip, "SYN") {
		t.Errorf("hovering the SYN (frame %d) shows %q", int(pt.Frame), tip)
	}

	// The graphs on the connection's time axis follow the zoom of one.
	linkedX := func(what string) []float64 {
		t.Helper()
		var x []float64
		for _, p := range plots() {
			if p.Conn != 0 || !p.Linked {
				continue
			}
			if x == nil {
				x = p.X
			} else if p.X[0] != x[0] || p.X[1] != x[1] {
				t.Errorf("%s: %s shows %v, the first graph %v", what, p.Title, p.X, x)
			}
		}
		return x
	}
	if err := chromedp.Do(ctx, steps...); err != nil { // the box zoom again
		t.Fatal(err)
	}
	if x := linkedX("box zoom"); !(span(x) < 0.4*span(before.X)) {
		t.Errorf("box zoom: the linked graphs show %v", x)
	}
	// The wheel over the throughput graph zooms the time axis (all of them).
	tput := -1
	for i, p := range plots() {
		if p.Conn == 0 && p.Title == "Throughput" {
			tput = i
		}
	}
	if tput < 0 {
		t.Fatalf("no throughput graph: %+v", plots())
	}
	raw, err = chromedp.Run(ctx, chromedp.Evaluate[[]byte](fmt.Sprintf(`(() => { const c = document.querySelectorAll("canvas")[%d];
		c.closest("figure").scrollIntoView(); const r = c.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`, tput)))
	if err == nil {
		err = json.Unmarshal(raw, &rect)
	}
	if err != nil {
		t.Fatal(err)
	}
	zoomed := span(plots()[tput].X)
	cx, cy := rect[0]+0.5*rect[2], rect[1]+0.5*rect[3]
	if err := chromedp.Do(ctx, chromedp.MouseEvent(cdpinput.DispatchMouseEventTypeMouseWheel, cx, cy, func(p *cdpinput.DispatchMouseEventParams) { p.DeltaX, p.DeltaY = 1e-6, -200 })); err != nil {
		t.Fatal(err)
	}
	if x := linkedX("wheel"); !(span(x) < 0.8*zoomed) {
		t.Errorf("the wheel did not zoom in: %v, before %v wide", x, zoomed)
	}
	// The crosshair: the pointer over one graph gives every linked graph's
	// values at that time.
	if err := chromedp.Do(ctx, chromedp.MouseEvent(cdpinput.DispatchMouseEventTypeMouseMoved, cx, cy)); err != nil {
		t.Fatal(err)
	}
	var cross any
	for _, p := range plots() {
		if p.Conn != 0 || !p.Linked {
			continue
		}
		if cross == nil {
			cross = p.Cross
		}
		if p.Cross == nil || p.Cross != cross || !strings.Contains(p.Readout, " s") {
			t.Errorf("crosshair: %s at %v (the others at %v), readout %q", p.Title, p.Cross, cross, p.Readout)
		}
	}
	if !strings.Contains(plots()[tput].Readout, "goodput") {
		t.Errorf("the throughput graph's readout %q names no series value", plots()[tput].Readout)
	}
	// Keys: - zooms out, 0 shows the whole graph (and the whole time axis).
	eval(fmt.Sprintf(`(() => { document.querySelectorAll("canvas")[%d].focus(); return ""; })()`, tput))
	w0 := span(plots()[tput].X)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("-")); err != nil {
		t.Fatal(err)
	}
	if w1 := span(plots()[tput].X); !(w1 > 1.2*w0) {
		t.Errorf("the - key: %v wide, before %v", w1, w0)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("0")); err != nil {
		t.Fatal(err)
	}
	if x := linkedX("the 0 key"); x[0] != before.X[0] || x[1] != before.X[1] {
		t.Errorf("the 0 key: %v, want the whole %v", x, before.X)
	}
	// A click on the SYN gives its frame.
	raw, err = chromedp.Run(ctx, chromedp.Evaluate[[]byte](fmt.Sprintf(`(() => { const f = document.querySelector("#conn-0 figure"); f.querySelector(".reset").click();
		f.scrollIntoView(); return tcpvizReport.point(0, %d, 0); })()`, syn)))
	if err == nil {
		err = json.Unmarshal(raw, &pt)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(pt.X+1, pt.Y)); err != nil {
		t.Fatal(err)
	}
	if got := eval(`document.querySelector("#conn-0 .frame").dataset.frame || ""`); got != fmt.Sprint(int(pt.Frame)) {
		t.Errorf("a click on the SYN (frame %d) shows frame %q", int(pt.Frame), got)
	}
	// The graph-type picker shows one kind.
	eval(`(() => { const s = document.querySelector("#conn-0 select.pick"); s.value = "2"; s.dispatchEvent(new Event("change")); return ""; })()`)
	for _, p := range plots() {
		if p.Conn == 0 && p.Visible != (p.Graph == 2) {
			t.Errorf("picker on graph 2: %s visible %v", p.Title, p.Visible)
		}
	}
	eval(`(() => { const s = document.querySelector("#conn-0 select.pick"); s.value = ""; s.dispatchEvent(new Event("change")); return ""; })()`)
	// The table sorts by a column, both ways, and filters.
	column := func(name string) []string {
		t.Helper()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](fmt.Sprintf(`(() => { const k = [...document.querySelectorAll("#summary th")].findIndex(th => th.dataset.name === %q);
			return [...document.querySelectorAll("#summary tbody tr")].filter(r => !r.hidden).map(r => r.cells[k].textContent); })()`, name)))
		var out []string
		if err == nil {
			err = json.Unmarshal(raw, &out)
		}
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, order := range []string{"ascending", "descending"} {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#summary th[data-name="data_bytes"] button`))); err != nil {
			t.Fatal(err)
		}
		vs := column("data_bytes")
		for i := 1; i < len(vs); i++ {
			a, b := mustFloat(t, vs[i-1]), mustFloat(t, vs[i])
			if order == "ascending" && a > b || order == "descending" && a < b {
				t.Errorf("sorted %s: %v", order, vs)
			}
		}
		if got := eval(`document.querySelector('#summary th[data-name="data_bytes"]').getAttribute("aria-sort")`); got != order {
			t.Errorf("aria-sort %q, want %s", got, order)
		}
	}
	eval(`(() => { const f = document.getElementById("filter"); f.value = "direction=c2s"; f.dispatchEvent(new Event("input")); return ""; })()`)
	if dirs := column("direction"); len(dirs) == 0 || strings.Join(dirs, "") != strings.Repeat("c2s", len(dirs)) {
		t.Errorf("filter direction=c2s: %v", dirs)
	}
	eval(`(() => { const f = document.getElementById("filter"); f.value = ""; f.dispatchEvent(new Event("input")); return ""; })()`)
	// Accessible: every graph an image with a text alternative that
	// gives its numbers and is reachable by the keyboard; every control
	// named; every input labelled; the page's language and viewport.
	a11y := eval(`(() => { const bad = [];
		for (const c of document.querySelectorAll("canvas")) {
			if (c.getAttribute("role") !== "img" || !/points/.test(c.getAttribute("aria-label") || "") || c.tabIndex !== 0) bad.push("canvas " + (c.getAttribute("aria-label") || "unlabelled"));
		}
		for (const b of document.querySelectorAll("button, select, a")) if (!(b.textContent.trim() || b.getAttribute("aria-label"))) bad.push("unnamed " + b.outerHTML.slice(0, 60));
		for (const i of document.querySelectorAll("input, select")) if (!i.closest("label") && !i.getAttribute("aria-label")) bad.push("unlabelled " + i.outerHTML.slice(0, 60));
		for (const r of document.querySelectorAll("tr.graphed")) if (r.tabIndex !== 0) bad.push("a row that switches connection is not focusable");
		for (const e of document.querySelectorAll("[tabindex]")) if (e.tabIndex > 0) bad.push("positive tabindex");
		if (!document.documentElement.lang) bad.push("no lang");
		if (!document.querySelector('meta[name="viewport"]')) bad.push("no viewport meta");
		for (const img of document.querySelectorAll("img")) if (!img.alt) bad.push("img without alt");
		return bad.join("\n"); })()`)
	if a11y != "" {
		t.Errorf("accessibility:\n%s", a11y)
	}
	// Dark and light themes: the toggle changes the page's colours.
	bg := func() string { return eval(`getComputedStyle(document.body).backgroundColor`) }
	light := bg()
	shot("report-light.png")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#theme`))); err != nil {
		t.Fatal(err)
	}
	dark := bg()
	shot("report-dark.png")
	if dark == light {
		t.Errorf("the theme toggle left the background %s", light)
	}

	// A row of the table switches to its connection's graphs.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`tr.graphed[data-conn="1"] td`))); err != nil {
		t.Fatal(err)
	}
	for _, p := range plots() {
		if p.Visible != (p.Conn == 1) {
			t.Errorf("after a click on the second connection's row: connection %d, %s visible %v", p.Conn, p.Title, p.Visible)
		}
	}

	eval(`""`) // a round trip, so that every event has been seen
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Error(p)
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// TestReportMoreConnections: a connection beyond the page's busiest is
// opened from its row of the table: its script (conns/conn-N.js) loads
// from file://, and its section and graphs are drawn like the others'.
func TestReportMoreConnections(t *testing.T) {
	browser := browserPath(t)
	var f pcapngcraft.File
	f.Section(false)
	f.Interface(pcapngcraft.LinkEthernet, 0)
	for i := range 14 {
		for _, p := range (pcapngcraft.Transfer{Start: 1_700_000_000e9 + int64(i)*1e8, RTT: 40e6, Gap: 1e6, Segments: 4 + i, MSS: 1000,
			Client: [4]byte{10, 1, 0, 1}, Server: [4]byte{10, 2, 0, 2}, CPort: uint16(1000 + i), SPort: 80}).Packets() {
			fr, w := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
			f.EPB(0, pcapngcraft.Ticks(p.Time, 6), w, fr)
		}
	}
	capture := filepath.Join(t.TempDir(), "many.pcapng")
	os.WriteFile(capture, f.Bytes(), 0o644)
	dir := t.TempDir()
	stdout, stderr, code := tcpviz(t, nil, "report", "--out-dir", dir, capture)
	if code != 0 {
		t.Fatalf("report: %s", stderr)
	}
	index := strings.TrimSpace(stdout)
	scripts, _ := filepath.Glob(filepath.Join(filepath.Dir(index), "conns", "conn-*.js"))
	if len(scripts) != 3 {
		t.Fatalf("%d connection scripts, want 14 − 11 in the page = 3", len(scripts))
	}
	ctx := newBrowser(t, browser)
	var problems []string
	var mu sync.Mutex
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			mu.Lock()
			problems = append(problems, e.ExceptionDetails.Text)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	page := (&url.URL{Scheme: "file", Path: index}).String()
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
		t.Fatal(err)
	}
	ci, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("tr.graphed[data-script]").dataset.conn`))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := strconv.Atoi(ci); n < 11 {
		t.Fatalf("the first row with a script opens connection %s, one of the page's", ci)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`tr.graphed[data-script] td`)),
		chromedp.WaitVisible(chromedp.CSS(`section#conn-`+ci+`:not([hidden]) canvas`))); err != nil {
		t.Fatal(err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](`tcpvizReport.plots().filter(p => p.visible)`))
	var ps []plotInfo
	if err == nil {
		err = json.Unmarshal(raw, &ps)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 || fmt.Sprint(ps[0].Conn) != ci {
		t.Fatalf("visible after the click: %+v", ps)
	}
	for _, p := range ps {
		if len(p.Series) == 0 || p.X[1] <= p.X[0] {
			t.Errorf("connection %d, %s: %+v", p.Conn, p.Title, p)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("exceptions: %v", problems)
	}
}
