package charts

import (
	"fmt"
	"io"
	"reflect"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"
)

// ParquetFormat writes a table as Apache Parquet: typed columns with the
// CSV's names, in the same order, nulls where a cell is not measurable.
const ParquetFormat TableFormat = "parquet"

// ParquetWriter writes tables of one set of columns as a Parquet file,
// with columns typed from the descriptors: integers as INT64, numbers as
// DOUBLE at full precision, booleans, strings as UTF-8 (dictionary-
// encoded), times as TIMESTAMP(NANOS, UTC); NotNull columns REQUIRED, their
// integers and times DELTA_BINARY_PACKED and their numbers
// BYTE_STREAM_SPLIT, the others OPTIONAL. Cells are made in place in a
// batch of rows, column by column, as the library's own values
// (parquet.Value), and go to it a column at a time, without reflection or
// rows. A row group is encoded, compressed and written on a goroutine of
// its own while the next one is filled (Failed says at once when that
// failed).
type ParquetWriter struct {
	cols    []Doc
	leaf    []int  // the Parquet leaf column of each column
	def     []byte // the definition level of each column's cells: 0 where REQUIRED
	nullErr error  // a null in a NotNull column
	w       *parquet.Writer
	vals    [][]parquet.Value  // per column, the batch's cells (parquetBatch)
	n       int                // the batch's rows
	bools   [][2]parquet.Value // per column, its cells false and true
	bytes   []byte             // the text of the batch's string cells
	rg      *parquet.ConcurrentRowGroupWriter
	rows    int                                    // in rg
	full    chan *parquet.ConcurrentRowGroupWriter // to the committer
	free    chan *parquet.ConcurrentRowGroupWriter // committed, for reuse
	done    chan struct{}                          // the committer ended
	err     error                                  // the committer's first, read after done or from errc
	errc    chan error                             // the committer's first error, once
	// failed is set by the committer at its first error.
	failed atomic.Bool
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
		tag := c.Name
		if !c.NotNull {
			tag += ",optional"
		}
		var t reflect.Type
		switch c.Kind {
		case Int:
			t = reflect.TypeFor[int64]()
		case Float:
			t = reflect.TypeFor[float64]()
		case Bool:
			t = reflect.TypeFor[bool]()
		case Time:
			t = reflect.TypeFor[int64]()
			tag += ",timestamp(nanosecond:utc)"
		default:
			// Dictionary-encoded: a table's strings repeat (the file's
			// name on every row, a direction, a set of flags).
			t = reflect.TypeFor[string]()
			tag += ",dict"
		}
		switch {
		case !c.NotNull:
			t = reflect.PointerTo(t)
		case c.Kind == Int || c.Kind == Time:
			// A dense column (a cell on every row, packets' frame, seq,
			// len): the differences of consecutive values, bit-packed,
			// leave zstd several times less to compress.
			tag += ",delta"
		case c.Kind == Float:
			tag += ",split" // the bytes split by significance, for the same
		}
		fields[i] = reflect.StructField{Name: fmt.Sprintf("C%d", i), Type: t, Tag: reflect.StructTag(`parquet:"` + tag + `"`)}
	}
	schema := parquet.SchemaOf(reflect.New(reflect.StructOf(fields)).Interface())
	pw := &ParquetWriter{cols: cols, leaf: make([]int, len(cols)), def: make([]byte, len(cols)),
		w: parquet.NewWriter(w, schema, parquet.Compression(&parquet.Zstd))}
	for i, c := range cols {
		leaf, _ := schema.Lookup(c.Name)
		pw.leaf[i] = leaf.ColumnIndex
		if !c.NotNull {
			pw.def[i] = 1
		}
	}
	pw.full, pw.free = make(chan *parquet.ConcurrentRowGroupWriter), make(chan *parquet.ConcurrentRowGroupWriter, 2)
	pw.done, pw.errc = make(chan struct{}), make(chan error, 1)
	pw.rg = pw.w.BeginRowGroup()
	pw.free <- pw.w.BeginRowGroup()
	go pw.commit()
	pw.vals, pw.bools = make([][]parquet.Value, len(cols)), make([][2]parquet.Value, len(cols))
	for i := range pw.vals {
		pw.vals[i] = make([]parquet.Value, parquetBatch)
		for k, b := range []bool{false, true} {
			v := &pw.bools[i][k]
			*v = parquet.BooleanValue(b)
			pw.levels(v, i)
		}
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
			pw.int64(i, cell.I)
		case pw.cols[i].Kind == Float:
			pw.double(i, cell.F)
		case pw.cols[i].Kind == Bool:
			pw.boolean(i, cell.B)
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

// The cells of the batch's next row, column i's, not null. Each is made
// where it stays, in column i's batch: a parquet.Value made aside and then
// copied costs several times more (its fields are of mixed sizes).
func (pw *ParquetWriter) int64(i int, x int64) {
	v := &pw.vals[i][pw.n]
	*v = parquet.Int64Value(x)
	pw.levels(v, i)
}

func (pw *ParquetWriter) double(i int, x float64) {
	v := &pw.vals[i][pw.n]
	*v = parquet.DoubleValue(x)
	pw.levels(v, i)
}

// boolean copies one of the column's two cells, made once.
func (pw *ParquetWriter) boolean(i int, b bool) {
	k := 0
	if b {
		k = 1
	}
	pw.vals[i][pw.n] = pw.bools[i][k]
}

// levels sets the definition level and the column of v, column i's cell.
func (pw *ParquetWriter) levels(v *parquet.Value, i int) {
	if d := pw.def[i]; d != 0 {
		v.SetDefinitionLevel(int(d))
	}
	v.SetColumnIndex(pw.leaf[i])
}

// null sets the batch's next row's cell of column i to a null; in a
// NotNull column, it is the row's error (endRow returns it).
func (pw *ParquetWriter) null(i int) {
	if pw.def[i] == 0 && pw.nullErr == nil {
		pw.nullErr = fmt.Errorf("parquet: a null in column %s, which is never null", pw.cols[i].Name)
	}
	v := &pw.vals[i][pw.n]
	*v = parquet.Value{}
	v.SetColumnIndex(pw.leaf[i])
}

// str sets the batch's next row's cell of column i to s.
func (pw *ParquetWriter) str(i int, s string) {
	start := len(pw.bytes)
	pw.bytes = append(pw.bytes, s...)
	pw.text(i, start)
}

// text sets the batch's next row's cell of column i to the text the
// batch's buffer holds from start on. The batch's text is in one buffer: a
// cell keeps pointing at its bytes when the buffer grows elsewhere, and
// the buffer is reused once the library has copied them.
func (pw *ParquetWriter) text(i, start int) {
	end := len(pw.bytes)
	v := &pw.vals[i][pw.n]
	*v = parquet.ByteArrayValue(pw.bytes[start:end:end])
	pw.levels(v, i)
}

// endRow ends a row, handing the batch over when it is full.
func (pw *ParquetWriter) endRow() error {
	if pw.nullErr != nil {
		return pw.nullErr
	}
	pw.n++
	if pw.n >= parquetBatch {
		return pw.flushBatch()
	}
	return nil
}

// flushBatch hands the batch's cells to the library, which copies them.
func (pw *ParquetWriter) flushBatch() error {
	if pw.n == 0 {
		return nil
	}
	cws := pw.rg.ColumnWriters()
	pw.rows += pw.n
	var err error
	for i, vals := range pw.vals {
		if err == nil {
			_, err = cws[pw.leaf[i]].WriteRowValues(vals[:pw.n])
		}
	}
	pw.n = 0
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
	select {
	case err := <-pw.errc:
		pw.errc <- err
		return err
	default:
	}
	if pw.rows == 0 {
		return nil
	}
	pw.full <- pw.rg
	pw.rg, pw.rows = <-pw.free, 0
	return nil
}

// commit encodes, compresses and writes the row groups it is handed, in
// order, and hands them back for reuse.
func (pw *ParquetWriter) commit() {
	defer close(pw.done)
	for rg := range pw.full {
		if pw.err == nil {
			if err := rg.Flush(); err != nil {
				pw.err = err
			} else if _, err := rg.Commit(); err != nil {
				pw.err = err
			}
			if pw.err != nil {
				pw.err = fmt.Errorf("parquet: %w", pw.err)
				pw.errc <- pw.err
				pw.failed.Store(true)
			}
		}
		pw.free <- rg
	}
}

// Failed says whether writing a row group has failed, as soon as the
// goroutine writing it knows (the error comes back from the next
// WriteRows, or from Close); safe from any goroutine.
func (pw *ParquetWriter) Failed() bool { return pw.failed.Load() }

// Close writes the last row group and the footer.
func (pw *ParquetWriter) Close() error {
	err := pw.endGroup()
	close(pw.full)
	<-pw.done
	if err == nil {
		err = pw.err
	}
	if err != nil {
		return err
	}
	if err := pw.w.Close(); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}
