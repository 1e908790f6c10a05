package charts

import (
	"io"
	"sync/atomic"

	"tcpviz/internal/batch"
)

// TableOptions are how a table of several inputs' rows is written
// (TableKind.Output).
type TableOptions struct {
	Format TableFormat
	// Times is how CSV writes times (and, for spreadsheets, booleans).
	Times TimeFormat
	// Inputs is how many inputs give rows, numbered from 0.
	Inputs int
	// Clear, if set, is called before rows are written: a progress bar
	// shares the terminal they go to. Rows are then written on the
	// goroutine that reads them.
	Clear func()
}

// TableOutput writes one table of several inputs' rows to one writer in
// one format. One input streams its rows as they come (CSV straight
// from the records where the table allows it); several are collected
// per input and written in input order (EndInput), a Parquet row group
// each. A row per packet is never collected: several inputs are then
// read one after the other (Streams), each streamed, a Parquet row group
// (at least) each. A failed write stops the writing: Failed then says
// so, and Close returns the write's error.
type TableOutput[R any] struct {
	kind     TableKind[R]
	rw       RowWriter
	opts     TableOptions
	stream   bool
	perInput [][][]Value
	err      error // the first write error
	stopped  atomic.Bool
}

// Output is the writer of t's rows of o.Inputs inputs to w.
func (t TableKind[R]) Output(w io.Writer, o TableOptions) *TableOutput[R] {
	rw := NewRowWriter(w, o.Format, t.Schema.Docs())
	setTimeFormat(rw, o.Times)
	return &TableOutput[R]{kind: t, rw: rw, opts: o,
		stream:   o.Inputs == 1 || t.Segment != nil,
		perInput: make([][][]Value, o.Inputs)}
}

// Jobs is how many of jobs inputs may be read at once: one when several
// inputs' rows are written as they are read.
func (t *TableOutput[R]) Jobs(jobs int) int {
	if t.stream && t.opts.Inputs > 1 {
		return 1
	}
	return jobs
}

// keep records a write's error, the first one stopping the writing.
func (t *TableOutput[R]) keep(err error) {
	if err != nil && t.err == nil {
		t.err = err
		t.stopped.Store(true)
	}
}

// Failed says the output failed: a write returned an error, or a writer
// that writes on a goroutine of its own (Parquet's row groups) found one
// there; its error comes back from Close.
func (t *TableOutput[R]) Failed() bool {
	if t.stopped.Load() {
		return true
	}
	f, ok := t.rw.(interface{ Failed() bool })
	return ok && f.Failed()
}

// Rows calls read with the function that takes input i's rows: written
// at once when the rows stream, else kept for EndInput.
func (t *TableOutput[R]) Rows(i int, read func(add func(*R))) {
	if !t.stream {
		read(func(r *R) { t.perInput[i] = append(t.perInput[i], t.kind.Schema.Row(r)) })
		return
	}
	write := t.kind.Writer(t.rw)
	groups := t.opts.Inputs > 1
	if t.kind.Segment != nil && t.opts.Clear == nil {
		// A row per packet: written on a core of its own.
		h := batch.New(write, func() { t.stopped.Store(true) }, "writing a row")
		read(h.Add)
		t.keep(h.Finish())
		if groups {
			t.keep(t.rw.EndGroup())
		}
		return
	}
	add := func(r *R) { t.keep(write(r)) }
	if clear := t.opts.Clear; clear != nil {
		add = func(r *R) {
			clear() // rows and the bar share the terminal
			t.keep(write(r))
		}
	}
	read(add)
	if groups {
		t.keep(t.rw.EndGroup())
	}
}

// EndInput writes input i's kept rows, a row group, once the inputs
// before it are written (it is called in input order).
func (t *TableOutput[R]) EndInput(i int) {
	if !t.stream && !t.Failed() {
		if t.opts.Clear != nil && len(t.perInput[i]) > 0 {
			t.opts.Clear()
		}
		for _, row := range t.perInput[i] {
			t.keep(t.rw.WriteRow(row))
		}
		t.keep(t.rw.EndGroup()) // one row group per input
	}
	t.perInput[i] = nil
}

// Close writes what is left and returns the first error.
func (t *TableOutput[R]) Close() error {
	t.keep(t.rw.Close())
	return t.err
}
