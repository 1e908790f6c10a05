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
// one row group per WriteRows call (per input file), with columns typed
// from the descriptors: integers as INT64, numbers as DOUBLE at full
// precision, booleans, strings as UTF-8, times as TIMESTAMP(NANOS, UTC).
type ParquetWriter struct {
	cols []Doc
	typ  reflect.Type // a struct with one optional field per column
	w    *parquet.Writer
}

// NewParquetWriter starts a Parquet file of the columns on w; Close ends
// it.
func NewParquetWriter(w io.Writer, cols []Doc) *ParquetWriter {
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
	typ := reflect.StructOf(fields)
	schema := parquet.SchemaOf(reflect.New(typ).Interface())
	return &ParquetWriter{cols: cols, typ: typ, w: parquet.NewWriter(w, schema, parquet.Compression(&parquet.Zstd))}
}

// WriteRows writes rows as one row group.
func (pw *ParquetWriter) WriteRows(rows [][]Value) error {
	if len(rows) == 0 {
		return nil
	}
	for _, row := range rows {
		v := reflect.New(pw.typ)
		s := v.Elem()
		for i, cell := range row {
			if cell.Null {
				continue
			}
			var x any
			switch pw.cols[i].Kind {
			case Int, Time:
				x = &cell.I
			case Float:
				x = &cell.F
			case Bool:
				x = &cell.B
			default:
				str := cell.String()
				x = &str
			}
			s.Field(i).Set(reflect.ValueOf(x))
		}
		if err := pw.w.Write(v.Interface()); err != nil {
			return fmt.Errorf("parquet: %w", err)
		}
	}
	if err := pw.w.Flush(); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}

// Close writes the footer.
func (pw *ParquetWriter) Close() error {
	if err := pw.w.Close(); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}
