package main

import (
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"tcpviz/charts"
	"tcpviz/reassembly"
)

// tableCommand completes cmd (name, usage, description) as a command that
// prints one table for all its inputs, rowsOf giving each input's rows. As
// CSV the rows stream out file by file; the other formats are written
// once every input is read.
func tableCommand(e *env, cmd *cli.Command, columns []charts.Column, rowsOf func(input, *env) fileResult) *cli.Command {
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
		work, done := e.withProgress(len(ins), func(in input) fileResult { return rowsOf(in, e) })
		forEachInput(ins, c.Int("jobs"), work, func(in input, r fileResult) {
			failed = report(e.stderr, r) || failed
			if !streaming {
				t.Rows = append(t.Rows, r.rows...)
				return
			}
			part := &charts.Table{Columns: columns, Rows: r.rows}
			if err := part.WriteCSV(e.stdout, false); err != nil && writeErr == nil {
				writeErr = err
			}
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
// retires it (finished, idle, or at the end of the capture), so only live
// connections are held in memory. Rows come back in stream order.
func scanCapture(in input, e *env, each func(*reassembly.Conn, *reassembly.Segment), rowsOf func(*reassembly.Conn) [][]string) fileResult {
	oc, err := in.open(e.stdin)
	if err != nil {
		return fileResult{err: err}
	}
	defer oc.close()
	sc := reassembly.NewScanner(oc.Reader)
	type streamRows struct {
		stream int
		rows   [][]string
	}
	var all []streamRows
	sc.Tracker().OnRetire = func(c *reassembly.Conn) {
		all = append(all, streamRows{c.Stream, rowsOf(c)})
	}
	for sc.Scan() {
		if each != nil {
			each(sc.Conn(), sc.Segment())
		}
	}
	slices.SortStableFunc(all, func(a, b streamRows) int { return a.stream - b.stream })
	var r fileResult
	for _, sr := range all {
		r.rows = append(r.rows, sr.rows...)
	}
	r.warnings = scanWarnings(in, sc)
	if err := sc.Err(); err != nil {
		r.err = fmt.Errorf("%s: %w (%d packets before it were read)", in.name, err, sc.Packets())
	}
	return r
}
