package charts

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// RowWriter writes the rows of a table, one format each: the one way
// tables and graph points are written (NewRowWriter).
type RowWriter interface {
	// WriteRow writes one row, its cells in the columns' order. The writer
	// does not keep row: the caller may reuse it.
	WriteRow(row []Value) error
	// EndGroup ends a group of rows: a Parquet row group (one per input),
	// nothing in the other formats.
	EndGroup() error
	// Close writes what is left (the text table, JSON's closing bracket,
	// Parquet's footer) and returns the first error.
	Close() error
}

// csvRowWriter is a RowWriter that also writes straight to its CSVWriter, for
// rows written from their records without making their cells
// (Schema.WriteCSV, RowMemo).
type csvRowWriter interface {
	RowWriter
	CSV() *CSVWriter
}

// NewFieldsWriter is NewRowWriter of the columns of cols that fields
// picks (--fields, SelectDocs; empty: all), in its order: rows are given
// whole, with every column's cell.
func NewFieldsWriter(w io.Writer, f TableFormat, cols []Doc, fields []string) (RowWriter, error) {
	idx, err := SelectDocs(cols, fields)
	if err != nil || idx == nil {
		return NewRowWriter(w, f, cols), err
	}
	sel := make([]Doc, len(idx))
	for i, j := range idx {
		sel[i] = cols[j]
	}
	return &fieldRows{rw: NewRowWriter(w, f, sel), idx: idx}, nil
}

// fieldRows writes the cells idx picks of each row to rw.
type fieldRows struct {
	rw  RowWriter
	idx []int
	row []Value
}

func (r *fieldRows) WriteRow(row []Value) error {
	r.row = r.row[:0]
	for _, j := range r.idx {
		r.row = append(r.row, row[j])
	}
	return r.rw.WriteRow(r.row)
}

func (r *fieldRows) EndGroup() error { return r.rw.EndGroup() }
func (r *fieldRows) Close() error    { return r.rw.Close() }

// NDJSON is JSON with one object a line (newline-delimited JSON).
const NDJSON TableFormat = "ndjson"

// NewRowWriter returns the writer of rows of cols in format f to w: CSV
// (RFC 4180, a header line; the default), JSON (one array of objects, a
// null for what is not measurable), NDJSON (one object a line), the text
// table (aligned for a terminal, kept until Close) or Parquet (typed
// columns, a row group at each EndGroup and every 65,536 rows).
func NewRowWriter(w io.Writer, f TableFormat, cols []Doc) RowWriter {
	switch f {
	case JSON:
		return &jsonRows{w: w, keys: jsonKeys(cols), array: true}
	case NDJSON:
		return &jsonRows{w: w, keys: jsonKeys(cols)}
	case TextTable:
		return &textRows{w: w, t: Table{Columns: cols}}
	case ParquetFormat:
		return &parquetRows{pw: NewParquetWriter(w, cols)}
	}
	cw := NewCSVWriter(w)
	return &csvRows{cw: cw, err: cw.WriteHeader(cols)}
}

type csvRows struct {
	cw  *CSVWriter
	err error
}

func (c *csvRows) CSV() *CSVWriter { return c.cw }

func (c *csvRows) Cells() Cells { return c.cw }

func (c *csvRows) WriteRow(row []Value) error {
	if c.err != nil {
		return c.err
	}
	return c.cw.WriteRow(row)
}

func (c *csvRows) EndGroup() error { return c.cw.Flush() }

func (c *csvRows) Close() error {
	if c.err != nil {
		return c.err
	}
	return c.cw.Flush()
}

// jsonKeys are the columns' names as JSON strings.
func jsonKeys(cols []Doc) [][]byte {
	keys := make([][]byte, len(cols))
	for i, c := range cols {
		keys[i], _ = json.Marshal(c.Name)
	}
	return keys
}

// jsonRows writes objects: in an array ("[", then "\n  {...}" separated
// by commas, then "\n]\n") or one a line. OmitNull leaves out the keys of
// null cells (a graph's points: a value a series does not have).
type jsonRows struct {
	w        io.Writer
	keys     [][]byte
	array    bool
	omitNull bool
	n        int
	buf      []byte
	err      error
}

// jsonFlushAt is how much jsonRows buffers before writing.
const jsonFlushAt = 64 << 10

func (j *jsonRows) WriteRow(row []Value) error {
	if j.err != nil {
		return j.err
	}
	if j.array {
		if j.n == 0 {
			j.buf = append(j.buf, '[')
		} else {
			j.buf = append(j.buf, ',')
		}
		j.buf = append(j.buf, "\n  "...)
	}
	j.buf = append(j.buf, '{')
	first := true
	for i, c := range row {
		if j.omitNull && c.Null {
			continue
		}
		if !first {
			j.buf = append(j.buf, ", "...)
		}
		first = false
		j.buf = append(j.buf, j.keys[i]...)
		j.buf = append(j.buf, ": "...)
		j.buf = c.appendJSON(j.buf)
	}
	j.buf = append(j.buf, '}')
	if !j.array {
		j.buf = append(j.buf, '\n')
	}
	j.n++
	if len(j.buf) >= jsonFlushAt {
		j.flush()
	}
	return j.err
}

