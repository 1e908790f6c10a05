package main

import (
	"container/heap"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/charts"
	"tcpviz/internal/words"
	"tcpviz/reassembly"
)

func reportCommand(e *env) *cli.Command {
	var (
		conn    connFlags
		picture pictureFlags
		jobs    jobsFlags
		output  = outputFlags{dirUsage: "directory in which each report folder is made"}
	)
	var batch batchFlags
	var filter filterFlags
	groups := []flagGroup{&conn, &filter, &picture, &jobs, &batch}
	flags := append(groupFlags(groups...), (&output).flags()[1]) // --out-dir only
	return &cli.Command{
		Name:  "report",
		Usage: "every graph plus the summary of a capture, as a folder with an HTML index",
		Description: "For each capture, writes <out-dir>/<capture>-report/ with every graph of the main\n" +
			"connection (PNG, and their points as CSV), summary.csv and streams.csv for every\n" +
			"connection, and index.html: a self-contained page that draws the graphs of the main\n" +
			"connection and of the 10 busiest (zoom, pan, hover shows each point's frame).\n" +
			"Prints the path of each index. The capture is read twice.\n" +
			"A+B[+C…] (the same transfer captured at several points, as join takes them) reports on A with\n" +
			"a section of the joined captures: the main connection's hops (losses, delays, clocks), its\n" +
			"one-way delay across the first hop (or the proxy's buffer, when one splits it) and its ladder.",
		ArgsUsage: "CAPTURE|DIR|-|A+B ...",
		Flags:     flags,
		Action: func(c *cli.Context) error {
			if err := parseGroups(c, append(groups, &output)...); err != nil {
				return err
			}
			ins, err := e.inputsOf(c, &batch)
			if err != nil {
				return err
			}
			bases, err := derivedBases(ins)
			if err == nil {
				err = refuseReportDirs(ins, e.guarded(ins), bases, output.OutDir)
			}
			if err != nil {
				return err
			}
			failed := false
			work, done := e.withProgress(len(ins), func(i int, in input) fileResult {
				return reportOf(e, in, e.guarded(ins), bases[i], output.OutDir, conn, filter.selector(), picture.Plot)
			})
			forEachInput(ins, jobs.Jobs, work, func(_ int, _ input, r fileResult) {
				failed = e.printResult(r) || failed
			})
			done()
			if failed {
				return errReported
			}
			return nil
		},
	}
}

// reportConns is how many connections, the busiest, get graphs in the
// page besides the main one; reportMoreConns how many more get them in
// scripts beside it (conns/conn-N.js, loaded when opened). Together they
// stay within analyze's budget of packets drawn beside the main
// connection (524,288).
const (
	reportConns     = 10
	reportMoreConns = 200
)

// reportTableConns is how many connections the page's table shows, the
// busiest (both directions of each): the page of a capture of a million
// connections stays a few MB; summary.csv and streams.csv hold them all.
// A variable for the tests.
var reportTableConns = 2000

// busiestRows keeps the summary rows of the max connections that carried
// the most payload (a heap on their bytes, the least first).
type busiestRows struct {
	max   int
	conns []keptConn
}

type keptConn struct {
	stream int
	bytes  int64
	rows   [2][]charts.Value
}

func (b *busiestRows) Len() int           { return len(b.conns) }
func (b *busiestRows) Less(i, j int) bool { return b.conns[i].bytes < b.conns[j].bytes }
func (b *busiestRows) Swap(i, j int)      { b.conns[i], b.conns[j] = b.conns[j], b.conns[i] }
func (b *busiestRows) Push(x any)         { b.conns = append(b.conns, x.(keptConn)) }
func (b *busiestRows) Pop() any {
	c := b.conns[len(b.conns)-1]
	b.conns = b.conns[:len(b.conns)-1]
	return c
}

// add offers a connection's rows.
func (b *busiestRows) add(stream int, bytes int64, rows [2][]charts.Value) {
	if len(b.conns) < b.max {
		heap.Push(b, keptConn{stream, bytes, rows})
	} else if len(b.conns) > 0 && bytes > b.conns[0].bytes {
		b.conns[0] = keptConn{stream, bytes, rows}
		heap.Fix(b, 0)
	}
}

// rows are the rows kept, in stream order.
func (b *busiestRows) rows() [][]charts.Value {
	slices.SortFunc(b.conns, func(x, y keptConn) int { return x.stream - y.stream })
	var out [][]charts.Value
	for _, c := range b.conns {
		out = append(out, c.rows[0], c.rows[1])
	}
	return out
}

