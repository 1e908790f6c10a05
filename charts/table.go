package charts

import (
	"bytes"
	"fmt"
	"io"
	"net/netip"
	"path"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// TableFormat selects how a Table is written.
type TableFormat string

// Table formats.
const (
	CSV       TableFormat = "csv"
	JSON      TableFormat = "json"
	TextTable TableFormat = "table"
)

// TableFormats are the table formats, as --format names them.
var TableFormats = []TableFormat{CSV, JSON, NDJSON, TextTable, ParquetFormat}

// Kind is the type of a column's values.
type Kind uint8

// Column kinds.
const (
	String Kind = iota
	Int
	Float
	Bool
	Time // ns since the epoch, written as RFC 3339 UTC with nanoseconds
)

// NotNull marks a column's kind as never null (Int | NotNull): every row
// has the cell. Parquet then writes the column as REQUIRED, without
// definition levels; a null cell in it is an error.
const NotNull Kind = 0x80

func (k Kind) String() string {
	return [...]string{"string", "integer", "number", "boolean", "timestamp"}[k&^NotNull]
}

// Value is one typed cell; Null means "not measurable" (an empty CSV
// cell, JSON null).
type Value struct {
	Kind Kind
	Null bool
	I    int64   // Int, Time
	F    float64 // Float
	Prec int     // Float: decimals written (-1: as few as exact)
	S    string  // String
	B    bool    // Bool
	ns   bool    // Float holding I nanoseconds as seconds, written exactly
	// String holding an address, formatted when written (AddrV): a table
	// of a million connections does not make two million strings.
	addr   netip.Addr
	isAddr bool
}

// Cell constructors.
func IntV(v int64) Value               { return Value{Kind: Int, I: v} }
func FloatV(v float64, prec int) Value { return Value{Kind: Float, F: v, Prec: prec} }
func StrV(s string) Value              { return Value{Kind: String, S: s} }
func BoolV(b bool) Value               { return Value{Kind: Bool, B: b} }
func TimeV(ns int64) Value             { return Value{Kind: Time, I: ns} }

// AddrV is an address as a String cell (written as netip.Addr.String).
func AddrV(a netip.Addr) Value { return Value{Kind: String, addr: a, isAddr: true} }

// SecondsV is a duration in ns as seconds, written with exactly nine
// decimals.
func SecondsV(ns int64) Value {
	return Value{Kind: Float, I: ns, F: float64(ns) / 1e9, Prec: 9, ns: true}
}

// Or returns v, or a null of v's kind when ok is false.
func (v Value) Or(ok bool) Value {
	if !ok {
		return Value{Kind: v.Kind, Null: true}
	}
	return v
}

// String is the cell as CSV and the text table show it ("" for null).
func (v Value) String() string {
	if v.Kind == String && !v.isAddr {
		if v.Null {
			return ""
		}
		return v.S
	}
	var buf [64]byte
	return string(v.Append(buf[:0]))
}

// Append appends the cell as String shows it to dst.
func (v *Value) Append(dst []byte) []byte {
	if v.Null {
		return dst
	}
	switch v.Kind {
	case Int:
		return strconv.AppendInt(dst, v.I, 10)
	case Float:
		if v.ns {
			return AppendSeconds(dst, v.I)
		}
		if v.Prec < 0 {
			return appendValue(dst, v.F)
		}
		return strconv.AppendFloat(dst, v.F, 'f', v.Prec, 64)
	case Bool:
		return strconv.AppendBool(dst, v.B)
	case Time:
		return AppendTime(dst, v.I)
	}
	if v.isAddr {
		if !v.addr.IsValid() || v.addr.Zone() != "" {
			return append(dst, v.addr.String()...) // "invalid IP", a zone
		}
		return v.addr.AppendTo(dst)
	}
	return append(dst, v.S...)
}

// Column describes one column of a table whose rows are R values: one
// definition gives the CSV header, the JSON key and type, the
// documentation and the cell.
type Column[R any] struct {
	Name string // unit-suffixed: duration_s, data_bytes
	Kind Kind
	Unit string // "s", "ms", "B", "bit/s", "packets", "" for none
	Doc  string // what the column means, one sentence
	Cell func(r *R) Value
}

// Schema is a table's columns, in order.
type Schema[R any] []Column[R]

// Doc is a column's description without its cell function.
type Doc struct {
	Name, Unit, Doc string
	Kind            Kind // without NotNull
	NotNull         bool // every row has the cell
}

// Docs describes the columns.
func (s Schema[R]) Docs() []Doc {
	out := make([]Doc, len(s))
	for i, c := range s {
		out[i] = Doc{Name: c.Name, Unit: c.Unit, Doc: c.Doc, Kind: c.Kind &^ NotNull, NotNull: c.Kind&NotNull != 0}
	}
	return out
}

// Row makes the cells of r.
func (s Schema[R]) Row(r *R) []Value { return s.AppendRow(make([]Value, 0, len(s)), r) }

// AppendRow appends the cells of r to dst.
func (s Schema[R]) AppendRow(dst []Value, r *R) []Value {
	for _, c := range s {
		dst = append(dst, c.Cell(r))
	}
	return dst
}

// CSVWriter writes rows of typed cells as RFC 4180 CSV (as encoding/csv
// writes them: "\n" line ends, a field quoted when it holds a comma, a
// quote, a line break or starts with a space, or is \.), one at a time,
// appending into one buffer: for tables streamed as they are made.
type CSVWriter struct {
	w   io.Writer
	buf []byte
	err error // the first write error
	// Times is how Time cells are written, and booleans with
	// TimeSpreadsheet.
	Times TimeFormat
	// The last second a Time cell was in, and its text up to the
	// decimals: a table's times are mostly of the same second.
	sec    int64
	secTxt []byte
	memos  []cellMemo // the typed cells' (Seconds, String), per column
}

// csvFlushAt is how much the CSVWriter buffers before writing.
const csvFlushAt = 64 << 10

// NewCSVWriter returns a writer to w; call Flush at the end.
func NewCSVWriter(w io.Writer) *CSVWriter {
	return &CSVWriter{w: w, buf: make([]byte, 0, csvFlushAt+4096)}
}

// WriteHeader writes the column names.
func (cw *CSVWriter) WriteHeader(cols []Doc) error {
	for i, c := range cols {
		cw.comma(i)
		cw.buf = appendCSVField(cw.buf, c.Name)
	}
	return cw.endRow()
}

// WriteRow writes one row.
func (cw *CSVWriter) WriteRow(row []Value) error {
	for i := range row {
		cw.comma(i)
		cw.cell(&row[i])
	}
	return cw.endRow()
}

// Cells takes a row's cells by type, in its columns' order (i counts
// from 0), without their Values being made: a table's fast path writes
// its rows through it to each format that has one (CSV, Parquet), the
// same cells as its Schema's. EndRow ends the row.
type Cells interface {
	Int(i int, v int64)
	Seconds(i int, ns int64)       // SecondsV's cell
	Float(i int, v float64, p int) // FloatV's cell
	Number(i int, v float64)       // FloatV(v, -1)'s cell
	Bool(i int, b bool)
	// Bools are n boolean cells from column i on: bit k of bits is
	// column i+k's (n ≤ 32).
	Bools(i int, bits uint32, n int)
	String(i int, s string)
	Empty(i int) // a null
	EndRow() error
}

// cellRows is a RowWriter that also takes rows cell by cell.
type cellRows interface {
	RowWriter
	Cells() Cells
}

// Typed cells (Cells), for rows written without making their Values: the
// same quoting and number text as WriteRow's.
func (cw *CSVWriter) Int(i int, v int64) {
	b := cw.buf
	if i > 0 {
		b = append(b, ',')
	}
	cw.buf = appendInt(b, v)
}

// Seconds appends ns as seconds with nine decimals (SecondsV's text).
// The text up to the point is kept per column: a column's times are
// mostly of the second before.
func (cw *CSVWriter) Seconds(i int, ns int64) {
	cw.comma(i)
	m := cw.memo(i)
	if ns < 0 {
		cw.buf = AppendSeconds(cw.buf, ns)
		return
	}
	sec := ns / 1e9
	if !m.set || m.v != sec {
		m.txt = append(strconv.AppendInt(m.txt[:0], sec, 10), '.')
		m.set, m.v = true, sec
	}
	cw.buf = appendNine(append(cw.buf, m.txt...), uint32(ns-sec*1e9))
}

// String appends s, quoted where RFC 4180 needs it. The text is kept per
// column: a column's strings are mostly the one before (a file's name).
func (cw *CSVWriter) String(i int, s string) {
	cw.comma(i)
	m := cw.memo(i)
	if m.set && m.s == s {
		cw.buf = append(cw.buf, m.txt...)
		return
	}
	start := len(cw.buf)
	cw.buf = appendCSVField(cw.buf, s)
	m.set, m.s, m.txt = true, s, append(m.txt[:0], cw.buf[start:]...)
}

// cellMemo is the last cell a column's typed writer wrote: a value and
// its text.
type cellMemo struct {
	set bool
	v   int64
	s   string
	txt []byte
}

// memo is column i's memo.
func (cw *CSVWriter) memo(i int) *cellMemo {
	if i >= len(cw.memos) {
		cw.memos = append(cw.memos, make([]cellMemo, i+1-len(cw.memos))...)
	}
	return &cw.memos[i]
}

// Number appends v with as few decimals as are exact (FloatV(v, -1)).
func (cw *CSVWriter) Number(i int, v float64) {
	cw.comma(i)
	cw.buf = appendValue(cw.buf, v)
}

// Float appends v with p decimals (FloatV(v, p)).
func (cw *CSVWriter) Float(i int, v float64, p int) {
	cw.comma(i)
	if p < 0 {
		cw.buf = appendValue(cw.buf, v)
		return
	}
	cw.buf = appendFloatFixed(cw.buf, v, p)
}

// Bool appends b: true or false, 1 or 0 for spreadsheets.
func (cw *CSVWriter) Bool(i int, b bool) {
	k := 0
	if b {
		k = 1
	}
	if cw.Times == TimeSpreadsheet {
		k += 2
	}
	t := boolCells[k]
	if i == 0 {
		t = t[1:]
	}
	cw.buf = append(cw.buf, t...)
}

// Bools appends n boolean cells (Cells.Bools). Their text is kept per
// first column: a table's flags are mostly those of the row before.
func (cw *CSVWriter) Bools(i int, bits uint32, n int) {
	m := cw.memo(i)
	key := int64(bits) | int64(n)<<32
	if cw.Times == TimeSpreadsheet {
		key |= 1 << 40
	}
	if !m.set || m.v != key {
		t := m.txt[:0]
		for k := range n {
			c := boolCells[int(bits>>k&1)+int(key>>39&2)]
			if i+k == 0 {
				c = c[1:]
			}
			t = append(t, c...)
		}
		m.set, m.v, m.txt = true, key, t
	}
	cw.buf = append(cw.buf, m.txt...)
}

// boolCells are a boolean cell's text after its comma: false, true, and
// for spreadsheets 0, 1.
var boolCells = [4]string{",false", ",true", ",0", ",1"}

// Empty appends an empty (null) cell.
func (cw *CSVWriter) Empty(i int) { cw.comma(i) }

// EndRow ends a row of typed cells.
func (cw *CSVWriter) EndRow() error { return cw.endRow() }

// WriteCSV writes the row of r to cw, cell by cell, without making the
// row's values or strings.
func (s Schema[R]) WriteCSV(cw *CSVWriter, r *R) error {
	for i := range s {
		cw.comma(i)
		v := s[i].Cell(r)
		cw.cell(&v)
	}
	return cw.endRow()
}

// RowMemo writes the last cells of rows once: rows whose keys are equal,
// byte for byte, have the same cells from column Tail on, written for the
// first and copied for the others. A flood of connections that differ in
// their stream, endpoints and times only is written mostly by copying.
// The key must hold everything the cells from Tail on read; compared as
// bytes, two keys may differ where == would not (a string's pointer, -0),
// which costs a copy but never a wrong cell.
type RowMemo[R, K any] struct {
	Tail int
	Key  func(r *R, k *K) // sets *k, the key of r
	memo [4]memoTail[K]   // the last tails written, the oldest replaced
	next int
	key  K
}

type memoTail[K any] struct {
	key   K
	cells []byte
	set   bool
}

// WriteCSV writes the row of r to cw, as s.WriteCSV does.
func (m *RowMemo[R, K]) WriteCSV(cw *CSVWriter, s Schema[R], r *R) error {
	for i := range s[:m.Tail] {
		cw.comma(i)
		v := s[i].Cell(r)
		cw.cell(&v)
	}
	m.Key(r, &m.key)
	kb := rawBytes(&m.key)
	for i := range m.memo {
		if e := &m.memo[i]; e.set && bytes.Equal(rawBytes(&e.key), kb) {
			cw.buf = append(cw.buf, e.cells...)
			return cw.endRow()
		}
	}
	start := len(cw.buf)
	for i := m.Tail; i < len(s); i++ {
		cw.comma(i)
		v := s[i].Cell(r)
		cw.cell(&v)
	}
	e := &m.memo[m.next]
	m.next = (m.next + 1) % len(m.memo)
	e.key, e.cells, e.set = m.key, append(e.cells[:0], cw.buf[start:]...), true
	return cw.endRow()
}

// rawBytes is the memory of *k.
func rawBytes[K any](k *K) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(k)), unsafe.Sizeof(*k))
}

