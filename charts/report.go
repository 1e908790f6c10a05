package charts

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"tcpviz/analyze"
)

// Report is what the HTML index of `tcpviz report` shows: the graphs of
// a few connections, drawn in the page (zoom, pan, hover shows each
// point's frame), and the summary of every connection.
type Report struct {
	Capture string
	// Conns are the connections with graphs; the first is the main one,
	// shown first. More are connections whose graphs are in script files
	// beside the page (ReportConn.Script), loaded when opened.
	Conns  []ReportConn
	More   []ReportConn
	Tables []string // data files, relative to the index
	// Summary has the connection directions the page lists (the
	// busiest, when there are many); its rows switch the page to their
	// connection's graphs. Connections counts every connection of the
	// capture.
	Summary     *Table
	Connections int
}

// ReportConn is one connection of a report, in one direction.
type ReportConn struct {
	Stream    int
	Label     string // "10.0.0.1:40512 → 10.0.0.2:5201 (stream 1, c2s)"
	Diagnosis string
	Facts     []Fact // headline numbers
	Graphs    []ReportGraph
	// Nav names the connection's button ("": "stream N"); Table, when
	// set, is shown after the facts (a joined capture's hops); Images are
	// pictures shown after the graphs (a ladder).
	Nav    string
	Table  *Table
	Images []ReportImage
	// Script is the file, relative to the index, that holds a
	// connection of Report.More (ReportBuilder.Finish writes it).
	Script string
}

// ReportImage is a picture of a report, relative to the index, with its
// caption (also its text alternative).
type ReportImage struct{ Caption, File string }

// Cells are the table's cells as the page shows them.
func (t *Table) Cells() [][]string {
	out := make([][]string, len(t.Rows))
	for i, row := range t.Rows {
		out[i] = make([]string, len(row))
		for k, c := range row {
			out[i][k] = c.String()
		}
	}
	return out
}

// ReportGraph is one graph of a report, its points thinned for the page.
type ReportGraph struct {
	Caption string
	Image   string // picture file, relative to the index ("": none)
	// Alt is the graph's text alternative: what it shows, its series and
	// their points, its axes' ranges.
	Alt  string
	data []byte // the graph's JSON
}

// newReportGraph prepares g for the page, for a plot of w×h pixels (0:
// the pictures' default size): its points thinned to PagePointsPerPixel
// per pixel column, so that g itself need not be kept.
func newReportGraph(g *analyze.Graph, caption, image string, w, h int) ReportGraph {
	w, h = PlotOptions{Width: w, Height: h}.Size()
	// The range of every point, which the description and the page's
	// data both say: one pass over the points for the two.
	r := allPointsRange(g)
	return ReportGraph{Caption: caption, Image: image, Alt: altText(g, caption, r), data: appendGraphJSON(nil, g, caption, image, w, h, r)}
}

// pointsRange is axisRange's result.
type pointsRange struct {
	xmin, xmax, ymin, ymax float64
	any                    bool
}

// allPointsRange is g's axis ranges with every point (axisRange's
// allPoints), not for a log axis.
func allPointsRange(g *analyze.Graph) pointsRange {
	var r pointsRange
	r.xmin, r.xmax, r.ymin, r.ymax, r.any = axisRange(g, false, true)
	return r
}

// altText describes g, of range r (allPointsRange), in words, for those who cannot see it: its
// caption, each series with its count of points, the axes' ranges in
// their units, and its notes.
func altText(g *analyze.Graph, caption string, r pointsRange) string {
	var b strings.Builder
	b.WriteString(caption)
	xmin, xmax, ymin, ymax := r.xmin, r.xmax, r.ymin, r.ymax
	if !r.any {
		b.WriteString(": no points")
		return b.String()
	}
	b.WriteString(": ")
	colors := colorIndexes(g)
	for i := range g.Series {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%d points)", styleOfSeries(g, &g.Series[i], colors[i]).legend, len(g.Series[i].Points))
	}
	span := func(a analyze.Axis, lo, hi float64) string {
		div, unit := unitFor(a, math.Max(math.Abs(lo), math.Abs(hi)))
		f := func(v float64) string { return strconv.FormatFloat(v/div, 'g', 4, 64) }
		s := a.Label + " from " + f(lo) + " to " + f(hi)
		if unit != "" {
			s += " " + unit
		}
		return s
	}
	fmt.Fprintf(&b, "; %s; %s", span(g.X, xmin, xmax), span(g.Y, ymin, ymax))
	for _, n := range g.Notes {
		b.WriteString(". " + WarningText(n))
	}
	return b.String()
}

