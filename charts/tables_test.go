package charts

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/reassembly"
)

// TestTableTargetFormat: --format, else -o's extension, else Parquet
// for --out-dir, else a text table on a terminal and CSV otherwise;
// Parquet never to a terminal, --out-dir only Parquet.
func TestTableTargetFormat(t *testing.T) {
	for _, c := range []struct {
		asked TableFormat
		t     TableTarget
		want  TableFormat
		err   string
	}{
		{"", TableTarget{}, CSV, ""},
		{"", TableTarget{Terminal: true}, TextTable, ""},
		{"", TableTarget{Output: "-", Terminal: true}, TextTable, ""},
		{"", TableTarget{Output: "x.CSV", Terminal: true}, CSV, ""},
		{"", TableTarget{Output: "x.jsonl"}, NDJSON, ""},
		{"", TableTarget{Output: "x.txt"}, TextTable, ""},
		{"", TableTarget{Output: "dir.d/x"}, CSV, ""},
		{"", TableTarget{Output: "x.parquet", Terminal: true}, ParquetFormat, ""},
		{JSON, TableTarget{Output: "x.parquet"}, JSON, ""},
		{"", TableTarget{Output: "x.xyz"}, "", `-o x.xyz: unknown table format ".xyz"`},
		{"", TableTarget{Dir: "out"}, ParquetFormat, ""},
		{CSV, TableTarget{Dir: "out"}, "", "--out-dir writes Parquet partitions"},
		{ParquetFormat, TableTarget{Terminal: true}, "", "--format parquet is binary"},
		{ParquetFormat, TableTarget{}, ParquetFormat, ""},
	} {
		got, err := c.t.Format(c.asked)
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%q to %+v: error %v, want %q", c.asked, c.t, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q to %+v: %q, %v; want %q", c.asked, c.t, got, err, c.want)
		}
	}
}

// TestTableFields: --fields picks columns in its order, patterns in the
// schema's; a text table on a terminal shows the readable ones when none
// are named, "all" every one.
func TestTableFields(t *testing.T) {
	names := func(k TableKind[SummaryRow]) []string {
		var out []string
		for _, c := range k.Schema {
			out = append(out, c.Name)
		}
		return out
	}
	all := names(SummaryTable)
	for _, c := range []struct {
		fields    []string
		text      bool
		want      []string
		shortened bool
	}{
		{nil, false, all, false},
		{nil, true, SummaryTable.Terminal, true},
		{[]string{"all"}, true, all, false},
		{[]string{"direction", "stream"}, true, []string{"direction", "stream"}, false},
		{[]string{"stream", "stream"}, false, []string{"stream"}, false},
	} {
		sel, shortened, err := SummaryTable.Fields(c.fields, c.text)
		if err != nil || shortened != c.shortened || !slices.Equal(names(sel), c.want) {
			t.Errorf("--fields %q (text %v): %q, shortened %v, %v; want %q, %v", c.fields, c.text, names(sel), shortened, err, c.want, c.shortened)
		}
	}
	sel, _, err := SummaryTable.Fields([]string{"rtt_*"}, false)
	if err != nil || len(sel.Schema) < 2 || sel.csvRow != nil || !strings.HasPrefix(sel.Schema[0].Name, "rtt_") {
		t.Errorf("rtt_*: %q, %v (want every rtt_ column, no fast path)", names(sel), err)
	}
	if _, _, err := SummaryTable.Fields([]string{"nosuch"}, false); err == nil || !strings.Contains(err.Error(), `"nosuch": no such column`) {
		t.Errorf("an unknown column: %v", err)
	}
}

