package main

import (
	"os"
	"strings"
	"testing"

	"tcpviz/charts"
)

// columnsMarkdown is the README's table of a command's columns, made from
// the same descriptors as the CSV header, the JSON keys and --columns.
func columnsMarkdown(docs []charts.Doc) string {
	var b strings.Builder
	b.WriteString("| column | type | meaning |\n|---|---|---|\n")
	for _, d := range docs {
		kind := d.Kind.String()
		if d.Unit != "" {
			kind += ", " + d.Unit
		}
		b.WriteString("| `" + d.Name + "` | " + kind + " | " + strings.ReplaceAll(d.Doc, "|", "\\|") + " |\n")
	}
	return b.String()
}

// TestREADMEColumns: the README documents every column of streams,
// flows, summary, compare and join, in order, exactly as the descriptors do (-update
// rewrites the README's tables).
func TestREADMEColumns(t *testing.T) {
	const path = "../../README.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	for _, tc := range []struct {
		name string
		docs []charts.Doc
	}{
		{"streams", charts.StreamsColumns.Docs()},
		{"flows", charts.FlowsColumns.Docs()},
		{"summary", charts.SummaryColumns.Docs()},
		{"compare", charts.CompareColumns.Docs()},
		{"join", charts.JoinColumns.Docs()},
		{"io", charts.IOColumns.Docs()},
	} {
		begin, end := "<!-- columns:"+tc.name+" -->\n", "<!-- end columns:"+tc.name+" -->"
		i := strings.Index(readme, begin)
		j := strings.Index(readme, end)
		if i < 0 || j < i {
			t.Errorf("README has no %q … %q block", begin, end)
			continue
		}
		want := columnsMarkdown(tc.docs)
		if got := readme[i+len(begin) : j]; got != want {
			if *update {
				readme = readme[:i+len(begin)] + want + readme[j:]
				continue
			}
			t.Errorf("README's %s columns differ from the descriptors (go test ./cmd/tcpviz -run READMEColumns -update rewrites them)", tc.name)
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
