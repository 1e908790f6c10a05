package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/charts"
	"tcpviz/reassembly"
)

func compareCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "compare",
		Usage: "overlay the main connection of several captures on one graph, with a comparison table",
		Description: "Each input is a capture, or CAPTURE#N for its stream N (default: the connection with\n" +
			"the most payload, in the direction with the most payload). The graph aligns every\n" +
			"connection at its first packet; the table (on standard output) gives bytes delivered\n" +
			"at 1/5/10 s, time to deliver the first MiB, mean throughput and its ratio to the first\n" +
			"input, median RTT, retransmissions and where slow start ended. The path of the graph\n" +
			"is printed on standard error.",
		ArgsUsage: "CAPTURE[#STREAM] CAPTURE[#STREAM] ...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "graph", Value: string(analyze.CompareDelivered), Usage: "what to overlay: delivered (bytes acknowledged), tput (goodput) or rtt"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "graph file (.png .svg .pdf, or .csv .json for the points; default: compare-<graph>.png in --out-dir)"},
			&cli.StringFlag{Name: "out-dir", Value: ".", Usage: "directory for the default graph file name"},
			&cli.IntFlag{Name: "width", Value: charts.DefaultWidth, Usage: "picture width in pixels"},
			&cli.IntFlag{Name: "height", Value: charts.DefaultHeight, Usage: "picture height in pixels"},
			&cli.StringFlag{Name: "title", Usage: "graph title instead of the generated one"},
			formatFlag, jobsFlag,
		},
		Action: func(c *cli.Context) error { return runCompare(c, e) },
	}
}

// compareInput is one argument of compare: a capture and maybe a stream.
type compareInput struct {
	input
	stream int // -1: the connection with the most payload
	label  string
}

var streamSuffix = regexp.MustCompile(`^(.*)#(\d+)$`)

func parseCompareInputs(args []string) ([]compareInput, error) {
	var out []compareInput
	for _, a := range args {
		ci := compareInput{input: input{name: a, path: a}, stream: -1, label: filepath.Base(a)}
		if _, err := os.Stat(a); err != nil {
			if m := streamSuffix.FindStringSubmatch(a); m != nil {
				n, _ := strconv.Atoi(m[2])
				ci = compareInput{input: input{name: m[1], path: m[1]}, stream: n, label: filepath.Base(m[1]) + "#" + m[2]}
			}
		}
		if a == "-" {
			return nil, usagef("compare: standard input is not supported; name capture files")
		}
		if st, err := os.Stat(ci.path); err != nil {
			return nil, fmt.Errorf("%s: %w", ci.name, unwrapPathError(err))
		} else if st.IsDir() {
			return nil, usagef("compare: %s is a directory; name capture files", ci.name)
		}
		out = append(out, ci)
	}
	return out, nil
}

// CompareColumns are the columns of compare's table.
var compareColumns = []charts.Column{
	{Name: "input", Kind: charts.String}, {Name: "stream", Kind: charts.Number}, {Name: "direction", Kind: charts.String},
	{Name: "src", Kind: charts.String}, {Name: "dst", Kind: charts.String},
	{Name: "delivered_1s_bytes", Kind: charts.Number}, {Name: "delivered_5s_bytes", Kind: charts.Number}, {Name: "delivered_10s_bytes", Kind: charts.Number},
	{Name: "time_to_1MiB_s", Kind: charts.Number},
	{Name: "mean_throughput_bps", Kind: charts.Number}, {Name: "throughput_ratio", Kind: charts.Number},
	{Name: "rtt_median_ms", Kind: charts.Number}, {Name: "retrans_packets", Kind: charts.Number},
	{Name: "slow_start_end_s", Kind: charts.Number}, {Name: "slow_start_rounds", Kind: charts.Number},
	{Name: "slow_start_flight_bytes", Kind: charts.Number}, {Name: "slow_start_end_reason", Kind: charts.String},
}