// reportPointsOver: a main connection of more packets has its graphs
// thinned like the others' and no points CSV (every point of it would be
// held in memory; a graph command writes them, holding nothing). A
// variable for the tests.
var reportPointsOver = 1 << 20

// reportOf writes the report folder of one input, from one analysing
// pass over it (after a first pass that ranks the connections).
func reportOf(e *env, in input, all []input, base, outDir string, cf connFlags, sel func(*reassembly.Conn) bool, po charts.PlotOptions) fileResult {
	var res fileResult
	if in.hasStream { // CAPTURE#N: that connection is the main one
		cf.Stream = in.stream
	}
	src, err := e.newSource(in, 2)
	if err != nil {
		return fileResult{err: err}
	}
	defer src.close()
	dir, err := outputPath(outDir, base+"-report")
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
	// The graphs are drawn while the capture is read: the main
	// connection's whole (their points are written too), the others'
	// thinned for the page. summary.csv and streams.csv are written as
	// the connections come, every one of them; the page's table keeps
	// the busiest (reportTableConns).
	reqs := analyze.ReportGraphs()
	kept := &busiestRows{max: reportTableConns}
	var ls []*analyze.Loaded
	conns := 0
	var loadErr error
	errNothing := errors.New("no connection to report")
	err = files.write(filepath.Join(dir, "summary.csv"), func(ws io.Writer) error {
		return files.write(filepath.Join(dir, "streams.csv"), func(wt io.Writer) error {
			scw, tcw := charts.NewCSVWriter(ws), charts.NewCSVWriter(wt)
			werr := scw.WriteHeader(charts.SummaryColumns.Docs())
			if werr == nil {
				werr = tcw.WriteHeader(charts.StreamsColumns.Docs())
			}
			ls, loadErr = analyze.LoadBusiest(src.open, analyze.LoadOptions{Stream: cf.Stream, Dir: cf.Dir, Graphs: reqs, Select: sel,
				AnyTransport: cf.Stream < 0 && sel == nil, // the main flow of either transport: a UDP test's, not its control connection
				AlsoThin:     po.ThinCols(charts.PNG), ThinOver: reportPointsOver, OnConn: func(cr *analyze.ConnResult) {
					conns++
					var rows [2][]charts.Value
					for d := range cr.Stats {
						rows[d] = charts.SummaryColumns.Row(&charts.SummaryRow{File: in.name, Stats: &cr.Stats[d]})
						if werr == nil {
							werr = scw.WriteRow(rows[d])
						}
					}
					if werr == nil {
						werr = tcw.WriteRow(charts.StreamsColumns.Row(&charts.StreamRow{File: in.name, Info: cr.Info}))
					}
					kept.add(cr.Info.Stream, cr.Info.Bytes[0]+cr.Info.Bytes[1], rows)
				}}, reportConns+reportMoreConns)
			for _, cw := range []*charts.CSVWriter{scw, tcw} {
				if werr == nil {
					werr = cw.Flush()
				}
			}
			if werr != nil {
				return werr
			}
			if len(ls) == 0 {
				return errNothing // no files
			}
			return nil
		})
	})
	if len(ls) > 0 {
		res.warnings = warningsOf(in, ls[0].Warnings)
	}
	if loadErr != nil {
		res.err = prefixErr(in, loadErr)
	}
	if err != nil && !errors.Is(err, errNothing) && res.err == nil {
		res.err = prefixErr(in, err)
	}
	if len(ls) == 0 || err != nil {
		files.abort()
		return res
	}
	summary := charts.NewTable(charts.SummaryColumns)
	summary.Rows = kept.rows()
	fail := func(err error) fileResult {
		files.abort()
		if res.err == nil {
			res.err = err
		}
		return res
	}
	po.Capture = captureTitle(in)
	rep := &charts.Report{Capture: in.display()}
	for i, l := range ls {
		rc := charts.ReportConn{Stream: l.Conn.Stream, Diagnosis: l.Stats[l.Dir].Diagnosis, Facts: charts.ReportFacts(l),
			Label: fmt.Sprintf("%s → %s (stream %d, %s)", l.Stats[l.Dir].Src, l.Stats[l.Dir].Dst, l.Conn.Stream, l.Dir)}
		if l.UDP {
			rc.Stream, rc.Nav = -1, fmt.Sprintf("UDP flow %d", l.Conn.Stream) // no summary row is its
			rc.Label = fmt.Sprintf("%s → %s (UDP flow %d)", l.Stats[l.Dir].Src, l.Stats[l.Dir].Dst, l.Conn.Stream)
		}
		// The graphs of a connection are rendered for the page (and the
		// main one's written as pictures and points) side by side, each
		// piece of work on a core: the pictures first, the longest.
		parts := []string{"page"}
		switch {
		case i == 0 && l.Thinned:
			parts = []string{"png", "page"}
			res.warnings = append(res.warnings, fmt.Sprintf("%s: stream %d has %s, more than the report writes every point of (%d): its graphs are thinned as in the pictures and their points are not written; `tcpviz seq -s %d -o FILE.csv` and the other graph commands write them",
				in.display(), l.Conn.Stream, words.Plural(l.Conn.Dir[0].Packets+l.Conn.Dir[1].Packets, "packet"), reportPointsOver, l.Conn.Stream))
		case i == 0:
			parts = []string{"png", "csv", "page"}
		}
		graphs := make([]*charts.ReportGraph, len(reqs))
		errs := make([]error, len(parts)*len(reqs))
		csvs := make([]string, len(reqs))
		left := make([]atomic.Int32, len(reqs))
		for k := range left {
			left[k].Store(int32(len(parts)))
		}
		for _, g := range l.Graphs {
			if g != nil { // what the graphs say of their data, before they are drawn
				g.UDP = l.UDP
				g.Notes = append(g.Notes, l.GraphNotes()...)
			}
		}
		inParallel(len(parts)*len(reqs), func(j int) {
			k, part := j%len(reqs), parts[j/len(reqs)]
			rg, g := reqs[k], l.Graphs[k]
			defer func() {
				if left[k].Add(-1) == 0 {
					l.Graphs[k] = nil // freed once drawn, not with the last one
				}
			}()
			if g == nil || g.Points() == 0 {
				return // (a UDP flow has no RTT, flight or window)
			}
			stem := rg.Spec.Stem(rg.Params)
			switch part {
			case "png":
				errs[j] = files.write(filepath.Join(dir, stem+".png"), func(w io.Writer) error { return charts.WriteGraph(w, g, charts.PNG, po) })
			case "csv":
				errs[j] = files.write(filepath.Join(dir, stem+".csv"), func(w io.Writer) error { return charts.WriteGraph(w, g, charts.PointsCSV, po) })
				csvs[k] = stem + ".csv"
			case "page":
				image := ""
				if i == 0 {
					image = stem + ".png" // written by the png part
				}
				rgr := charts.NewReportGraph(g, rg.Spec.Caption(rg.Params), image, po.Width, po.Height)
				graphs[k] = &rgr
			}
		})
		for _, err := range errs {
			if err != nil {
				return fail(err)
			}
		}
		for k, rgr := range graphs {
			if rgr == nil {
				continue
			}
			if csvs[k] != "" {
				rep.Tables = append(rep.Tables, csvs[k])
			}
			rc.Graphs = append(rc.Graphs, *rgr)
		}
		if i <= reportConns {
			rep.Conns = append(rep.Conns, rc)
		} else {
			rep.More = append(rep.More, rc)
		}
		ls[i] = nil // its graphs are no longer needed
	}
	if in.joined != nil {
		if err := e.reportJoined(in, rep, files, dir, cf, po); err != nil {
			res.warnings = append(res.warnings, fmt.Sprintf("%s: the joined captures are left out of the report: %v", in.display(), err))
		}
	}
	if len(rep.More) > 0 {
		// The connections beyond the busiest, each in a script beside
		// the page, loaded when opened.
		if err := makeDir(filepath.Join(dir, "conns"), e.made); err != nil {
			return fail(err)
		}
		for k := range rep.More {
			rep.More[k].Script = fmt.Sprintf("conns/conn-%d.js", len(rep.Conns)+k)
		}
		for k := range rep.More {
			if err := files.write(filepath.Join(dir, rep.More[k].Script), func(w io.Writer) error { return charts.WriteReportScript(w, rep, k) }); err != nil {
				return fail(err)
			}
		}
	}
	rep.Tables = append(rep.Tables, "summary.csv", "streams.csv")
	rep.Summary, rep.Connections = summary, conns
	index := filepath.Join(dir, "index.html")
	if err := files.write(index, func(w io.Writer) error { return charts.WriteReport(w, rep) }); err != nil {
		return fail(err)
	}
	if err := files.commit(); err != nil {
		return fail(err)
	}
	res.lines = []string{escapeName(index)}
	return res
}

// inParallel calls f(0) to f(n-1), as many at once as there are cores,
// and returns when all have returned.
func inParallel(n int, f func(int)) {
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
}

// plural is a count with its noun, singular for 1 (analyze.Plural, for
// any integer type).
func plural[N ~int | ~int32 | ~int64](n N, noun string) string { return words.Plural(int64(n), noun) }
