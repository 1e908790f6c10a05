package charts

import (
	"bytes"
	"errors"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"

	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// outRow is a row of the tests' table: its input and its number there.
type outRow struct{ in, n int }

var outTable = TableKind[outRow]{Schema: Schema[outRow]{
	{Name: "input", Kind: Int, Cell: func(r *outRow) Value { return IntV(int64(r.in)) }},
	{Name: "n", Kind: Int, Cell: func(r *outRow) Value { return IntV(int64(r.n)) }},
}}

// rowsOf gives input i's rows 0..n-1 to add.
func rowsOf(i, n int) func(add func(*outRow)) {
	return func(add func(*outRow)) {
		for k := range n {
			add(&outRow{i, k})
		}
	}
}

// TestTableOutputInputOrder: several inputs' rows are written in input
// order whatever order they are read in, a Parquet row group each; one
// input's rows stream.
func TestTableOutputInputOrder(t *testing.T) {
	var buf bytes.Buffer
	out := outTable.Output(&buf, TableOptions{Format: CSV, Inputs: 3})
	if out.Jobs(4) != 4 {
		t.Fatal("three inputs of a row per connection stream")
	}
	for _, i := range []int{2, 0, 1} {
		out.Rows(i, rowsOf(i, 2))
	}
	if buf.Len() != 0 {
		t.Fatalf("rows written before their input ended: %q", buf.String())
	}
	for i := range 3 {
		out.EndInput(i)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if want := "input,n\n0,0\n0,1\n1,0\n1,1\n2,0\n2,1\n"; buf.String() != want {
		t.Errorf("CSV %q, want %q", buf.String(), want)
	}

	buf.Reset()
	out = outTable.Output(&buf, TableOptions{Format: ParquetFormat, Inputs: 3})
	for i := range 3 {
		out.Rows(i, rowsOf(i, i+1))
	}
	for i := range 3 {
		out.EndInput(i)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.RowGroups()); n != 3 {
		t.Errorf("%d row groups, want one per input", n)
	}

	buf.Reset()
	cleared := 0
	out = outTable.Output(&buf, TableOptions{Format: CSV, Inputs: 1, Clear: func() { cleared++ }})

	out.Rows(0, rowsOf(0, 3))
	out.EndInput(0)
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if cleared != 3 || buf.String() != "input,n\n0,0\n0,1\n0,2\n" {
		t.Errorf("one input: cleared %d times (want 3), wrote %q", cleared, buf.String())
	}
}

// TestTableOutputRowPerPacket: a row per packet streams, several inputs
// one after the other, a row group each.
func TestTableOutputRowPerPacket(t *testing.T) {
	kind := outTable
	kind.Segment = func(*outRow, string, int64, *reassembly.Conn, *analyze.Record) {}
	var buf bytes.Buffer
	out := kind.Output(&buf, TableOptions{Format: CSV, Times: TimeEpoch, Inputs: 2})
	if out.Jobs(4) != 1 {
		t.Fatal("a row per packet is collected")
	}
	out.Rows(0, rowsOf(0, 2000))
	out.Rows(1, rowsOf(1, 1))
	out.EndInput(0)
	out.EndInput(1)
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	want := "input,n\n"
	for k := range 2000 {
		want += "0," + strconv.Itoa(k) + "\n"
	}
	if want += "1,0\n"; buf.String() != want {
		t.Errorf("rows per packet: %d bytes, want %d", buf.Len(), len(want))
	}
}

// brokenWriter fails every write.
type brokenWriter struct{}

var errBroken = errors.New("no space left on device")

func (brokenWriter) Write([]byte) (int, error) { return 0, errBroken }

// TestTableOutputFails: a failed write says so at once (the reading can
// stop), the inputs after it are not written, and Close returns it.
func TestTableOutputFails(t *testing.T) {
	out := outTable.Output(brokenWriter{}, TableOptions{Format: NDJSON, Inputs: 2})
	out.Rows(0, rowsOf(0, 1))
	out.Rows(1, rowsOf(1, 1))
	if out.Failed() {
		t.Fatal("failed before writing")
	}
	out.EndInput(0)
	if !out.Failed() {
		t.Fatal("a failed write is not seen")
	}
	out.EndInput(1)
	if err := out.Close(); !errors.Is(err, errBroken) {
		t.Errorf("Close: %v, want the write's error", err)
	}
}