func runCompare(c *cli.Context, e *env) error {
	format, err := tableFormat(c, e.stdout)
	if err != nil {
		return err
	}
	kind, err := analyze.ParseCompareKind(c.String("graph"))
	if err != nil {
		return &usageError{err.Error()}
	}
	if c.NArg() < 1 {
		return usagef("compare: name at least one capture (usually two or more)")
	}
	cins, err := parseCompareInputs(c.Args().Slice())
	if err != nil {
		return err
	}
	out := c.String("output")
	gformat := charts.PNG
	if out == "" {
		out = filepath.Join(c.String("out-dir"), "compare-"+string(kind)+".png")
	} else if out != "-" {
		if gformat, err = charts.GraphFormatOf(out); err != nil {
			return &usageError{err.Error()}
		}
	} else {
		gformat = charts.PointsCSV
	}

	ins := make([]input, len(cins))
	for i := range cins {
		ins[i] = cins[i].input
	}
	loads := make([]loaded, len(cins))
	index := map[input]int{}
	for i, in := range ins {
		index[in] = i
	}
	failed := false
	work, done := e.withProgress(len(ins), func(in input) fileResult {
		i := index[in]
		l, res := load(in, e, cins[i].stream)
		loads[i] = l
		return res
	})
	forEachInput(ins, c.Int("jobs"), work, func(_ input, r fileResult) {
		failed = report(e.stderr, r) || failed
	})
	done()

	t := &charts.Table{Columns: compareColumns}
	var series []analyze.CompareInput
	var base float64
	for i, l := range loads {
		if l.conn == nil {
			continue
		}
		d := mainDirection(l.conn)
		st := l.stats[d]
		tr := analyze.Summarize(l.recs, d)
		if len(series) == 0 {
			base = st.ThroughputBps
		}
		series = append(series, analyze.CompareInput{Label: cins[i].label, Recs: l.recs,
			Opts: analyze.SeriesOptions{Conn: l.conn, Dir: d}})
		t.Rows = append(t.Rows, compareRow(cins[i], l, d, st, tr, base))
	}
	if len(series) == 0 {
		return errFailed
	}
	g := analyze.Compare(kind, series)
	po := charts.PlotOptions{Width: c.Int("width"), Height: c.Int("height"), Title: c.String("title")}
	if po.Title == "" {
		po.Title = compareTitle(kind, cins)
	}
	write := func(w io.Writer) error { return charts.WriteGraph(w, g, gformat, po) }
	if out == "-" {
		if err := write(e.stdout); err != nil {
			return err
		}
	} else {
		if err := writeAtomic(out, ins, write); err != nil {
			return err
		}
		fmt.Fprintln(e.stderr, out)
		if err := t.Write(e.stdout, format); err != nil {
			return err
		}
	}
	if failed {
		return errFailed
	}
	return nil
}

func compareRow(ci compareInput, l loaded, d reassembly.Direction, st analyze.DirStats, tr analyze.Transfer, base float64) []string {
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	row := []string{ci.label, strconv.Itoa(l.conn.Stream), d.String(), st.Src.String(), st.Dst.String(),
		i(tr.Delivered[0]), i(tr.Delivered[1]), i(tr.Delivered[2]), "", "", "", "", i(st.RetransPackets), "", "", "", ""}
	if tr.HasTimeToMB {
		row[8] = f(float64(tr.TimeToMB)/1e9, 3)
	}
	if st.HasThroughput {
		row[9] = f(st.ThroughputBps, 0)
		if base > 0 {
			row[10] = f(st.ThroughputBps/base, 2)
		}
	}
	if st.RTTSamples > 0 {
		row[11] = f(st.RTTMedianMs, 3)
	}
	if ss := tr.SlowStart; ss.Found {
		row[13], row[14], row[15], row[16] = f(float64(ss.End)/1e9, 3), strconv.Itoa(ss.Rounds), i(ss.Flight), ss.Reason
	}
	return row
}

func compareTitle(kind analyze.CompareKind, cins []compareInput) string {
	what := map[analyze.CompareKind]string{
		analyze.CompareDelivered:  "Bytes delivered",
		analyze.CompareThroughput: "Goodput",
		analyze.CompareRTT:        "Round-trip time",
	}[kind]
	t := what + " —"
	for i, ci := range cins {
		if i > 0 {
			t += " vs"
		}
		t += " " + ci.label
	}
	return t
}
