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
	// flowRows, when set instead of rows, makes one table of the flows of
	// every transport (flows.go).
	flowRows func(file string, fr *analyze.FlowResult, add func(*R))
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
// add, in stream order, as connections retire: memory follows the live
// connections, not the capture.
func tableRows[R any](spec tableSpec[R], src *source, add func(*R)) fileResult {
	var res fileResult
	r, err := src.open()
	if err != nil {
		return fileResult{err: err}
	}
	file := src.in.name
	o := analyze.RunOptions{Analyze: spec.analyze, Keep: -1}
	if spec.flowRows != nil {
		o.OnFlow = func(fr *analyze.FlowResult) { spec.flowRows(file, fr, add) }
	} else {
		o.OnConn = func(cr *analyze.ConnResult) { spec.rows(file, cr, add) }
	}
	out, err := analyze.Run(r, o)
	res.warnings = warningsOf(src.in, out.Warnings)
	if err != nil {
		res.err = prefixErr(src.in, err)
	} else if out.Streams+out.Flows == 0 && out.Packets > 0 {
		what := "TCP connection"
		if spec.flowRows != nil {
			what = "IP flow"
		}
		res.warnings = append(res.warnings, src.in.display()+": no "+what+" in the capture")
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
		ins, err := inputsOf(c)
		if err != nil {
			return err
		}
		t := charts.NewTable(spec.schema)
		streaming := format == charts.CSV
		var writeErr error
		cw := charts.NewCSVWriter(e.stdout)
		write := func(row []charts.Value) {
			if err := cw.WriteRow(row); err != nil && writeErr == nil {
				writeErr = err
			}
		}
		if streaming {
			if err := cw.WriteHeader(t.Columns); err != nil {
				return err
			}
		}
		// One input streams its rows as they come, through one reused row;
		// several are collected per input and emitted in input order.
		perInput := make([][][]charts.Value, len(ins))
		work, done := e.withProgress(len(ins), func(i int, in input) fileResult {
			src, err := newSource(in, e.stdin, 1)
			if err != nil {
				return fileResult{err: err}
			}
			defer src.close()
			add := func(r *R) { perInput[i] = append(perInput[i], spec.schema.Row(r)) }
			if streaming && len(ins) == 1 {
				var row []charts.Value
				add = func(r *R) {
					row = spec.schema.AppendRow(row[:0], r)
					write(row)
				}
			}
			return tableRows(spec, src, add)
		})
		failed := false
		forEachInput(ins, jf.Jobs, work, func(i int, _ input, r fileResult) {
			if streaming {
				for _, row := range perInput[i] {
					write(row)
				}
				if err := cw.Flush(); err != nil && writeErr == nil {
					writeErr = err
				}
			} else {
				t.Rows = append(t.Rows, perInput[i]...)
			}
			perInput[i] = nil
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
