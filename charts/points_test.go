package charts

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"tcpviz/analyze"
)

// TestPointsCSVQuotesSeriesNames: a series named by the user (compare's
// --label) may hold a comma or a quote; the points CSV still parses, each
// row with the header's fields.
func TestPointsCSVQuotesSeriesNames(t *testing.T) {
	g := &analyze.Graph{Columns: []string{"bytes"}, Series: []analyze.Series{
		{Name: `no PEP, 10ms`, Points: []analyze.Point{{Frame: 1, Time: 1e9, V: [3]float64{5}}}},
		{Name: `"PEP"`, Points: []analyze.Point{{Frame: 2, Time: 2e9, V: [3]float64{7}}}},
	}}
	var buf bytes.Buffer
	if err := writePointsCSV(&buf, g); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(rows) != 3 || rows[1][2] != `no PEP, 10ms` || rows[2][2] != `"PEP"` || len(rows[1]) != 4 {
		t.Errorf("rows %q", rows)
	}
}

// TestRowWritersAgree: every format's RowWriter writes the same cells —
// CSV and NDJSON parsed back equal, JSON's array holds NDJSON's objects,
// a null is an empty CSV cell and a JSON null — and Table.Write is the
// RowWriter's output.
func TestRowWritersAgree(t *testing.T) {
	cols := []Doc{{Name: "n", Kind: Int}, {Name: "x", Kind: Float}, {Name: "s", Kind: String}, {Name: "b", Kind: Bool}}
	rows := [][]Value{
		{IntV(1), FloatV(2.5, 3), StrV("a, \"b\""), BoolV(true)},
		{IntV(-7), FloatV(0, 3).Or(false), StrV(""), BoolV(false).Or(false)},
	}
	write := func(f TableFormat) string {
		var buf bytes.Buffer
		rw := NewRowWriter(&buf, f, cols)
		for _, r := range rows {
			if err := rw.WriteRow(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := rw.Close(); err != nil {
			t.Fatal(err)
		}
		tab := &Table{Columns: cols, Rows: rows}
		var viaTable bytes.Buffer
		if err := tab.Write(&viaTable, f); err != nil || viaTable.String() != buf.String() {
			t.Errorf("%s: Table.Write differs from the RowWriter (%v)", f, err)
		}
		return buf.String()
	}
	recs, err := csv.NewReader(strings.NewReader(write(CSV))).ReadAll()
	if err != nil || len(recs) != 3 || recs[1][2] != `a, "b"` || recs[2][1] != "" || recs[2][3] != "" {
		t.Fatalf("csv %q (%v)", recs, err)
	}
	var arr []map[string]any
	if err := json.Unmarshal([]byte(write(JSON)), &arr); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(write(NDJSON), "\n"), "\n")
	if len(arr) != 2 || len(lines) != 2 {
		t.Fatalf("json %v, ndjson %q", arr, lines)
	}
	for i, l := range lines {
		var obj map[string]any
		if err := json.Unmarshal([]byte(l), &obj); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(obj, arr[i]) {
			t.Errorf("row %d: ndjson %v, json %v", i, obj, arr[i])
		}
		if fmt.Sprint(obj["n"]) != recs[i+1][0] || obj["s"] != recs[i+1][2] {
			t.Errorf("row %d: json %v, csv %q", i, obj, recs[i+1])
		}
	}
	if arr[1]["x"] != nil || arr[1]["b"] != nil {
		t.Errorf("nulls: %v", arr[1])
	}
}
