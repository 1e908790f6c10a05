package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync/atomic"

	"github.com/urfave/cli/v2"

	"tcpviz/charts"
	"tcpviz/reassembly"
)

// tableRows reads one input and hands its rows to add (TableKind.Scan),
// CAPTURE#N's alone (inputSpec).
func tableRows[R any](spec charts.TableKind[R], src *source, add func(*R)) fileResult {
	r, err := src.open()
	if err != nil {
		return fileResult{err: prefixErr(src.in, err)}
	}
	spec, seen := inputSpec(spec, src.in)
	file := src.in.name
	if src.in.udp {
		file = src.in.path // CAPTURE#udpN: the capture, as CAPTURE#N's
	}
	out, err := spec.Scan(r, file, add)
	res := resultOf(src.in, out.Warnings, err)
	if err == nil && seen != nil && !seen.Load() {
		res.err = src.in.naming().Absent()
		return res
	}
	if w := spec.Empty(out); err == nil && w != "" {
		res.warnings = append(res.warnings, src.in.display()+": "+w)
	}
	return res
}

// tableCommand is the command of a table (kind.Command: streams, flows,
// summary, packets), which prints one table for all its inputs: to standard output, or -o FILE (its extension picks the
// format when --format is not given), or, as Parquet, one Hive-style
// partition per input in --out-dir. As CSV or Parquet the rows stream
// out: with one input as connections finish (memory follows the live
// connections), with several input by input. JSON and the text table are
// written once every input is read.
func tableCommand[R any](e *env, kind charts.TableKind[R]) *cli.Command {
	tf, jf, bf := &tableFlags{}, &jobsFlags{}, &batchFlags{}
	of := tableOutput()
	cmd := &cli.Command{Name: kind.Command, Usage: kind.Help, Description: kind.Description, ArgsUsage: "CAPTURE|DIR|- ..."}
	fieldsFl, fields := fieldsFlag()
	pf := &paramFlags{}
	streamsFl, streams := streamsFlag()
	ff := &filterFlags{rows: true}
	cmd.Flags = []cli.Flag{streamsFl,
		&cli.BoolFlag{Name: "columns", Usage: "list the columns (name, type and unit, meaning) and exit"},
		fieldsFl}
	cmd.Action = func(c *cli.Context) error {
		// This run's table: --param adds columns, --fields picks them.
		spec := kind.WithColumns(charts.ParamColumns(pf.Params, kind.File))
		if c.Bool("columns") {
			return charts.WriteDocs(e.stdout, spec.Schema.Docs())
		}
		if ff.Expr != nil {
			spec = spec.Only(ff.Expr)
		}
		set, err := streamSet(streams)
		if err != nil {
			return err
		}
		if set != nil {
			spec = spec.Only(reassembly.StreamFilter{Set: set})
		}
		toStdout := of.OutDir == "" && (of.Output == "" || of.Output == "-")
		sel, shortened, err := spec.Fields(fields.Vs, toStdout && tf.resolve(isTerminal(e.stdout)) == charts.TextTable)
		if err != nil {
			return usagef("--fields %v", err)
		}
		if shortened {
			fmt.Fprintf(e.stderr, "tcpviz: the text table shows %d of the %d columns: --fields all (or -f csv) for every one, --fields a,b,c for those\n", len(sel.Schema), len(spec.Schema))
		}
		spec = sel
		ins, err := e.inputsOf(c, bf, pf.args(c)...)
		if err != nil {
			return err
		}
		if of.Output != "" && of.Output != "-" {
			// Never over an input, whatever its name says.
			if err := refuseInput(of.Output, e.guarded(ins)); err != nil {
				return err
			}
		}
		format, err := of.format(tf, isTerminal(e.stdout))
		if err != nil {
			return err
		}
		if err := pf.check(ins); err != nil {
			return err
		}
		// An input that failed does not discard the others' rows: a file
		// -o names is kept, and the run still exits 1.
		var inputFailed error
		err = e.writeOutput(of.Output, ins, e.stdout, func(w io.Writer) error {
			err := writeTable(e, w, spec, format, tf.Times, of, jf, ins)
			if errors.Is(err, errReported) && w != e.stdout {
				inputFailed, err = err, nil
			}
			return err
		})
		if err != nil {
			return err
		}
		if err := ff.SelectsNothing(spec.Matched(), streams.Vs); err != nil {
			return err
		}
		return inputFailed
	}
	return withFlags(cmd, tf, of, jf, bf, pf, ff)
}