// Fact is one labelled number.
type Fact struct{ Label, Value string }

//go:embed report.js
var reportJS string

// reportView is what the template reads.
type reportView struct {
	*Report
	Rows []reportRow
	// Visible is, for each column of the summary, whether the table
	// shows it before the reader picks (SummaryReadable).
	Visible []bool
	// Count is 2 × the connections, the connections listed, and all.
	Count  [3]int
	Data   template.JS
	Script template.JS
}

// reportRow is one row of the summary, with the connection it switches
// to (-1: none has graphs) and the script that holds it, if not the page.
type reportRow struct {
	Conn   int
	Script string
	Cells  []string
}

// reportSection is what the section of one connection is drawn from:
// its index in the page, the connection.
type reportSection struct {
	I int
	C ReportConn
}

// sectionTemplate is one connection's section, in the page or in a
// script file beside it.
const sectionTemplate = `{{define "section"}}{{with .C}}<section class="conn" id="conn-{{$.I}}" data-conn="{{$.I}}" aria-labelledby="h-{{$.I}}"{{if $.I}} hidden{{end}}>
<h2 id="h-{{$.I}}">{{if $.I}}Connection{{else}}Main connection{{end}}: {{.Label}}</h2>
{{if .Diagnosis}}<p class="diag">{{.Diagnosis}}</p>{{end}}
<dl>{{range .Facts}}<dt>{{.Label}}</dt><dd>{{.Value}}</dd>{{end}}</dl>
{{with .Table}}<div class="scroll"><table>
<tr>{{range .Columns}}<th>{{.Name}}{{with .Unit}} ({{.}}){{end}}</th>{{end}}</tr>
{{range .Cells}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>{{end}}
{{if .Graphs}}<p><label>Graph <select class="pick"><option value="">every graph</option>{{range $j, $g := .Graphs}}<option value="{{$j}}">{{.Caption}}</option>{{end}}</select></label></p>{{end}}
{{range $j, $g := .Graphs}}<figure class="graph" data-conn="{{$.I}}" data-graph="{{$j}}" aria-labelledby="cap-{{$.I}}-{{$j}}">
<figcaption id="cap-{{$.I}}-{{$j}}">{{.Caption}}<button type="button" class="reset">Reset zoom</button>{{with .Image}}<a href="{{.}}">PNG</a>{{end}}</figcaption>
<div class="plot"><canvas role="img" tabindex="0" aria-label="{{.Alt}}" aria-describedby="ro-{{$.I}}-{{$j}}"></canvas><div class="tip" hidden></div></div>
<output class="readout" id="ro-{{$.I}}-{{$j}}" aria-live="polite"></output><output class="frame" aria-live="polite"></output>
<div class="legend" role="group" aria-label="series"></div>
</figure>
{{end}}{{range .Images}}<figure><figcaption>{{.Caption}}</figcaption><img src="{{.File}}" alt="{{.Caption}}" style="max-width:100%"></figure>
{{end}}</section>{{end}}{{end}}`

