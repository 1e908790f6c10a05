package charts

import (
	"html/template"
	"io"
)

// Report is what the HTML index of `tcpviz report` shows.
type Report struct {
	Capture    string
	Connection string // "10.0.0.1:40512 → 10.0.0.2:5201 (stream 1, c2s)"
	Diagnosis  string
	Facts      []Fact   // headline numbers of the main direction
	Images     []Image  // graph files, relative to the index
	Tables     []string // data files, relative to the index
	Summary    *Table   // every connection direction of the capture
}

// Fact is one labelled number.
type Fact struct{ Label, Value string }

// Image is one graph of the report.
type Image struct{ Title, File string }

var reportTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>tcpviz report — {{.Capture}}</title>
<style>
body { font-family: sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; }
.diag { background: #fff6d5; border-left: 4px solid #e0b000; padding: .5em 1em; }
dl { display: grid; grid-template-columns: max-content auto; gap: .2em 1.5em; }
dt { color: #555; } dd { margin: 0; font-variant-numeric: tabular-nums; }
img { max-width: 100%; border: 1px solid #ddd; margin: .5em 0 1.5em; }
table { border-collapse: collapse; font-size: .8em; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: .2em .5em; text-align: right; white-space: nowrap; }
th { background: #f0f0f0; }
.scroll { overflow-x: auto; }
</style>
</head>
<body>
<h1>{{.Capture}}</h1>
<p>Main connection: {{.Connection}}</p>
{{if .Diagnosis}}<p class="diag">{{.Diagnosis}}</p>{{end}}
<dl>{{range .Facts}}<dt>{{.Label}}</dt><dd>{{.Value}}</dd>{{end}}</dl>
{{range .Images}}<h2>{{.Title}}</h2>
<a href="{{.File}}"><img src="{{.File}}" alt="{{.Title}}"></a>
{{end}}
<h2>Every connection</h2>
<p>Data: {{range $i, $f := .Tables}}{{if $i}}, {{end}}<a href="{{$f}}">{{$f}}</a>{{end}}</p>
{{with .Summary}}<div class="scroll"><table>
<tr>{{range .Columns}}<th>{{.Name}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>{{end}}
</body>
</html>
`))

// WriteReport writes the HTML index of a report. Text from captures is
// escaped.
func WriteReport(w io.Writer, r *Report) error {
	return reportTemplate.Execute(w, r)
}