// writeTable reads the inputs and writes their table to w (unused for
// Parquet partitions, which go to their own files). errReported says an
// input failed after its rows were written.
func writeTable[R any](e *env, w io.Writer, spec charts.TableKind[R], format charts.TableFormat, times charts.TimeFormat, of *tableOutFlags, jf *jobsFlags, ins []input) error {
	if format == charts.ParquetFormat && of.OutDir != "" {
		return writePartitions(e, spec, of.OutDir, jf, ins)
	}
	o := charts.TableOptions{Format: format, Times: times, Inputs: len(ins)}
	if w == e.stdout && isTerminal(e.stdout) {
		o.Clear = e.bar.clear
	}
	out := spec.Output(w, o)
	work, done := e.withProgress(len(ins), func(i int, in input) (res fileResult) {
		if out.Failed() {
			return fileResult{}
		}
		defer func() {
			if out.Failed() {
				res = fileResult{}
			}
		}()
		src, err := e.newSource(in, 1)
		if err != nil {
			return fileResult{err: err}
		}
		defer src.close()
		src.stop = out.Failed
		out.Rows(i, func(add func(*R)) { res = tableRows(spec, src, add) })
		return res
	})
	// A failed write stops the reading: the input being read ends at its
	// next read, the others are not opened, and the write's error is the
	// command's (what the inputs then say is moot).
	inputFailed := false
	forEachInput(ins, out.Jobs(jf.Jobs), work, func(i int, _ input, r fileResult) {
		out.EndInput(i)
		if !out.Failed() {
			inputFailed = e.printResult(r) || inputFailed
		}
	})
	done()
	if err := out.Close(); err != nil {
		return err
	}
	if inputFailed {
		return errReported
	}
	return nil
}

// inputSpec is spec for input in: CAPTURE#N keeps that stream's rows,
// and seen says whether the capture held it (nil for a whole capture).
func inputSpec[R any](spec charts.TableKind[R], in input) (_ charts.TableKind[R], seen *atomic.Bool) {
	f := in.naming().StreamFilter()
	if f == nil {
		return spec, nil
	}
	seen = new(atomic.Bool)
	return spec.Only(charts.Seen(f, seen, nil)), seen
}

// writePartitions writes each input's rows as Parquet to a partition of
// its own in dir (writePartition).
func writePartitions[R any](e *env, spec charts.TableKind[R], dir string, jf *jobsFlags, ins []input) error {
	named := namings(ins)
	for i, in := range ins {
		if in.path != "" {
			named[i].Abs, _ = filepath.Abs(in.path) // hashed: the partition of that file
		}
	}
	bases, err := charts.PartitionNames(named)
	if err != nil {
		return usagef("%v", err)
	}
	if err := makeDir(dir, e.made); err != nil {
		return err
	}
	failed := e.eachInput(ins, jf.Jobs, func(i int, in input) fileResult {
		src, err := e.newSource(in, 1)
		if err != nil {
			return fileResult{err: err}
		}
		defer src.close()
		return writePartition(spec, src, filepath.Join(dir, bases[i]), e.guarded(ins), e.made)
	})
	return reported(failed)
}

// writePartition writes one input's rows as DIR/part-0.parquet, streaming
// them by row groups; what was read before a failure is kept. The path
// written is the result's line.
func writePartition[R any](spec charts.TableKind[R], src *source, dir string, all []input, made *madeDirs) fileResult {
	var res fileResult
	if err := makeDir(dir, made); err != nil {
		return fileResult{err: err}
	}
	path := filepath.Join(dir, "part-0.parquet")
	err := writeAtomic(path, all, func(w io.Writer) error {
		out := spec.Output(w, charts.TableOptions{Format: charts.ParquetFormat, Inputs: 1})
		out.Rows(0, func(add func(*R)) { res = tableRows(spec, src, add) })
		return out.Close()
	})
	if err != nil && res.err == nil {
		res.err = err
	}
	if err == nil {
		res.lines = append(res.lines, charts.EscapeName(path))
	}
	return res
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
