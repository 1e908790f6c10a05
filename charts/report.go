package charts

import (
	_ "embed"
	"html/template"
	"io"
	"strconv"

	"tcpviz/analyze"
)

// Report is what the HTML index of `tcpviz report` shows: the graphs of
// a few connections, drawn in the page (zoom, pan, hover shows each
// point's frame), and the summary of every connection.
type Report struct {
	Capture string
	// Conns are the connections with graphs; the first is the main one,
	// shown first.
	Conns  []ReportConn
	Tables []string // data files, relative to the index
	// Summary has every connection direction of the capture; its rows
	// switch the page to their connection's graphs.
	Summary *Table
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
	data    []byte // the graph's JSON
}

// NewReportGraph prepares g for the page, for a plot of w×h pixels (0:
// the pictures' default size): its points thinned to PagePointsPerPixel
// per pixel column, so that g itself need not be kept.
func NewReportGraph(g *analyze.Graph, caption, image string, w, h int) ReportGraph {
	w, h = PlotOptions{Width: w, Height: h}.Size()
	return ReportGraph{Caption: caption, Image: image, data: appendGraphJSON(nil, g, caption, image, w, h)}
}

// Fact is one labelled number.
type Fact struct{ Label, Value string }

//go:embed report.js
var reportJS string

// reportView is what the template reads.
type reportView struct {
	*Report
	Rows   []reportRow
	Data   template.JS
	Script template.JS
}

// reportRow is one row of the summary, with the connection it switches
// to (-1: none has graphs).
type reportRow struct {
	Conn  int
	Cells []string
}

var reportTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>tcpviz report — {{.Capture}}</title>
<style>
body { font-family: sans-serif; margin: 1.5em 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
.diag { background: #fff6d5; border-left: 4px solid #e0b000; padding: .5em 1em; }
dl { display: grid; grid-template-columns: max-content auto; gap: .2em 1.5em; }
dt { color: #555; } dd { margin: 0; font-variant-numeric: tabular-nums; }
.hint { color: #666; font-size: .85em; }
nav button { margin: 0 .3em .3em 0; font-size: .8em; }
nav button.on { font-weight: bold; background: #dde8f5; }
figure { margin: 1em 0 2em; max-width: 1200px; }
figcaption { font-weight: bold; margin-bottom: .3em; }
figcaption button, figcaption a { font-weight: normal; font-size: .8em; margin-left: 1em; }
.plot { position: relative; }
canvas { width: 100%; height: 440px; display: block; border: 1px solid #ddd; cursor: crosshair; touch-action: none; }
.tip { position: absolute; pointer-events: none; background: rgba(255,255,255,.95); border: 1px solid #888;
  padding: .3em .5em; font-size: .8em; white-space: pre; font-variant-numeric: tabular-nums; }
.legend { font-size: .8em; }
.legend span { margin-right: 1.2em; cursor: pointer; white-space: nowrap; }
.legend span.off { opacity: .35; }
.legend span.note { display: block; white-space: normal; cursor: default; color: #555; }
.legend i { display: inline-block; width: 1.5em; height: .6em; margin-right: .3em; vertical-align: middle; }
table { border-collapse: collapse; font-size: .8em; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: .2em .5em; text-align: right; white-space: nowrap; }
th { background: #f0f0f0; }
tr.graphed { cursor: pointer; } tr.graphed:hover { background: #eef4fb; } tr.on { background: #dde8f5; }
.scroll { overflow-x: auto; }
</style>
</head>
<body>
<h1>{{.Capture}}</h1>
<nav id="conns">Connections with graphs:
{{range $i, $c := .Conns}}<button type="button" data-conn="{{$i}}"{{if not $i}} class="on"{{end}}>{{if .Nav}}{{.Nav}}{{else}}stream {{.Stream}}{{end}}</button>{{end}}
</nav>
<p class="hint">In a graph: drag to zoom into a box, shift-drag to pan, double-click (or Reset) for the whole graph; hover a point to see its frame. Click a legend entry to hide its series, a row of the table to switch connection.</p>
<noscript><p>This page draws its graphs with JavaScript; the PNG files beside it show the main connection.</p></noscript>
{{range $i, $c := .Conns}}<section class="conn" id="conn-{{$i}}" data-conn="{{$i}}"{{if $i}} hidden{{end}}>
<h2>{{if $i}}Connection{{else}}Main connection{{end}}: {{.Label}}</h2>
{{if .Diagnosis}}<p class="diag">{{.Diagnosis}}</p>{{end}}
<dl>{{range .Facts}}<dt>{{.Label}}</dt><dd>{{.Value}}</dd>{{end}}</dl>
{{with .Table}}<div class="scroll"><table>
<tr>{{range .Columns}}<th>{{.Name}}</th>{{end}}</tr>
{{range .Cells}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>{{end}}
{{range $j, $g := .Graphs}}<figure class="graph" data-conn="{{$i}}" data-graph="{{$j}}">
<figcaption>{{.Caption}}<button type="button" class="reset">Reset zoom</button>{{with .Image}}<a href="{{.}}">PNG</a>{{end}}</figcaption>
<div class="plot"><canvas></canvas><div class="tip" hidden></div></div>
<div class="legend"></div>
</figure>
{{end}}{{range .Images}}<figure><figcaption>{{.Caption}}</figcaption><img src="{{.File}}" alt="{{.Caption}}" style="max-width:100%"></figure>
{{end}}</section>
{{end}}
<h2>Every connection</h2>
<p>Data: {{range $i, $f := .Tables}}{{if $i}}, {{end}}<a href="{{$f}}">{{$f}}</a>{{end}}</p>
{{with .Summary}}<div class="scroll"><table id="summary">
<tr>{{range .Columns}}<th>{{.Name}}</th>{{end}}</tr>
{{range $.Rows}}<tr{{if ge .Conn 0}} class="graphed" data-conn="{{.Conn}}"{{end}}>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>{{end}}
<script type="application/json" id="tcpviz-data">{{.Data}}</script>
<script>{{.Script}}</script>
</body>
</html>
`))

// WriteReport writes the HTML index of a report: one self-contained page
// (no network access), the points of its graphs embedded as JSON. Text
// from captures is escaped.
func WriteReport(w io.Writer, r *Report) error {
	v := reportView{Report: r, Script: template.JS(reportJS)}
	byStream := map[string]int{}
	for i, c := range r.Conns {
		byStream[strconv.Itoa(c.Stream)] = i
	}
	if r.Summary != nil {
		col := -1
		for k, c := range r.Summary.Columns {
			if c.Name == "stream" {
				col = k
			}
		}
		for _, row := range r.Summary.Rows {
			rr := reportRow{Conn: -1, Cells: make([]string, len(row))}
			for k, c := range row {
				rr.Cells[k] = c.String()
			}
			if col >= 0 {
				if i, ok := byStream[rr.Cells[col]]; ok {
					rr.Conn = i
				}
			}
			v.Rows = append(v.Rows, rr)
		}
	}
	b := []byte(`{"conns":[`)
	for i, c := range r.Conns {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"stream":`...)
		b = append(b, strconv.Itoa(c.Stream)...)
		b = append(b, `,"label":`...)
		b = appendJSONString(b, c.Label)
		b = append(b, `,"graphs":[`...)
		for j, g := range c.Graphs {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, g.data...)
		}
		b = append(b, "]}"...)
	}
	b = append(b, "]}"...)
	// Nothing in b can end the script element: its strings have <, > and
	// & escaped, the rest is numbers and punctuation.
	v.Data = template.JS(b)
	return reportTemplate.Execute(w, v)
}
