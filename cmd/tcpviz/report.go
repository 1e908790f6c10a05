package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/charts"
	"tcpviz/reassembly"
)

func reportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "report",
		Usage: "every graph plus the summary of a capture, as a folder with an HTML index",
		Description: "For each capture, writes <out-dir>/<capture>-report/ with the time/sequence (tcptrace and\n" +
			"Stevens), throughput, RTT and window graphs of the main connection (PNG, and their points\n" +
			"as CSV), summary.csv and streams.csv for every connection, and index.html. Prints the\n" +
			"path of each index.",
		ArgsUsage: "CAPTURE|DIR|- ...",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "stream", Aliases: []string{"s"}, Value: -1, DefaultText: "the connection with the most payload",
				Usage: "the connection to graph, by Wireshark's tcp.stream number"},
			&cli.StringFlag{Name: "out-dir", Value: ".", Usage: "directory in which each report folder is made"},
			&cli.IntFlag{Name: "width", Value: charts.DefaultWidth, Usage: "picture width in pixels"},
			&cli.IntFlag{Name: "height", Value: charts.DefaultHeight, Usage: "picture height in pixels"},
			jobsFlag,
		},
		Action: func(c *cli.Context) error {
			ins, err := inputsOf(c)
			if err != nil {
				return err
			}
			po := charts.PlotOptions{Width: c.Int("width"), Height: c.Int("height")}
			failed := false
			work, done := e.withProgress(len(ins), func(in input) fileResult {
				return reportOf(in, e, ins, c.String("out-dir"), c.Int("stream"), po)
			})
			forEachInput(ins, c.Int("jobs"), work, func(_ input, r fileResult) {
				failed = report(e.stderr, r) || failed
				for _, row := range r.rows {
					fmt.Fprintln(e.stdout, row[0])
				}
			})
			done()
			if failed {
				return errFailed
			}
			return nil
		},
	}
}

// reportGraphs are the graphs of a report, in the order shown.
var reportGraphs = []struct {
	file, title string
	build       func([]analyze.Record, analyze.SeriesOptions) *analyze.Graph
}{
	{"seq", "Time/sequence (tcptrace)", analyze.TCPTrace},
	{"stevens", "Time/sequence (Stevens)", analyze.Stevens},
	{"tput", "Throughput and goodput", func(r []analyze.Record, o analyze.SeriesOptions) *analyze.Graph {
		return analyze.Throughput(r, o, analyze.ThroughputOptions{})
	}},
	{"rtt", "Round-trip time (ack_rtt)", func(r []analyze.Record, o analyze.SeriesOptions) *analyze.Graph {
		return analyze.RTT(r, o, analyze.RTTOptions{})
	}},
	{"rtt-timestamps", "Round-trip time (TCP timestamps)", func(r []analyze.Record, o analyze.SeriesOptions) *analyze.Graph {
		return analyze.RTT(r, o, analyze.RTTOptions{Sampling: analyze.SampleTimestamps})
	}},
	{"window", "Bytes in flight and receive window", analyze.Window},
}

