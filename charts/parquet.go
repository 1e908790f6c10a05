package charts

import (
	"fmt"
	"io"
	"reflect"

	"github.com/parquet-go/parquet-go"
)

// ParquetFormat writes a table as Apache Parquet: typed columns with the
// CSV's names, in the same order, nulls where a cell is not measurable.
const ParquetFormat TableFormat = "parquet"

// ParquetWriter writes tables of one set of columns as a Parquet file,
// with columns typed from the descriptors: integers as INT64, numbers as
// DOUBLE at full precision, booleans, strings as UTF-8, times as
// TIMESTAMP(NANOS, UTC). Cells go to the library column by column, a
// batch of rows at a time, as its own values (parquet.Value), without
// reflection or rows.
type ParquetWriter struct {
	cols  []Doc
	leaf  []int // the Parquet leaf column of each column
	w     *parquet.Writer
	vals  [][]parquet.Value // per column, the batch's cells
	bytes []byte            // the text of the batch's string cells
}

// parquetBatch is how many rows are handed to the library at once.
const parquetBatch = 512

// NewParquetWriter starts a Parquet file of the columns on w; Close ends
// it.
func NewParquetWriter(w io.Writer, cols []Doc) *ParquetWriter {
	// A struct type gives the schema its columns in their order (a
	// parquet.Group would sort them by name).
	fields := make([]reflect.StructField, len(cols))
	for i, c := range cols {
		tag := c.Name + ",optional"
		var t reflect.Type
		switch c.Kind {
		case Int:
			t = reflect.TypeFor[*int64]()
		case Float:
			t = reflect.TypeFor[*float64]()
		case Bool:
			t = reflect.TypeFor[*bool]()
		case Time:
			t = reflect.TypeFor[*int64]()
			tag += ",timestamp(nanosecond:utc)"
		default:
			t = reflect.TypeFor[*string]()
		}
		fields[i] = reflect.StructField{Name: fmt.Sprintf("C%d", i), Type: t, Tag: reflect.StructTag(`parquet:"` + tag + `"`)}
	}
	schema := parquet.SchemaOf(reflect.New(reflect.StructOf(fields)).Interface())
	pw := &ParquetWriter{cols: cols, leaf: make([]int, len(cols)),
		w: parquet.NewWriter(w, schema, parquet.Compression(&parquet.Zstd))}
	for i, c := range cols {
		leaf, _ := schema.Lookup(c.Name)
		pw.leaf[i] = leaf.ColumnIndex
	}
	pw.vals = make([][]parquet.Value, len(cols))
	for i := range pw.vals {
		pw.vals[i] = make([]parquet.Value, 0, parquetBatch)
	}
	return pw
}

// add appends one row to the batch, handing the batch over when full.
func (pw *ParquetWriter) add(row []Value) error {
	for i := range row {
		cell := &row[i]
		switch {
		case cell.Null:
			pw.null(i)
		case pw.cols[i].Kind == Int || pw.cols[i].Kind == Time:
			pw.cell(i, parquet.Int64Value(cell.I))
		case pw.cols[i].Kind == Float:
			pw.cell(i, parquet.DoubleValue(cell.F))
		case pw.cols[i].Kind == Bool:
			pw.cell(i, parquet.BooleanValue(cell.B))
		case cell.isAddr:
			start := len(pw.bytes)
			pw.bytes = cell.Append(pw.bytes)
			pw.text(i, start)
		default:
			pw.str(i, cell.S)
		}
	}
	return pw.endRow()
}

// cell appends v, not null, to column i's batch.
func (pw *ParquetWriter) cell(i int, v parquet.Value) {
	v.SetDefinitionLevel(1)
	v.SetColumnIndex(pw.leaf[i])
	pw.vals[i] = append(pw.vals[i], v)
}

// null appends a null to column i's batch.
func (pw *ParquetWriter) null(i int) {
	var v parquet.Value
	v.SetColumnIndex(pw.leaf[i])
	pw.vals[i] = append(pw.vals[i], v)
}

// str appends s to column i's batch.
func (pw *ParquetWriter) str(i int, s string) {
	start := len(pw.bytes)
	pw.bytes = append(pw.bytes, s...)
	pw.text(i, start)
}

// text appends the text the batch's buffer holds from start on to column
// i's batch. The batch's text is in one buffer: a cell keeps pointing at
// its bytes when the buffer grows elsewhere, and the buffer is reused once
// the library has copied them.
func (pw *ParquetWriter) text(i, start int) {
	end := len(pw.bytes)
	pw.cell(i, parquet.ByteArrayValue(pw.bytes[start:end:end]))
}

// endRow ends a row, handing the batch over when it is full.
func (pw *ParquetWriter) endRow() error {
	if len(pw.vals[0]) >= parquetBatch {
		return pw.flushBatch()
	}
	return nil
}

// flushBatch hands the batch's cells to the library, which copies them.
func (pw *ParquetWriter) flushBatch() error {
	if len(pw.vals) == 0 || len(pw.vals[0]) == 0 {
		return nil
	}
	cws := pw.w.ColumnWriters()
	var err error
	for i, vals := range pw.vals {
		if err == nil {
			_, err = cws[pw.leaf[i]].WriteRowValues(vals)
		}
		pw.vals[i] = vals[:0]
	}
	pw.bytes = pw.bytes[:0]
	if err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}

// WriteRows writes rows as one row group.
func (pw *ParquetWriter) WriteRows(rows [][]Value) error {
	if len(rows) == 0 {
		return nil
	}
	for _, row := range rows {
		if err := pw.add(row); err != nil {
			return err
		}
	}
	return pw.endGroup()
}

// endGroup ends the row group of the rows added.
func (pw *ParquetWriter) endGroup() error {
	if err := pw.flushBatch(); err != nil {
		return err
	}
	if err := pw.w.Flush(); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}

// Close writes the footer.
func (pw *ParquetWriter) Close() error {
	if err := pw.flushBatch(); err != nil {
		return err
	}
	if err := pw.w.Close(); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}
