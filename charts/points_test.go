package charts

import (
	"bytes"
	"encoding/csv"
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
	if err := WritePointsCSV(&buf, g); err != nil {
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
