package main

import (
	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/charts"
)

// tableSpec is what differs between the table commands: the schema and
// how one connection becomes rows.
type tableSpec[R any] struct {
	analyze bool // the rows need the per-packet analysis
	schema  charts.Schema[R]
	rows    func(file string, cr *analyze.ConnResult, add func(*R))
}

var streamsSpec = tableSpec[charts.StreamRow]{
	schema: charts.StreamsColumns,
	rows: func(file string, cr *analyze.ConnResult, add func(*charts.StreamRow)) {
		add(&charts.StreamRow{File: file, Info: cr.Info})
	},
}

var summarySpec = tableSpec[charts.SummaryRow]{
	analyze: true,
	schema:  charts.SummaryColumns,
	rows: func(file string, cr *analyze.ConnResult, add func(*charts.SummaryRow)) {
		for d := range cr.Stats {
			add(&charts.SummaryRow{File: file, Stats: &cr.Stats[d]})
		}
	},
}

func streamsCommand(e *env) *cli.Command {
	return tableCommand(e, &cli.Command{
		Name:  "streams",
		Usage: "list TCP connections: endpoints, start, duration, packets and bytes each way, state",
	}, streamsSpec)
}

func summaryCommand(e *env) *cli.Command {
	return tableCommand(e, &cli.Command{
		Name:  "summary",
		Usage: "per-connection, per-direction statistics: counts of Wireshark's analysis flags, windows, RTT, throughput",
		Description: "One row per connection direction (c2s then s2c, in stream order). Counts equal tshark's\n" +
			"tcp.analysis.* flags; rtt_* use tcp.analysis.ack_rtt; an empty cell means not measurable.\n" +
			"--columns lists every column with its unit and meaning.",
	}, summarySpec)
}

// tableRows reads one input and hands the rows of each connection to
// sink, in stream order, as connections retire: memory follows the live
// connections, not the capture.
func tableRows[R any](spec tableSpec[R], src *source, sink func([]charts.Value)) fileResult {
	var res fileResult
	r, err := src.open()
	if err != nil {
		return fileResult{err: err}
	}
	file := src.in.name
	add := func(row *R) { sink(spec.schema.Row(row)) }
	out, err := analyze.Run(r, analyze.RunOptions{Analyze: spec.analyze, Keep: -1, OnConn: func(cr *analyze.ConnResult) {
		spec.rows(file, cr, add)
	}})
	res.warnings = warningsOf(src.in, out.Warnings)
	if err != nil {
		res.err = prefixErr(src.in, err)
	} else if out.Streams == 0 && out.Packets > 0 {
		res.warnings = append(res.warnings, src.in.display()+": no TCP connection in the capture")
	}
	return res
}

// tableCommand completes cmd as a command that prints one table for all
// its inputs. As CSV the rows stream out: with one input as connections
// finish, with several file by file. The other formats are written once
// every input is read.
func tableCommand[R any](e *env, cmd *cli.Command, spec tableSpec[R]) *cli.Command {
	tf, jf := &tableFlags{}, &jobsFlags{}
	cmd.ArgsUsage = "CAPTURE|DIR|- ..."
	cmd.Flags = append(groupFlags(tf, jf), &cli.BoolFlag{Name: "columns", Usage: "list the columns (name, type and unit, meaning) and exit"})
	cmd.Action = func(c *cli.Context) error {
		if err := parseGroups(c, tf, jf); err != nil {
			return err
		}
		if c.Bool("columns") {
			return charts.WriteDocs(e.stdout, spec.schema.Docs())
		}
		format := tf.resolve(isTerminal(e.stdout))
		ins, err := e.inputsOf(c)
		if err != nil {
			return err
		}
		t := charts.NewTable(spec.schema)
		streaming := format == charts.CSV
		var writeErr error
		stdoutTTY := isTerminal(e.stdout)
		flush := func() {
			if stdoutTTY {
				e.bar.clear() // rows and the bar share the terminal
			}
			if err := t.WriteCSV(e.stdout, false); err != nil && writeErr == nil {
				writeErr = err
			}
			t.Rows = t.Rows[:0]
		}
		if streaming {
			if err := (&charts.Table{Columns: t.Columns}).WriteCSV(e.stdout, true); err != nil {
				return err
			}
		}
		// One input streams its rows as they come; several are collected
		// per input and emitted in input order.
		perInput := make([][][]charts.Value, len(ins))
		work, done := e.withProgress(len(ins), func(i int, in input) fileResult {
			src, err := e.newSource(in, 1)
			if err != nil {
				return fileResult{err: err}
			}
			defer src.close()
			sink := func(row []charts.Value) { perInput[i] = append(perInput[i], row) }
			if streaming && len(ins) == 1 {
				sink = func(row []charts.Value) {
					t.Rows = append(t.Rows, row)
					if len(t.Rows) >= 256 {
						flush()
					}
				}
			}
			return tableRows(spec, src, sink)
		})
		failed := false
		forEachInput(ins, jf.Jobs, work, func(i int, _ input, r fileResult) {
			t.Rows = append(t.Rows, perInput[i]...)
			perInput[i] = nil
			if streaming {
				flush()
			}
			failed = e.printResult(r) || failed
		})
		done()
		if !streaming {
			if err := t.Write(e.stdout, format); err != nil {
				return err
			}
		}
		if writeErr != nil {
			return writeErr
		}
		if failed {
			return errReported
		}
		return nil
	}
	return cmd
}

// prefixErr names the input in an error from reading it.
func prefixErr(in input, err error) error {
	return &inputError{in: in, err: err}
}

// inputError is a failure of one input, named.
type inputError struct {
	in  input
	err error
}

func (e *inputError) Error() string { return e.in.display() + ": " + e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }
