package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/analyze/join"
	"tcpviz/charts"
	"tcpviz/internal/cmdline"
	"tcpviz/internal/units"
)

func compareCommand(e *env) *cli.Command {
	var (
		picture = pictureFlags{axes: true}
		table   tableFlags
		jobs    jobsFlags
		conn    connFlags
		proto   protoFlags
		filter  filterFlags
		window  = windowFlags{timeOnly: true}
		params  = graphParamFlags{command: "compare"}
		output  = graphOutput("directory for the default graph file name (compare-<graph>.png)", false)
	)
	alignFlag, align := newAlignFlag()
	at := units.Durations()
	toBytes := units.Sizes()
	labels := &cmdline.List{}
	defaultAt, defaultToBytes := charts.TransferDefaults()
	groups := []flagGroup{&conn, &proto, &filter, &window, &picture, &output, &table, &jobs, &params}
	return withFlags(&cli.Command{
		Name:  "compare",
		Usage: "overlay the main connection of several captures on one graph, with a comparison table",
		Description: "Each input is a capture, or CAPTURE#N for its stream N (default: -s, else the connection\n" +
			"with the most payload, in the direction with the most payload or --direction). The graph\n" +
			"aligns every connection at its first data byte (--align syn: at its first packet); the\n" +
			"table (on standard output) gives bytes delivered at each --at instant, the time to deliver\n" +
			"each --to-bytes amount, mean throughput and its ratio to the first input, median RTT,\n" +
			"retransmissions and where slow start ended. The path of the graph is printed on\n" +
			"standard error.",
		ArgsUsage: "CAPTURE[#STREAM] CAPTURE[#STREAM] ...",
		Flags: []cli.Flag{alignFlag,
			&cli.GenericFlag{Name: "at", Value: at, DefaultText: defaultAt, Usage: "instants after time 0 for the table's delivered_<t>_bytes columns (1s,5s,500ms; repeatable)"},
			&cli.GenericFlag{Name: "to-bytes", Value: toBytes, DefaultText: defaultToBytes, Usage: "amounts for the table's time_to_<n>_within_s columns: the time to the first n bytes of each transfer (1MiB,100KB; repeatable)"},
			&cli.GenericFlag{Name: "label", Value: labels, Usage: "name of the next input in the legend and the table's label column (repeatable, in input order)"},
			&cli.BoolFlag{Name: "facet", Usage: "small multiples: each input in a panel of its own, every panel on one scale"}},
		Action: func(c *cli.Context) error {
			graph := params.choices["graph"].V
			kind := analyze.CompareKind(graph)
			owd := kind == analyze.CompareOWD
			format := table.resolve(isTerminal(e.stdout))
			if c.NArg() < 1 {
				return usagef("compare: name at least one capture (usually two or more)")
			}
			cins, err := parseCompareInputs(c.Args().Slice(), conn.Stream)
			if err != nil {
				return err
			}
			for _, ci := range cins {
				if err := proto.contradicts("compare", ci.named, ci.udp); err != nil {
					return err
				}
			}
			names, paths := make([]string, len(cins)), make([]string, len(cins))
			for i, ci := range cins {
				names[i] = ci.label
				if ci.joined == nil {
					paths[i] = ci.name
				}
			}
			series, err := charts.CompareSeries(labels.Vs, names, paths)
			if err != nil {
				return usagef("%v", err)
			}
			for i := range cins {
				cins[i].label = series[i]
			}
			if err := picture.checkHide(series); err != nil {
				return err
			}
			if owd {
				for _, ci := range cins {
					if ci.joined == nil {
						return usagef("compare --graph owd: %s is one capture; name each input as joined captures of one transfer, A+B", charts.EscapeName(ci.name))
					}
				}
			}
			ins := make([]input, len(cins))
			for i := range cins {
				ins[i] = cins[i].input
			}
			if err := e.refuseOnceTwice(ins); err != nil {
				return err
			}
			out := output.Output
			if out == "" {
				out = filepath.Join(output.OutDir, "compare-"+graph+".png")
			}
			if err := refuseOutput(out, e.guarded(ins)); err != nil {
				return err
			}
			al := analyze.Align(align.V)
			co := analyze.CompareOptions{Align: al, Time: window.Series.Time, Params: params.Params}
			lo := analyze.CompareLoad(kind, co)
			picture.Plot.Thin(output.Format, lo.Graphs)
			loads := make([]*analyze.Loaded, len(cins))
			failed := e.eachInput(ins, jobs.Jobs, func(i int, in input) fileResult {
				cf := conn
				cf.Stream = cins[i].stream
				var res fileResult
				loads[i], res = loadMain(e, in, cins[i].udp, cf, proto.V, &filter, lo)
				return res
			})
			var cmp []analyze.CompareInput
			for i, l := range loads {
				if l != nil {
					cmp = append(cmp, analyze.CompareInput{Label: cins[i].label, Input: cins[i].named, L: l})
				}
			}
			if len(cmp) == 0 {
				return errReported
			}
			to := charts.CompareTransfer(analyze.TransferOptions{Align: al, At: at.Vs, ToBytes: toBytes.Vs})
			g, rows := analyze.Compare(kind, cmp, co, to)
			if owd {
				var owdFailed bool
				if g, owdFailed, err = e.compareOWD(cins, loads, co); err != nil {
					return err
				}
				failed = failed || owdFailed
			}
			if err := charts.CompareNothing(g, cmp, graph, co.Time); err != nil {
				// Valid flags that select nothing (a window, a graph
				// none of the inputs has, or nothing left to draw of the
				// inputs read): nothing is written.
				fmt.Fprintf(e.stderr, "tcpviz: %v\n", err)
				return errReported
			}
			picture.apply(g)
			e.graphWarnings("compare", g)
			for _, n := range charts.StderrNotes(g) {
				fmt.Fprintf(e.stderr, "tcpviz: warning: compare: %s\n", cmdline.OneLine(n))
			}
			po := picture.Plot
			po.Facet = c.Bool("facet")
			po.Capture = charts.CompareTitle(cmp)
			write := func(w io.Writer) error { return charts.WriteGraph(w, g, output.Format, po) }
			if err := e.writeOutput(out, ins, e.stderr, write); err != nil {
				return err
			}
			if out != "-" {
				for _, w := range charts.CompareWarnings(rows) {
					fmt.Fprintf(e.stderr, "tcpviz: warning: %s\n", w)
				}
				if err := charts.WriteCompare(e.stdout, format, rows, to); err != nil {
					return err
				}
			}
			return reported(failed)
		},
	}, groups...)
}