func (cw *CSVWriter) comma(i int) {
	if i > 0 {
		cw.buf = append(cw.buf, ',')
	}
}

// TimeFormat is how a CSV writes times (--time-format).
type TimeFormat string

// Time formats: RFC 3339 UTC with nanoseconds (2026-11-30T21:18:38.686173000Z),
// seconds since the epoch with nine decimals (1796073518.686173000), or
// what spreadsheets' CSV import turns into a date (2026-11-30
// 21:18:38.686173, UTC, to the microsecond), booleans then 1 and 0.
const (
	TimeRFC3339     TimeFormat = "rfc3339"
	TimeEpoch       TimeFormat = "epoch"
	TimeSpreadsheet TimeFormat = "spreadsheet"
)

// TimeFormats are the formats, for --time-format.
var TimeFormats = []TimeFormat{TimeRFC3339, TimeEpoch, TimeSpreadsheet}

// setTimeFormat makes a CSV RowWriter write times (and, for
// spreadsheets, booleans) in f; other formats keep their own.
func setTimeFormat(rw RowWriter, f TimeFormat) {
	if c, ok := rw.(*csvRows); ok {
		c.cw.Times = f
	}
}

// cell appends v: numbers, booleans and times never need quotes.
func (cw *CSVWriter) cell(v *Value) {
	if v.Kind == Time && !v.Null && cw.Times != "" && cw.Times != TimeRFC3339 {
		if cw.Times == TimeEpoch {
			cw.buf = AppendSeconds(cw.buf, v.I)
			return
		}
		cw.buf = time.Unix(0, v.I).UTC().AppendFormat(cw.buf, "2006-01-02 15:04:05.000000")
		return
	}
	if v.Kind == Bool && !v.Null && cw.Times == TimeSpreadsheet {
		if v.B {
			cw.buf = append(cw.buf, '1')
		} else {
			cw.buf = append(cw.buf, '0')
		}
		return
	}
	if v.Kind == Time && !v.Null {
		// ns = sec·1e9 + frac, 0 ≤ frac < 1e9
		sec, frac := v.I/1e9, v.I%1e9
		if frac < 0 {
			sec, frac = sec-1, frac+1e9
		}
		if cw.secTxt == nil || sec != cw.sec {
			t := AppendTime(cw.secTxt[:0], v.I)
			cw.sec, cw.secTxt = sec, t[:len(t)-len("000000000Z")]
		}
		cw.buf = appendDigits(append(cw.buf, cw.secTxt...), int(frac), 9)
		cw.buf = append(cw.buf, 'Z')
		return
	}
	if v.Kind != String || v.Null {
		cw.buf = v.Append(cw.buf)
		return
	}
	if v.isAddr && v.addr.IsValid() && v.addr.Zone() == "" { // digits, dots, colons, hex letters
		cw.buf = v.addr.AppendTo(cw.buf)
		return
	}
	if v.isAddr {
		cw.buf = appendCSVField(cw.buf, v.String())
		return
	}
	cw.buf = appendCSVField(cw.buf, v.S)
}

