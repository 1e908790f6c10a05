package charts

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"tcpviz/analyze"
	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
)

// TestParquetEqualsCSV writes the summary of every lab capture (and the
// bundled ones) as Parquet, reads it back with the library, and compares
// every cell with the CSV's: the same columns in the same order, typed,
// nulls where the CSV is empty, numbers equal at the CSV's precision.
func TestParquetEqualsCSV(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(golden.SharedCaptures(), "lab", "*"))
	bundled, _ := filepath.Glob(filepath.Join("..", "testdata", "*.pcap*"))
	paths = append(paths, bundled...)
	table := NewTable(SummaryColumns)
	var buf bytes.Buffer
	pw := NewParquetWriter(&buf, table.Columns)
	for _, path := range paths {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		var rows [][]Value
		_, err := analyze.Run(capturetest.Reader(t, path), analyze.RunOptions{Analyze: true, Keep: -1, OnConn: func(cr *analyze.ConnResult) {
			for d := range cr.Stats {
				rows = append(rows, SummaryColumns.Row(&SummaryRow{File: path, Stats: &cr.Stats[d]}))
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		if err := pw.WriteRows(rows); err != nil { // one row group per capture
			t.Fatal(err)
		}
		table.Rows = append(table.Rows, rows...)
	}
	f := closeAndOpen(t, pw, &buf)
	leaves := f.Schema().Fields()
	if len(leaves) != len(table.Columns) {
		t.Fatalf("%d Parquet columns, %d CSV columns", len(leaves), len(table.Columns))
	}
	for i, c := range table.Columns {
		if leaves[i].Name() != c.Name {
			t.Fatalf("column %d: Parquet %q, CSV %q", i, leaves[i].Name(), c.Name)
		}
	}
	if got := len(f.RowGroups()); got < 4 {
		t.Errorf("%d row groups, want one per capture", got)
	}
	r := parquet.NewReader(bytes.NewReader(buf.Bytes()))
	got := make([]parquet.Row, len(table.Rows)+1)
	n, _ := r.ReadRows(got)
	if n != len(table.Rows) {
		t.Fatalf("%d rows read back, %d written", n, len(table.Rows))
	}
	for i, row := range table.Rows {
		for j, want := range row {
			v := got[i][j]
			name := table.Columns[j].Name
			if v.IsNull() != want.Null {
				t.Fatalf("row %d %s: null %v, CSV %q", i, name, v.IsNull(), want.String())
			}
			if want.Null {
				continue
			}
			var text string
			switch want.Kind {
			case Int:
				text = strconv.FormatInt(v.Int64(), 10)
			case Time:
				text = FormatTime(v.Int64())
			case Float:
				text = FloatV(v.Double(), want.Prec).String()
				if want.ns {
					text = FormatSeconds(int64(v.Double()*1e9 + 0.5))
				}
				if v.Double() != want.F {
					t.Fatalf("row %d %s: %v, want full precision %v", i, name, v.Double(), want.F)
				}
			case Bool:
				text = strconv.FormatBool(v.Boolean())
			default:
				text = string(v.ByteArray())
			}
			if text != want.String() {
				t.Fatalf("row %d %s: Parquet %q, CSV %q", i, name, text, want.String())
			}
		}
	}
	t.Logf("%d rows × %d columns compared", len(table.Rows), len(table.Columns))
}

// TestParquetNotNull: a NotNull column is REQUIRED in the file (no
// definition levels) and delta-encoded, the others OPTIONAL,
// and a null written into a NotNull column is an error, not a zero.
func TestParquetNotNull(t *testing.T) {
	type row struct {
		n  int64
		ok bool
	}
	s := Schema[row]{
		{"always", Int | NotNull, "", "never null", func(r *row) Value { return IntV(r.n) }},
		{"sometimes", Int, "", "null unless ok", func(r *row) Value { return IntV(r.n).Or(r.ok) }},
	}
	docs := s.Docs()
	if !docs[0].NotNull || docs[1].NotNull || docs[0].Kind != Int {
		t.Fatalf("docs %+v: want NotNull on the first only, its kind Int", docs)
	}
	var buf bytes.Buffer
	pw := NewParquetWriter(&buf, docs)
	if err := pw.WriteRows([][]Value{s.Row(&row{1, true}), s.Row(&row{2, false})}); err != nil {
		t.Fatal(err)
	}
	f := closeAndOpen(t, pw, &buf)
	leaves := f.Schema().Fields()
	if !leaves[0].Required() || !leaves[1].Optional() {
		t.Errorf("always required %v, sometimes optional %v", leaves[0].Required(), leaves[1].Optional())
	}
	encodings := func(col int) []format.Encoding { return f.Metadata().RowGroups[0].Columns[col].MetaData.Encoding }
	if !slices.Contains(encodings(0), format.DeltaBinaryPacked) || slices.Contains(encodings(1), format.DeltaBinaryPacked) {
		t.Errorf("encodings: always %v, sometimes %v; want delta for always only", encodings(0), encodings(1))
	}
	rows := make([]parquet.Row, 3)
	n, _ := parquet.NewReader(bytes.NewReader(buf.Bytes())).ReadRows(rows)
	if n != 2 || rows[0][0].Int64() != 1 || rows[1][0].Int64() != 2 || rows[0][1].IsNull() || !rows[1][1].IsNull() {
		t.Errorf("read back %d rows: %v", n, rows[:n])
	}

	pw = NewParquetWriter(&bytes.Buffer{}, docs)
	bad := []Value{IntV(0).Or(false), IntV(1)}
	if err := pw.WriteRows([][]Value{bad}); err == nil || !strings.Contains(err.Error(), "always") {
		t.Errorf("a null in the NotNull column: %v, want an error naming it", err)
	}
	pw.Close()
}

// closeAndOpen closes pw, which wrote to buf, and opens the file it made.
func closeAndOpen(t *testing.T, pw *ParquetWriter, buf *bytes.Buffer) *parquet.File {
	t.Helper()
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return f
}