func (j *jsonRows) flush() {
	if j.err == nil && len(j.buf) > 0 {
		_, j.err = j.w.Write(j.buf)
	}
	j.buf = j.buf[:0]
}

func (j *jsonRows) EndGroup() error { j.flush(); return j.err }

func (j *jsonRows) Close() error {
	if j.array {
		if j.n == 0 {
			j.buf = append(j.buf, '[')
		}
		j.buf = append(j.buf, "\n]\n"...)
	}
	j.flush()
	return j.err
}

// appendJSON appends the cell as a JSON value (Value.json's).
func (v Value) appendJSON(dst []byte) []byte {
	if v.Null {
		return append(dst, "null"...)
	}
	switch v.Kind {
	case Int, Float, Bool:
		return v.Append(dst)
	}
	str := v.String()
	if !strings.ContainsAny(str, "<>&") {
		b, _ := json.Marshal(str)
		return append(dst, b...)
	}
	// As tshark -T ek and Zeek write them: < > & as they are, not as
	// json.Marshal's HTML-safe \u003c \u003e \u0026.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(str)
	return append(dst, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// textRows keeps the rows: a text table aligns its columns on all of
// them, up to textHoldRows; a longer table is written in blocks of as
// many rows, each aligned on its own, so that what is held stays bounded
// (an I/O table of 16 M rows held 3 GB before printing anything).
type textRows struct {
	w       io.Writer
	t       Table
	started bool // a block was written (and the header with it)
}

// textHoldRows is the most rows a text table holds before writing them.
const textHoldRows = 1 << 16

func (x *textRows) WriteRow(row []Value) error {
	x.t.Rows = append(x.t.Rows, append([]Value(nil), row...))
	if len(x.t.Rows) >= textHoldRows {
		return x.flush()
	}
	return nil
}

// flush writes the rows held (after the header, the first time) and
// lets them go.
func (x *textRows) flush() error {
	err := x.t.writeTextRows(x.w, !x.started)
	x.started = true
	clear(x.t.Rows)
	x.t.Rows = x.t.Rows[:0]
	return err
}

func (x *textRows) EndGroup() error { return nil }

func (x *textRows) Close() error {
	if x.started && len(x.t.Rows) == 0 {
		return nil
	}
	return x.flush()
}

// parquetRows writes row groups of at most parquetGroupRows rows.
type parquetRows struct {
	pw   *ParquetWriter
	rows int // in the row group
	err  error
}

// parquetGroupRows bounds a row group, and parquetGroupCells its cells:
// a wide table's groups are shorter, so that what the library holds for
// a group stays bounded whatever the columns.
const (
	parquetGroupRows  = 1 << 16
	parquetGroupCells = 1 << 19
)

func (p *parquetRows) WriteRow(row []Value) error {
	if p.err != nil {
		return p.err
	}
	p.err = p.pw.add(row)
	p.rows++
	if p.rows >= parquetGroupRows || p.rows*len(row) >= parquetGroupCells {
		return p.EndGroup()
	}
	return p.err
}

func (p *parquetRows) Cells() Cells { return p }

// Failed says whether a row group failed to be written (ParquetWriter.Failed).
func (p *parquetRows) Failed() bool { return p.pw.Failed() }

// The cells of a row (Cells); EndRow counts it into the row group.
func (p *parquetRows) Int(i int, v int64)            { p.pw.int64(i, v) }
func (p *parquetRows) Seconds(i int, ns int64)       { p.pw.double(i, float64(ns)/1e9) }
func (p *parquetRows) Float(i int, v float64, _ int) { p.pw.double(i, v) }
func (p *parquetRows) Number(i int, v float64)       { p.pw.double(i, v) }
func (p *parquetRows) Bool(i int, b bool)            { p.pw.boolean(i, b) }
func (p *parquetRows) String(i int, s string)        { p.pw.str(i, s) }
func (p *parquetRows) Empty(i int)                   { p.pw.null(i) }
func (p *parquetRows) Bools(i int, bits uint32, n int) {
	for k := range n {
		p.pw.boolean(i+k, bits>>k&1 != 0)
	}
}
func (p *parquetRows) EndRow() error {
	if p.err != nil {
		return p.err
	}
	p.err = p.pw.endRow()
	p.rows++
	if p.rows >= parquetGroupRows || p.rows*len(p.pw.cols) >= parquetGroupCells {
		return p.EndGroup()
	}
	return p.err
}

func (p *parquetRows) EndGroup() error {
	if p.err == nil && p.rows > 0 {
		p.err = p.pw.endGroup()
	}
	p.rows = 0
	return p.err
}

func (p *parquetRows) Close() error {
	p.EndGroup()
	if err := p.pw.Close(); p.err == nil {
		p.err = err
	}
	return p.err
}