// endRow ends the line, and writes the buffer out once it is large.
func (cw *CSVWriter) endRow() error {
	cw.buf = append(cw.buf, '\n')
	if len(cw.buf) >= csvFlushAt {
		cw.write()
	}
	return cw.err
}

func (cw *CSVWriter) write() {
	if len(cw.buf) > 0 && cw.err == nil {
		_, cw.err = cw.w.Write(cw.buf)
	}
	cw.buf = cw.buf[:0]
}

// Flush writes what is buffered and returns the first error.
func (cw *CSVWriter) Flush() error {
	cw.write()
	return cw.err
}

// appendCSVField appends field as encoding/csv.Writer writes it.
func appendCSVField(dst []byte, field string) []byte {
	if !csvNeedsQuotes(field) {
		return append(dst, field...)
	}
	dst = append(dst, '"')
	for {
		i := strings.IndexByte(field, '"')
		if i < 0 {
			break
		}
		dst = append(dst, field[:i+1]...)
		dst = append(dst, '"')
		field = field[i+1:]
	}
	dst = append(dst, field...)
	return append(dst, '"')
}

// csvNeedsQuotes is encoding/csv's fieldNeedsQuotes with a comma.
func csvNeedsQuotes(field string) bool {
	if field == "" {
		return false
	}
	if field == `\.` {
		return true
	}
	for i := 0; i < len(field); i++ {
		if c := field[i]; c == '\n' || c == '\r' || c == '"' || c == ',' {
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(field)
	return unicode.IsSpace(r)
}

// Table is tidy data: one row per observation, typed cells.
type Table struct {
	Columns []Doc
	Rows    [][]Value
}

// NewTable returns an empty table with the schema's columns.
func NewTable[R any](s Schema[R]) *Table { return &Table{Columns: s.Docs()} }

// Add appends the row of r.
func AddRow[R any](t *Table, s Schema[R], r *R) { t.Rows = append(t.Rows, s.Row(r)) }

// Write writes the table in format f (see NewRowWriter).
func (t *Table) Write(w io.Writer, f TableFormat) error {
	rw := NewRowWriter(w, f, t.Columns)
	for _, row := range t.Rows {
		if err := rw.WriteRow(row); err != nil {
			return err
		}
	}
	return rw.Close()
}

// WriteCSV writes the rows as CSV, with the header line when header is true.
func (t *Table) WriteCSV(w io.Writer, header bool) error {
	cw := NewCSVWriter(w)
	if header {
		if err := cw.WriteHeader(t.Columns); err != nil {
			return err
		}
	}
	for _, row := range t.Rows {
		if err := cw.WriteRow(row); err != nil {
			return err
		}
	}
	return cw.Flush()
}

func (t *Table) names() []string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return names
}

// writeTextRows writes the table's rows for a terminal, after its header
// if header is set: text cells (file names, labels) with control
// characters or invalid UTF-8 escaped as messages escape them
// (EscapeName), so that no terminal escape passes and a tab or a line
// break does not break the columns. CSV, JSON and Parquet keep them
// exact: they are data.
func (t *Table) writeTextRows(w io.Writer, header bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if header {
		for _, n := range t.names() {
			fmt.Fprintf(tw, "%s\t", EscapeName(n))
		}
		fmt.Fprintln(tw)
	}
	for _, r := range t.Rows {
		for _, c := range r {
			s := c.String()
			if c.Kind == String {
				s = EscapeName(s)
			}
			fmt.Fprintf(tw, "%s\t", s)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// EscapeName is s fit for a terminal: unchanged unless it holds a control
// character (C0, DEL, C1) or invalid UTF-8, then quoted as Go quotes it,
// without the quotes ("a\x1b[31m.pcap"), so that it stays on one line and
// no terminal escape passes.
func EscapeName(s string) string {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\uFFFD' || (r >= 0x80 && r < 0xa0) {
			q := strconv.Quote(s)
			return q[1 : len(q)-1]
		}
	}
	return s
}

// WriteDocs writes one line per column: name, type and unit, meaning.
func WriteDocs(w io.Writer, docs []Doc) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, d := range docs {
		unit := d.Kind.String()
		if d.Unit != "" {
			unit += ", " + d.Unit
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", d.Name, unit, d.Doc)
	}
	return tw.Flush()
}

// Select is the schema of the columns named, in the order given; a name
// with * or ? (rtt_*, *_ms) stands for every column it matches, in the
// schema's order. A name that matches no column is an error naming it.
func (s Schema[R]) Select(names []string) (Schema[R], error) {
	idx, bad := selectNames(len(s), func(i int) string { return s[i].Name }, names)
	if bad != "" {
		return nil, fmt.Errorf("%q: no such column (--columns lists them)", bad)
	}
	out := make(Schema[R], len(idx))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out, nil
}

// selectNames is Select over the n columns name names: the indexes of
// the columns names picks, in its order, each once; bad is a name that
// picks none.
func selectNames(n int, name func(int) string, names []string) (_ []int, bad string) {
	var out []int
	seen := map[int]bool{}
	for _, want := range names {
		found := false
		for i := range n {
			if ok, _ := path.Match(want, name(i)); ok || name(i) == want {
				found = true
				if !seen[i] {
					seen[i] = true
					out = append(out, i)
				}
			}
		}
		if !found {
			return nil, want
		}
	}
	return out, ""
}

// CheckFields is the error (a usage error) of --fields on command cmd
// whose output is one table of cols (nil: known once read, nothing to
// check yet) or a figure: a name that picks no column, or any beside a
// figure.
func CheckFields(cmd string, fields []string, figure bool, cols []Doc) error {
	if len(fields) == 0 || len(fields) == 1 && fields[0] == "all" {
		return nil
	}
	if figure {
		return fmt.Errorf("%s: --fields picks the columns of the table; -o with .png .svg .pdf draws the figure", cmd)
	}
	if _, err := SelectDocs(cols, fields); cols != nil && err != nil {
		return fmt.Errorf("%s: --fields %v", cmd, err)
	}
	return nil
}

// SelectDocs is the indexes of the columns of cols that names picks
// (--fields; as Select), nil for all of them (names empty or "all").
func SelectDocs(cols []Doc, names []string) ([]int, error) {
	if len(names) == 0 || len(names) == 1 && names[0] == "all" {
		return nil, nil
	}
	idx, bad := selectNames(len(cols), func(i int) string { return cols[i].Name }, names)
	if bad != "" {
		all := make([]string, len(cols))
		for i, c := range cols {
			all[i] = c.Name
		}
		return nil, fmt.Errorf("%q: no such column (want %s)", bad, strings.Join(all, ", "))
	}
	return idx, nil
}
