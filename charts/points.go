package charts

import (
	"bufio"
	"encoding/json"
	"io"
	"math"
	"strconv"

	"tcpviz/analyze"
)

// pointColumns are the columns of a graph's point export.
func pointColumns(g *analyze.Graph) []string {
	return append([]string{"frame", "time_s", "series"}, g.Columns...)
}

// WritePointsCSV writes the points of g as RFC 4180 CSV, one row per
// point, series after series: frame (1-based, as Wireshark numbers
// packets), time_s (seconds from the graph's time origin, exact to the
// nanosecond), series name, and the graph's value columns. A value a
// series does not have is an empty cell.
func WritePointsCSV(w io.Writer, g *analyze.Graph) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var line []byte
	for i, c := range pointColumns(g) {
		if i > 0 {
			line = append(line, ',')
		}
		line = append(line, c...)
	}
	line = append(line, '\n')
	bw.Write(line)
	for i := range g.Series {
		s := &g.Series[i]
		n := valueCount(g, s)
		for j := range s.Points {
			p := &s.Points[j]
			line = strconv.AppendInt(line[:0], p.Frame, 10)
			line = append(line, ',')
			line = AppendSeconds(line, p.Time-g.TimeOrigin)
			line = append(line, ',')
			line = appendCSVField(line, s.Name) // a --label may hold a comma or a quote
			for k := range g.Columns {
				line = append(line, ',')
				if k < n {
					line = appendValue(line, p.V[k])
				}
			}
			line = append(line, '\n')
			if _, err := bw.Write(line); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// appendValue appends v as strconv.FormatFloat(v, 'f', -1, 64) writes it,
// whole numbers (most values: bytes, sequence numbers) the faster way.
func appendValue(b []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 && (v != 0 || !math.Signbit(v)) {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// WritePointsJSON writes the points of g as a JSON array of objects with
// the CSV's columns; values a series does not have are left out.
func WritePointsJSON(w io.Writer, g *analyze.Graph) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	keys := make([][]byte, len(g.Columns))
	for k, c := range g.Columns {
		keys[k], _ = json.Marshal(c)
	}
	bw.WriteString("[")
	first := true
	var line []byte
	for i := range g.Series {
		s := &g.Series[i]
		name, _ := json.Marshal(s.Name)
		n := valueCount(g, s)
		for j := range s.Points {
			p := &s.Points[j]
			line = line[:0]
			if !first {
				line = append(line, ',')
			}
			first = false
			line = append(line, "\n  {\"frame\": "...)
			line = strconv.AppendInt(line, p.Frame, 10)
			line = append(line, ", \"time_s\": "...)
			line = AppendSeconds(line, p.Time-g.TimeOrigin)
			line = append(line, ", \"series\": "...)
			line = append(line, name...)
			for k := 0; k < n; k++ {
				line = append(line, ", "...)
				line = append(line, keys[k]...)
				line = append(line, ": "...)
				line = appendValue(line, p.V[k])
			}
			line = append(line, '}')
			if _, err := bw.Write(line); err != nil {
				return err
			}
		}
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

func valueCount(g *analyze.Graph, s *analyze.Series) int {
	if s.Cols > 0 && s.Cols < len(g.Columns) {
		return s.Cols
	}
	return len(g.Columns)
}