// compareInput is one argument of compare: a capture and maybe a stream.
type compareInput struct {
	input
	stream int  // -1: the connection (or UDP flow) with the most payload
	udp    bool // CAPTURE#udp or CAPTURE#udpN: a UDP flow, by udp.stream
	label  string
	named  string // as named in the table's input column
}

// parseCompareInputs reads compare's arguments (compareArg); a
// directory is every capture in it, each an input of its own. stream is
// -s, the default.
func parseCompareInputs(args []string, stream int) ([]compareInput, error) {
	var out []compareInput
	for _, a := range args {
		ci, err := compareArg(a, stream)
		if err != nil {
			return nil, err
		}
		if ci.joined != nil {
			out = append(out, ci)
			continue
		}
		st, err := os.Stat(ci.path)
		if err != nil {
			// It fails on its own, named; the others are compared.
			ci.err = fmt.Errorf("%s: %w", charts.EscapeName(ci.name), unwrapPathError(err))
			out = append(out, ci)
			continue
		}
		if st.IsDir() {
			for _, in := range expandInputs([]string{ci.path}) {
				out = append(out, compareInput{input: in, stream: stream, label: filepath.Base(in.name), named: in.name})
			}
			continue
		}
		ci.regular = st.Mode().IsRegular()
		out = append(out, ci)
	}
	return out, nil
}

// compareArg reads one argument of compare: CAPTURE, CAPTURE#N (stream
// N, else stream), CAPTURE#udp[N] (a UDP flow), A+B (joined captures: the
// first one's connection is compared, the others give the one-way delay,
// --graph owd) or A+B#N; a file whose name ends so is taken as named. The
// label is set even with an error.
func compareArg(a string, stream int) (compareInput, error) {
	ci := compareInput{input: input{name: a, path: a}, stream: stream, label: filepath.Base(a), named: filepath.Base(a)}
	if a == "-" {
		return ci, usagef("compare: standard input is not supported; name capture files")
	}
	if _, err := os.Stat(a); err == nil {
		return ci, nil
	}
	if in, ok := joinedInput(a); ok {
		return compareInput{input: in, stream: stream, label: joinedLabel(in), named: a}, nil
	}
	base, n, udp, ok, err := cmdline.CaptureSuffix(a)
	if !ok {
		return ci, nil
	}
	what, suffix := "stream", a[len(base):]
	if udp {
		what = "flow"
	}
	if err != nil {
		return ci, usagef("%s: %s number out of range", charts.EscapeName(a), what)
	}
	if in, ok := joinedInput(base); ok && !udp && strings.Contains(base, "+") { // A+B#N: stream N of the first capture
		in.stream, in.hasStream = n, true
		return compareInput{input: in, stream: n, label: joinedLabel(in) + suffix, named: a}, nil
	}
	tag := filepath.Base(base) + suffix
	ci = compareInput{input: input{name: base, path: base}, stream: n, udp: udp, label: tag, named: tag}
	if !udp { // named as given in a message (input.named)
		ci.input.stream, ci.hasStream = n, true
	}
	return ci, nil
}

// joinedLabel names joined captures A+B in a legend: their file names.
func joinedLabel(in input) string {
	l := filepath.Base(in.path)
	for _, o := range in.others() {
		l += "+" + filepath.Base(o.path)
	}
	return l
}

// compareOWD reads each input's captures and overlays the one-way delay
// across the first hop of the connection its first capture compares
// (loads[i], when read; else the busiest); failed says a capture was
// damaged (said, and joined as far as it was read).
func (e *env) compareOWD(cins []compareInput, loads []*analyze.Loaded, co analyze.CompareOptions) (g *analyze.Graph, failed bool, err error) {
	var ins []join.OWDInput
	for i, ci := range cins {
		caps, capFailed, err := e.readCaptures(append([]input{{name: ci.path, path: ci.path, regular: true}}, ci.others()...), 1)
		if err != nil {
			return nil, failed, err
		}
		failed = failed || capFailed // damaged, said: joined as far as read
		in := join.OWDInput{Label: ci.label, Name: charts.EscapeName(ci.name), Captures: caps, Stream: ci.stream, Dir: -1}
		if l := loads[i]; l != nil {
			in.Stream, in.Dir = l.Conn.Stream, int(l.Dir)
		}
		ins = append(ins, in)
	}
	g, err = join.CompareOWD(ins, co.Align == analyze.AlignFirstData, co.Time)
	return g, failed, err
}

// newAlignFlag is --align, time 0 of compare's (and a sweep's) transfer
// numbers.
func newAlignFlag() (cli.Flag, *cmdline.Choice) {
	return choiceFlag("align", nil, string(analyze.AlignFirstData), []string{string(analyze.AlignFirstData), string(analyze.AlignSYN)},
		"time 0 of each input: its first data byte (a leading greeting such as iperf3's cookie skipped), or its first packet", "")
}
