package main

import (
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"tcpviz/charts"
	"tcpviz/reassembly"
)

// rowsFunc reads one input and returns its rows, or hands them to sink as
// they are made when sink is not nil.
type rowsFunc func(in input, e *env, sink func([][]string)) fileResult

// tableCommand completes cmd (name, usage, description) as a command that
// prints one table for all its inputs, rowsOf giving each input's rows. As
// CSV the rows stream out: with one input as connections finish (so memory
// follows the live connections, not the capture), with several file by
// file. The other formats are written once every input is read.
func tableCommand(e *env, cmd *cli.Command, columns []charts.Column, rowsOf rowsFunc) *cli.Command {
	cmd.ArgsUsage = "CAPTURE|DIR|- ..."
	cmd.Flags = []cli.Flag{formatFlag, jobsFlag}
	cmd.Action = func(c *cli.Context) error {
		format, err := tableFormat(c, e.stdout)
		if err != nil {
			return err
		}
		ins, err := inputsOf(c)
		if err != nil {
			return err
		}
		t := &charts.Table{Columns: columns}
		streaming := format == charts.CSV
		if streaming {
			if err := t.WriteCSV(e.stdout, true); err != nil {
				return err
			}
		}
		failed := false
		var writeErr error
		writeRows := func(rows [][]string) {
			part := &charts.Table{Columns: columns, Rows: rows}
			if err := part.WriteCSV(e.stdout, false); err != nil && writeErr == nil {
				writeErr = err
			}
		}
		var sink func([][]string)
		if streaming && len(ins) == 1 {
			sink = writeRows
		}
		work, done := e.withProgress(len(ins), func(in input) fileResult { return rowsOf(in, e, sink) })
		forEachInput(ins, c.Int("jobs"), work, func(in input, r fileResult) {
			failed = report(e.stderr, r) || failed
			if !streaming {
				t.Rows = append(t.Rows, r.rows...)
				return
			}
			writeRows(r.rows)
		})
		done()
		if writeErr != nil {
			return writeErr
		}
		if !streaming {
			if err := t.Write(e.stdout, format); err != nil {
				return err
			}
		}
		if failed {
			return errFailed
		}
		return nil
	}
	return cmd
}

// scanCapture reads one input. each, if not nil, sees every segment in
// capture order; rowsOf makes the rows of each connection when the tracker
// retires it (finished, idle, or at the end of the capture), so that only
// live connections are held in memory. The rows go to sink (or, when sink
// is nil, into the result) in stream order, each as soon as every lower
// stream has been retired; should more than maxPendingRows wait for a
// long-lived connection, they are let go in order of what is pending.
func scanCapture(in input, e *env, each func(*reassembly.Conn, *reassembly.Segment), rowsOf func(*reassembly.Conn) [][]string, sink func([][]string)) fileResult {
	oc, err := in.open(e.stdin)
	if err != nil {
		return fileResult{err: err}
	}
	defer oc.close()
	var r fileResult
	if sink == nil {
		sink = func(rows [][]string) { r.rows = append(r.rows, rows...) }
	}
	ro := reorder{pending: map[int][][]string{}, sink: sink}
	sc := reassembly.NewScanner(oc.Reader)
	sc.Tracker().OnRetire = func(c *reassembly.Conn) { ro.add(c.Stream, rowsOf(c)) }
	for sc.Scan() {
		if each != nil {
			each(sc.Conn(), sc.Segment())
		}
	}
	ro.flush()
	r.warnings = scanWarnings(in, sc)
	if err := sc.Err(); err != nil {
		r.err = fmt.Errorf("%s: %w (%d packets before it were read)", in.name, err, sc.Packets())
	}
	return r
}

// maxPendingRows bounds the rows held back to keep stream order.
const maxPendingRows = 20000

// reorder releases rows in stream order.
type reorder struct {
	next    int
	pending map[int][][]string
	held    int
	sink    func([][]string)
}

func (ro *reorder) add(stream int, rows [][]string) {
	ro.pending[stream] = rows
	ro.held += len(rows)
	for {
		rows, ok := ro.pending[ro.next]
		if !ok {
			break
		}
		delete(ro.pending, ro.next)
		ro.held -= len(rows)
		ro.sink(rows)
		ro.next++
	}
	if ro.held > maxPendingRows {
		ro.flush()
	}
}

// flush lets every pending row go, in stream order.
func (ro *reorder) flush() {
	streams := make([]int, 0, len(ro.pending))
	for s := range ro.pending {
		streams = append(streams, s)
	}
	slices.Sort(streams)
	for _, s := range streams {
		ro.sink(ro.pending[s])
		delete(ro.pending, s)
		ro.next = max(ro.next, s+1)
	}
	ro.held = 0
}