var reportTemplate = template.Must(template.Must(template.New("report").Funcs(template.FuncMap{
	"sec": func(i int, c ReportConn) reportSection { return reportSection{i, c} },
}).Parse(sectionTemplate)).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>tcpviz report — {{.Capture}}</title>
<style>
:root { --bg: #fff; --fg: #222; --muted: #555; --grid: #e1e1e1; --frame: #888; --cross: #444; --line: #ccc;
  --head: #f0f0f0; --on: #dde8f5; --hover: #eef4fb; --diag: #fff6d5; --diagb: #e0b000; --tip: rgba(255,255,255,.95); --canvas: #fff; }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { --bg: #15181c; --fg: #e4e4e4; --muted: #aaa; --grid: #30353b;
  --frame: #777; --cross: #ccc; --line: #3a3f45; --head: #23272c; --on: #2b3a4d; --hover: #222c38; --diag: #3a3216; --diagb: #b08a00;
  --tip: rgba(30,33,37,.95); --canvas: #1b1f24; } }
:root[data-theme="dark"] { --bg: #15181c; --fg: #e4e4e4; --muted: #aaa; --grid: #30353b; --frame: #777; --cross: #ccc; --line: #3a3f45;
  --head: #23272c; --on: #2b3a4d; --hover: #222c38; --diag: #3a3216; --diagb: #b08a00; --tip: rgba(30,33,37,.95); --canvas: #1b1f24; }
body { font-family: sans-serif; margin: 1.5em 2em; color: var(--fg); background: var(--bg); }
a { color: #4a90d9; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
.diag { background: var(--diag); border-left: 4px solid var(--diagb); padding: .5em 1em; }
dl { display: grid; grid-template-columns: max-content auto; gap: .2em 1.5em; }
dt { color: var(--muted); } dd { margin: 0; font-variant-numeric: tabular-nums; }
.hint { color: var(--muted); font-size: .85em; }
button, select, input { font: inherit; font-size: .8em; color: inherit; background: var(--head); border: 1px solid var(--line); border-radius: 3px; }
nav button { margin: 0 .3em .3em 0; }
nav button.on { font-weight: bold; background: var(--on); }
:focus-visible { outline: 2px solid #4a90d9; outline-offset: 1px; }
figure { margin: 1em 0 2em; max-width: 1200px; }
figcaption { font-weight: bold; margin-bottom: .3em; }
figcaption button, figcaption a { font-weight: normal; margin-left: 1em; }
.plot { position: relative; }
canvas { width: 100%; height: 440px; display: block; border: 1px solid var(--line); background: var(--canvas); cursor: crosshair; touch-action: none; }
.tip { position: absolute; pointer-events: none; background: var(--tip); border: 1px solid var(--frame);
  padding: .3em .5em; font-size: .8em; white-space: pre; font-variant-numeric: tabular-nums; }
.readout, .frame { display: block; font-size: .8em; min-height: 1.3em; color: var(--muted); font-variant-numeric: tabular-nums; }
.legend { font-size: .8em; }
.legend button { margin: 0 1em .2em 0; cursor: pointer; white-space: nowrap; background: none; border: none; font-size: 1em; padding: 0; }
.legend button.off { opacity: .35; }
.legend span.note { display: block; white-space: normal; color: var(--muted); }
.legend i { display: inline-block; width: 1.5em; height: .6em; margin-right: .3em; vertical-align: middle; }
table { border-collapse: collapse; font-size: .8em; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--line); padding: .2em .5em; text-align: right; white-space: nowrap; }
th { background: var(--head); position: sticky; top: 0; }
th button { background: none; border: none; font-weight: bold; font-size: 1em; padding: 0; cursor: pointer; }
th[aria-sort="ascending"] button::after { content: " ▲"; } th[aria-sort="descending"] button::after { content: " ▼"; }
tr.graphed { cursor: pointer; } tr.graphed:hover { background: var(--hover); } tr.on { background: var(--on); }
.scroll { overflow: auto; max-height: 70vh; }
#columns { font-size: .8em; margin: .5em 0; } #columns label { display: inline-block; margin-right: 1em; white-space: nowrap; }
</style>
</head>
<body>
<header>
<h1>{{.Capture}}</h1>
<nav id="conns" aria-label="connections">Connections with graphs:
{{range $i, $c := .Conns}}<button type="button" data-conn="{{$i}}"{{if not $i}} class="on" aria-current="true"{{end}}>{{if .Nav}}{{.Nav}}{{else}}stream {{.Stream}}{{end}}</button>{{end}}
<button type="button" id="theme" aria-pressed="false" title="light or dark">Dark/light theme</button>
</nav>
<p class="hint">In a graph (click it or Tab to it): drag to zoom into a box, shift-drag to pan, the wheel zooms the time (shift+wheel: the y axis), + and − zoom, the arrows pan, 0 or double-click shows it whole. The graphs of a connection share their time axis: zoom one and the others follow, and the values of each at the time under the pointer show beneath it. Hover a point to see its frame; click it to copy the frame number. A legend entry hides its series; a row of the table switches connection.</p>
</header>
<noscript><p>This page draws its graphs with JavaScript; the PNG files beside it show the main connection.</p></noscript>
<main>
{{range $i, $c := .Conns}}{{template "section" (sec $i $c)}}
{{end}}
<section aria-labelledby="every">
<h2 id="every">Every connection</h2>
<p>Data: {{range $i, $f := .Tables}}{{if $i}}, {{end}}<a href="{{$f}}">{{$f}}</a>{{end}}</p>
{{with .Summary}}{{if lt (len .Rows) (index $.Count 0)}}<p class="hint">The table lists the {{index $.Count 1}} busiest of the capture's {{index $.Count 2}} connections (those that carried the most payload, in stream order); summary.csv and streams.csv hold every one.</p>{{end}}
<p><label>Filter <input id="filter" type="search" placeholder="words, or column>number: throughput_bps>1e6 c2s"></label> <span id="shown" aria-live="polite"></span></p>
<details id="columns"><summary>Columns</summary>{{range $k, $c := .Columns}}<label><input type="checkbox" value="{{$k}}"{{if index $.Visible $k}} checked{{end}}> {{$c.Name}}</label>{{end}}</details>
<div class="scroll"><table id="summary">
<thead><tr>{{range .Columns}}<th scope="col" data-name="{{.Name}}" aria-sort="none" title="{{.Doc}}"><button type="button">{{.Name}}{{with .Unit}} ({{.}}){{end}}</button></th>{{end}}</tr></thead>
<tbody>{{range $.Rows}}<tr{{if ge .Conn 0}} class="graphed" data-conn="{{.Conn}}"{{with .Script}} data-script="{{.}}"{{end}} tabindex="0"{{end}}>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody></table></div>{{end}}
</section>
</main>
<script type="application/json" id="tcpviz-data">{{.Data}}</script>
<script>{{.Script}}</script>
</body>
</html>
`))

// writeReport writes the HTML index of a report: one self-contained page
// (no network access), the points of its graphs embedded as JSON. Text
// from captures is escaped.
func writeReport(w io.Writer, r *Report) error {
	v := reportView{Report: r, Script: template.JS(reportJS)}
	if r.Summary != nil {
		v.Count = [3]int{2 * r.Connections, len(r.Summary.Rows) / 2, r.Connections}
	}
	byStream := map[string]int{}
	for i, c := range r.Conns {
		byStream[strconv.Itoa(c.Stream)] = i
	}
	for k, c := range r.More {
		byStream[strconv.Itoa(c.Stream)] = len(r.Conns) + k
	}
	if r.Summary != nil {
		col := -1
		for k, c := range r.Summary.Columns {
			if c.Name == "stream" {
				col = k
			}
			v.Visible = append(v.Visible, slices.Contains(SummaryReadable, c.Name) || strings.HasPrefix(c.Name, "param_"))
		}
		for _, row := range r.Summary.Rows {
			rr := reportRow{Conn: -1, Cells: make([]string, len(row))}
			for k, c := range row {
				rr.Cells[k] = c.String()
			}
			if col >= 0 {
				if i, ok := byStream[rr.Cells[col]]; ok {
					rr.Conn = i
					if k := i - len(r.Conns); k >= 0 {
						rr.Script = r.More[k].Script
					}
				}
			}
			v.Rows = append(v.Rows, rr)
		}
	}
	b := []byte(`{"conns":[`)
	for i := range r.Conns {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendConnJSON(b, &r.Conns[i])
	}
	b = append(b, "]}"...)
	// Nothing in b can end the script element: its strings have <, > and
	// & escaped, the rest is numbers and punctuation.
	v.Data = template.JS(b)
	return reportTemplate.Execute(w, v)
}

// appendConnJSON appends what the page draws a connection's graphs from.
func appendConnJSON(b []byte, c *ReportConn) []byte {
	b = append(b, `{"stream":`...)
	b = strconv.AppendInt(b, int64(c.Stream), 10)
	b = append(b, `,"label":`...)
	b = appendJSONString(b, c.Label)
	b = append(b, `,"graphs":[`...)
	for j, g := range c.Graphs {
		if j > 0 {
			b = append(b, ',')
		}
		b = append(b, g.data...)
	}
	return append(b, "]}"...)
}

// writeReportScript writes the script of connection k of r.More: its
// section and the points of its graphs, handed to the page
// (tcpvizMore), which loads it with a script element when the
// connection is opened (so that the page works from file://).
func writeReportScript(w io.Writer, r *Report, k int) error {
	i := len(r.Conns) + k
	var html bytes.Buffer
	if err := reportTemplate.ExecuteTemplate(&html, "section", reportSection{i, r.More[k]}); err != nil {
		return err
	}
	b := []byte("tcpvizMore(")
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, ',')
	b = appendJSONString(b, html.String())
	b = append(b, ',')
	b = appendConnJSON(b, &r.More[k])
	b = append(b, ");\n"...)
	_, err := w.Write(b)
	return err
}