// TestTableOnly: the filters (Only) keep what each of them matches, and
// count it over every input read.
func TestTableOnly(t *testing.T) {
	path := filepath.Join("..", "testdata", "geo_pep_short.pcap")
	var all []int
	if _, err := StreamsTable.Scan(capturetest.Reader(t, path), path, func(r *StreamRow) { all = append(all, r.Info.Stream) }); err != nil {
		t.Fatal(err)
	}
	if StreamsTable.Matched() != nil || len(all) < 2 {
		t.Fatalf("unfiltered: %d rows, matched %v", len(all), StreamsTable.Matched())
	}
	only := StreamsTable.Only(reassembly.StreamFilter{Set: map[int]bool{all[0]: true, all[1]: true}}).
		Only(reassembly.StreamFilter{Set: map[int]bool{all[1]: true}})
	for range 2 {
		var got []int
		if _, err := only.Scan(capturetest.Reader(t, path), path, func(r *StreamRow) { got = append(got, r.Info.Stream) }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, all[1:2]) {
			t.Errorf("streams %v, want %v", got, all[1:2])
		}
	}
	if n := only.Matched().Load(); n != 2 {
		t.Errorf("matched %d over two reads, want 2", n)
	}
}

// TestTableKindsHelp: every table says the command that writes it and
// what it lists (its command's --help); a Description, when there is
// one, ends its sentence.
func TestTableKindsHelp(t *testing.T) {
	for _, c := range []struct{ command, help, description string }{
		{StreamsTable.Command, StreamsTable.Help, StreamsTable.Description},
		{SummaryTable.Command, SummaryTable.Help, SummaryTable.Description},
		{PacketsTable.Command, PacketsTable.Help, PacketsTable.Description},
		{FlowsTable.Command, FlowsTable.Help, FlowsTable.Description},
	} {
		if c.command == "" || c.help == "" || c.description != "" && !strings.HasSuffix(c.description, ".") {
			t.Errorf("table %q: help %q, description %q", c.command, c.help, c.description)
		}
	}
	if got := []string{StreamsTable.Command, SummaryTable.Command, PacketsTable.Command, FlowsTable.Command}; strings.Join(got, " ") != "streams summary packets flows" {
		t.Errorf("commands %q", got)
	}
}

// TestFigureOrTable: -o of a command of one table or one figure is a
// figure for .png .svg .pdf, else the table's format; an extension of
// neither names both kinds, and --out-dir is refused.
func TestFigureOrTable(t *testing.T) {
	for _, c := range []struct {
		t     TableTarget
		asked TableFormat
		want  string
	}{
		{TableTarget{Output: "x.svg"}, "", "svg csv <nil>"},
		{TableTarget{Output: "x.json"}, "", " json <nil>"},
		{TableTarget{Terminal: true}, "", " table <nil>"},
		{TableTarget{Output: "x.dat"}, CSV, " csv <nil>"},
		{TableTarget{Output: "x.dat"}, "", "  -o x.dat: unknown format \".dat\" (want .png .svg .pdf for the figure, .csv .json .ndjson .txt .parquet for the table, or --format)"},
		{TableTarget{Dir: "d"}, "", "  io: --out-dir: the output is one table or one figure; name it with -o"},
		{TableTarget{Terminal: true}, ParquetFormat, "  --format parquet is binary: name -o FILE.parquet or --out-dir DIR, or redirect standard output"},
	} {
		fig, format, err := c.t.FigureOrTable("io", c.asked)
		if got := fmt.Sprint(fig, " ", format, " ", err); got != c.want {
			t.Errorf("%+v %q: %q, want %q", c.t, c.asked, got, c.want)
		}
	}
}

// TestCheckFields: --fields names a table's columns: none beside a
// figure, and a name that picks none is refused once the columns are
// known.
func TestCheckFields(t *testing.T) {
	cols := []Doc{{Name: "stream"}, {Name: "rtt_ms"}}
	for _, c := range []struct {
		fields []string
		figure bool
		cols   []Doc
		want   string
	}{
		{nil, true, cols, "<nil>"},
		{[]string{"all"}, true, cols, "<nil>"},
		{[]string{"stream", "rtt_*"}, false, cols, "<nil>"},
		{[]string{"nope"}, false, nil, "<nil>"},
		{[]string{"stream"}, true, cols, "io: --fields picks the columns of the table; -o with .png .svg .pdf draws the figure"},
		{[]string{"nope"}, false, cols, "io: --fields "},
	} {
		if got := fmt.Sprint(CheckFields("io", c.fields, c.figure, c.cols)); !strings.HasPrefix(got, c.want) || c.want == "io: --fields " && len(got) == len(c.want) {
			t.Errorf("%q (figure %v): %s, want %s", c.fields, c.figure, got, c.want)
		}
	}
}
