package charts

import (
	"io"
	"math"
	"strconv"

	"tcpviz/analyze"
)

// pointColumns are the columns of a graph's point export.
func pointColumns(g *analyze.Graph) []string {
	return append([]string{"frame", "time_s", "series"}, g.Columns...)
}

// writePointsCSV writes the points of g as RFC 4180 CSV, one row per
// point, series after series: frame (1-based, as Wireshark numbers
// packets), time_s (seconds from the graph's time origin, exact to the
// nanosecond), series name, and the graph's value columns. A value a
// series does not have is an empty cell.
func writePointsCSV(w io.Writer, g *analyze.Graph) error {
	cw := NewCSVWriter(w)
	if err := cw.WriteHeader(pointDocs(g)); err != nil {
		return err
	}
	// The CSV writer's typed cells: a million points make no cells.
	for i := range g.Series {
		s := &g.Series[i]
		n := valueCount(g, s)
		for j := range s.Points {
			p := &s.Points[j]
			cw.Int(0, p.Frame)
			cw.Seconds(1, p.Time-g.TimeOrigin)
			cw.String(2, s.Name) // a --label may hold a comma or a quote
			for k := range g.Columns {
				if k < n {
					cw.Number(3+k, p.V[k])
				} else {
					cw.Empty(3 + k)
				}
			}
			if err := cw.EndRow(); err != nil {
				return err
			}
		}
	}
	return cw.Flush()
}

// writePointsJSON writes the points of g as a JSON array of objects with
// the CSV's columns; values a series does not have are left out.
func writePointsJSON(w io.Writer, g *analyze.Graph) error {
	return writePoints(&jsonRows{w: w, keys: jsonKeys(pointDocs(g)), array: true, omitNull: true}, g)
}

// pointDocs are the point export's columns.
func pointDocs(g *analyze.Graph) []Doc {
	names := pointColumns(g)
	docs := make([]Doc, len(names))
	for i, n := range names {
		docs[i] = Doc{Name: n, Kind: Float}
	}
	docs[0].Kind, docs[2].Kind = Int, String
	return docs
}

// writePoints writes the points of g as rows, one reused: the same
// writers as every table's.
func writePoints(rw RowWriter, g *analyze.Graph) error {
	row := make([]Value, 3+len(g.Columns))
	row[0], row[1] = IntV(0), SecondsV(0)
	for k := range g.Columns {
		row[3+k] = FloatV(0, -1)
	}
	for i := range g.Series {
		s := &g.Series[i]
		n := valueCount(g, s)
		row[2] = StrV(s.Name) // a --label may hold a comma or a quote
		for k := range g.Columns {
			row[3+k].Null = k >= n
		}
		for j := range s.Points {
			// The cells' fields set in place: a point costs no new cells.
			p := &s.Points[j]
			t := p.Time - g.TimeOrigin
			row[0].I, row[1].I, row[1].F = p.Frame, t, float64(t)/1e9
			for k := range n {
				row[3+k].F = p.V[k]
			}
			if err := rw.WriteRow(row); err != nil {
				return err
			}
		}
	}
	return rw.Close()
}

func valueCount(g *analyze.Graph, s *analyze.Series) int {
	if s.Kind == analyze.Spans { // a band's start and end: no value
		return 0
	}
	if s.Cols > 0 && s.Cols < len(g.Columns) {
		return s.Cols
	}
	return len(g.Columns)
}

// appendValue appends v as strconv.FormatFloat(v, 'f', -1, 64) writes it,
// whole numbers (most values: bytes, sequence numbers) the faster way.
func appendValue(b []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 && (v != 0 || !math.Signbit(v)) {
		return appendInt(b, int64(v))
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}
