package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/charts"
)

func reportCommand(e *env) *cli.Command {
	var (
		conn    connFlags
		picture pictureFlags
		jobs    jobsFlags
		output  = graphOutput("directory in which each report folder is made", true)
	)
	var batch batchFlags
	var filter filterFlags
	groups := []flagGroup{&conn, &filter, &picture, &jobs, &batch, &output}
	return withFlags(&cli.Command{
		Name:  "report",
		Usage: "every graph plus the summary of a capture, as a folder with an HTML index",
		Description: "For each capture, writes <out-dir>/<capture>-report/ with every graph of the main\n" +
			"connection (PNG, and their points as CSV), summary.csv and streams.csv for every\n" +
			"connection, and index.html: a self-contained page that draws the graphs of the main\n" +
			"connection and of the 10 busiest (zoom, pan, hover shows each point's frame).\n" +
			"Prints the path of each index. The capture is read twice.\n" +
			"A+B[+C…] (the same transfer captured at several points, as join takes them) reports on A with\n" +
			"a section of the joined captures: the main connection's hops (losses, delays, clocks), its\n" +
			"one-way delay across the first hop (or the proxy's buffer, when one splits it) and its ladder.\n" +
			"A report made again into the same folder removes the files the earlier one wrote there (listed\n" +
			"in its .tcpviz-report) that it does not write again; other files in the folder stay.",
		ArgsUsage: "CAPTURE|DIR|-|A+B ...",
		Action: func(c *cli.Context) error {
			ins, err := e.inputsOf(c, &batch)
			if err != nil {
				return err
			}
			bases, err := charts.DerivedBases(namings(ins), false)
			if err != nil {
				return usagef("%v", err)
			}
			if err := refuseReportDirs(ins, e.guarded(ins), bases, output.OutDir); err != nil {
				return err
			}
			// A report holds a connection's graphs while it draws them,
			// in bursts: a soft limit of 120 MiB of heap a report drawn
			// at once (GOMEMLIMIT overrides it) has Go collect sooner,
			// not let the heap grow to twice what is live (the bench
			// capture: 146 MB resident at the most, not 225, in the same
			// time). Above it, collecting is capped at half the CPU.
			if os.Getenv("GOMEMLIMIT") == "" {
				defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(max(1, min(jobs.Jobs, len(ins)))) * reportHeap))
			}
			failed := e.eachInput(ins, jobs.Jobs, func(i int, in input) fileResult {
				return reportOf(e, in, e.guarded(ins), bases[i], output.OutDir, conn, &filter, picture.Plot)
			})
			return reported(failed)
		},
	}, groups...)
}

// reportList is the file of a report folder that lists the files the
// report wrote there, one a line: the next report into the folder
// removes those it does not write again, and no other file.
const reportList = ".tcpviz-report"

// reportHeap is the heap a report may grow to before Go collects
// sooner than its default: about what is live at the most on the bench
// capture (5 M packets), with room.
const reportHeap = 120 << 20

// reportOf writes the report folder of one input, from one analysing
// pass over it (after a first pass that ranks the connections).
func reportOf(e *env, in input, all []input, base, outDir string, cf connFlags, filter *filterFlags, po charts.PlotOptions) fileResult {
	var res fileResult
	if in.hasStream { // CAPTURE#N: that connection is the main one
		cf.Stream = in.stream
	}
	src, err := e.newSource(in, 2)
	if err != nil {
		return fileResult{err: err}
	}
	defer src.close()
	dir, err := charts.OutputPath(outDir, base+"-report")
	if err == nil {
		err = makeDir(outDir, e.made)
	}
	if err == nil {
		err = makeDir(dir, e.made) // removed at the end if left empty
	}
	if err != nil {
		return fileResult{err: prefixErr(in, err)}
	}
	// Every file of the folder is written before any takes its name: a
	// run that fails part way (a full disk) leaves none of its files, and
	// those of an earlier report untouched; the folder, if this run made
	// it, is removed once empty (madeDirs).
	files := &outputSet{inputs: all}
	put := func(name string, write func(io.Writer) error) error {
		path := filepath.Join(dir, name)
		if d := filepath.Dir(path); d != dir {
			if err := makeDir(d, e.made); err != nil {
				return err
			}
		}
		return files.write(path, write)
	}
	po.Capture = charts.CaptureTitle(in.name, in.path == "")
	ro := e.report
	ro.File, ro.Capture, ro.Plot = in.name, in.display(), po
	rb := charts.NewReportBuilder(ro)
	var l *analyze.Loaded
	var loadErr error
	errNothing := errors.New("no connection to report")
	err = put("summary.csv", func(ws io.Writer) error {
		return put("streams.csv", func(wt io.Writer) error {
			l, loadErr = analyze.Load(src.open, rb.Load(ws, wt, cf.Stream, cf.Dir, filter.Expr))
			if err := rb.EndTables(); err != nil {
				return err
			}
			if l == nil {
				return errNothing // no files
			}
			return nil
		})
	})
	if l != nil {
		res.warnings = warningsOf(in, l.Warnings)
	}
	if loadErr != nil {
		res.err = prefixErr(in, loadErr)
	}
	if err := filter.Excludes(in.named(), l); err != nil {
		res.err = err
		files.abort()
		return res
	}
	if err != nil && !errors.Is(err, errNothing) && res.err == nil {
		res.err = prefixErr(in, err)
	}
	if l == nil || err != nil {
		files.abort()
		return res
	}
	fail := func(err error) fileResult {
		files.abort()
		if res.err == nil {
			res.err = err
		}
		return res
	}
	rep, warnings, err := rb.Graphs(l, put)
	res.warnings = append(res.warnings, warnings...)
	if err != nil {
		return fail(err)
	}
	if in.joined != nil {
		switch err := e.reportJoined(in, rep, cf, po, put); {
		case errors.Is(err, errReported): // a joined capture failed, said
			if res.err == nil {
				res.err = err
			}
		case err != nil:
			res.warnings = append(res.warnings, fmt.Sprintf("%s: the joined captures are left out of the report: %v", in.display(), err))
		}
	}
	if err := rb.Finish(rep, put); err != nil {
		return fail(err)
	}
	// The files an earlier report wrote here and this one does not (the
	// graphs of connections it does not show) go once this one is in.
	written := files.names(dir)
	if err := put(reportList, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, filepath.ToSlash(strings.Join(written, "\n")))
		return err
	}); err != nil {
		return fail(err)
	}
	old, _ := os.ReadFile(filepath.Join(dir, reportList)) // a regular file or none: put refused any other
	if err := files.commit(); err != nil {
		return fail(err)
	}
	removeStale(dir, string(old), append(written, reportList), all)
	res.lines = []string{charts.EscapeName(filepath.Join(dir, "index.html"))}
	return res
}