// reportOf writes the report folder of one input.
func reportOf(in input, e *env, all []input, outDir string, stream int, po charts.PlotOptions) fileResult {
	src, cleanup, err := rereadable(in, e)
	if err != nil {
		return fileResult{err: err}
	}
	defer cleanup()
	l, res := load(src, e, stream)
	if l.conn == nil {
		return res
	}
	dir, err := outputPath(outDir, captureBase(in)+"-report")
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		res.err = fmt.Errorf("%s: %w", in.name, unwrapPathError(err))
		return res
	}
	fail := func(err error) fileResult {
		if res.err == nil {
			res.err = err
		}
		return res
	}
	d := mainDirection(l.conn)
	o := analyze.SeriesOptions{Conn: l.conn, Dir: d}
	po.Capture = in.name
	rep := &charts.Report{Capture: in.name, Diagnosis: l.stats[d].Diagnosis}
	for _, rg := range reportGraphs {
		g := rg.build(l.recs, o)
		if g.Points() == 0 {
			continue
		}
		if rep.Connection == "" {
			rep.Connection = fmt.Sprintf("%s → %s (stream %d, %s)", g.Src, g.Dst, g.Stream, g.Dir)
		}
		png, csv := rg.file+".png", rg.file+".csv"
		if err := writeAtomic(filepath.Join(dir, png), all, func(w io.Writer) error { return charts.WriteGraph(w, g, charts.PNG, po) }); err != nil {
			return fail(err)
		}
		if err := writeAtomic(filepath.Join(dir, csv), all, func(w io.Writer) error { return charts.WriteGraph(w, g, charts.PointsCSV, po) }); err != nil {
			return fail(err)
		}
		rep.Images = append(rep.Images, charts.Image{Title: rg.title, File: png})
		rep.Tables = append(rep.Tables, csv)
	}
	rep.Facts = reportFacts(l, d)
	for _, t := range []struct {
		file    string
		columns []charts.Column
		rows    rowsFunc
	}{
		{"summary.csv", charts.SummaryColumns, summaryOf},
		{"streams.csv", charts.StreamsColumns, streamsOf},
	} {
		r := t.rows(src, e, nil)
		table := &charts.Table{Columns: t.columns, Rows: r.rows}
		for _, row := range table.Rows {
			row[0] = in.name
		}
		if err := writeAtomic(filepath.Join(dir, t.file), all, func(w io.Writer) error { return table.WriteCSV(w, true) }); err != nil {
			return fail(err)
		}
		rep.Tables = append(rep.Tables, t.file)
		if t.file == "summary.csv" {
			rep.Summary = table
		}
	}
	index := filepath.Join(dir, "index.html")
	if err := writeAtomic(index, all, func(w io.Writer) error { return charts.WriteReport(w, rep) }); err != nil {
		return fail(err)
	}
	res.rows = [][]string{{index}}
	return res
}

// reportFacts are the headline numbers of the main direction.
func reportFacts(l loaded, d reassembly.Direction) []charts.Fact {
	st := l.stats[d]
	tr := analyze.Summarize(l.recs, d)
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	facts := []charts.Fact{
		{Label: "payload sent", Value: fmt.Sprintf("%d bytes in %d packets (%d unique bytes)", st.DataBytes, st.DataPackets, st.UniqueBytes)},
		{Label: "duration", Value: charts.FormatSeconds(st.Duration) + " s"},
	}
	if st.HasThroughput {
		facts = append(facts, charts.Fact{Label: "throughput", Value: bitRate(st.ThroughputBps)})
	}
	if st.BottleneckBps > 0 {
		facts = append(facts, charts.Fact{Label: "bottleneck (ACK dispersion)", Value: bitRate(st.BottleneckBps)})
	}
	if st.RTTSamples > 0 {
		facts = append(facts, charts.Fact{Label: "RTT min / median / max", Value: fmt.Sprintf("%s / %s / %s ms (%d samples)", f(st.RTTMinMs, 1), f(st.RTTMedianMs, 1), f(st.RTTMaxMs, 1), st.RTTSamples)})
	}
	if ss := tr.SlowStart; ss.Found {
		facts = append(facts, charts.Fact{Label: "slow start", Value: fmt.Sprintf("ended at %s s after %d round trips, %d bytes in flight (%s)", f(float64(ss.End)/1e9, 3), ss.Rounds, ss.Flight, ss.Reason)})
	}
	if tr.HasTimeToMB {
		facts = append(facts, charts.Fact{Label: "first MiB delivered", Value: f(float64(tr.TimeToMB)/1e9, 3) + " s"})
	}
	facts = append(facts,
		charts.Fact{Label: "retransmissions", Value: fmt.Sprintf("%d packets (%d fast, %d spurious)", st.RetransPackets, st.FastRetrans, st.SpuriousRetrans)},
		charts.Fact{Label: "most bytes in flight", Value: strconv.FormatInt(st.MaxBytesInFlight, 10)},
	)
	if w := l.stats[d.Reverse()].MaxRwnd; w >= 0 {
		facts = append(facts, charts.Fact{Label: "receiver's largest window", Value: strconv.FormatInt(w, 10)})
	}
	return facts
}

// bitRate formats bit/s for people: "2.15 Mbit/s".
func bitRate(bps float64) string {
	switch {
	case bps >= 1e9:
		return strconv.FormatFloat(bps/1e9, 'f', 2, 64) + " Gbit/s"
	case bps >= 1e6:
		return strconv.FormatFloat(bps/1e6, 'f', 2, 64) + " Mbit/s"
	}
	return strconv.FormatFloat(bps/1e3, 'f', 1, 64) + " kbit/s"
}
