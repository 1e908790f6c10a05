package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/analyze/sweep"
	"tcpviz/charts"
	"tcpviz/internal/cmdline"
	"tcpviz/reassembly"
)

func sweepCommand(e *env) *cli.Command {
	tf, of, jf := &tableFlags{}, tableOutput(), &jobsFlags{}
	picture, pf := &pictureFlags{axes: true, noHide: true}, &paramFlags{}
	cols := &cmdline.List{Split: true}
	proto := &protoFlags{}
	filter := &filterFlags{}
	alignFlag, align := newAlignFlag()
	fieldsFl, fields := fieldsFlag()
	bf := &batchFlags{noShard: true}
	return withFlags(&cli.Command{
		Name:  "sweep",
		Usage: "an experiment of many captures: a metric of each capture's main flow, grouped by parameters read from the file names (mean, sd, n, 95% confidence interval), as a table or a figure",
		Description: "--param NAME=REGEX (repeatable) reads a parameter from each file name: the first group\n" +
			"(sweep_(\\d+)ms_: the lab's sweep names give the RTT), --param NAME from a pcapng's section\n" +
			"comment (NAME=VALUE), --manifest FILE from a CSV (file, then\n" +
			"a column per parameter; its files are the inputs when none is named); proto, the main flow's\n" +
			"transport, is always one. Rows are the values of --rows (in numeric order, 500ms before 1s), columns the combinations of\n" +
			"--cols (fixed_tcp_...). The metric (--metric) is a number column of summary (for a TCP flow,\n" +
			"its main direction) or of flows (throughput_bps received for UDP, at a receiver-side\n" +
			"capture; app_lost_packets, app_jitter_ms). Each capture's main flow is the one that\n" +
			"carried the most payload (--proto: of that transport; --filter: of the flows it matches).\n" +
			"A metric of compare's is one too:\n" +
			"delivered_<time>_bytes, time_to_<size>_within_s (time_to_bytes=<size>), for TCP, from\n" +
			"time 0 as --align sets it.\n" +
			"-o with .png .svg .pdf draws the\n" +
			"metric against the row parameter, one line per column, the 95% interval as bars. The\n" +
			"terminal table (-f table) writes each cell as mean ± 95% interval (runs) in one unit.",
		ArgsUsage: "CAPTURE|DIR ...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rows", Usage: "the parameter of the rows (required)"},
			&cli.GenericFlag{Name: "cols", Value: cols, Usage: "parameters whose value combinations make the columns (comma-separated; proto is one)"},
			&cli.StringFlag{Name: "metric", Value: "throughput_bps", Usage: "the summary's or flows' number column to aggregate"},
			&cli.BoolFlag{Name: "log-x", Usage: "figure: a logarithmic x axis (the row parameter's values above zero)"}, alignFlag, fieldsFl},
		Action: func(c *cli.Context) error {
			row := c.String("rows")
			if err := charts.CheckSweepNames(pf.Names, c.String("metric"), fields.Vs, cols.Vs, row); err != nil {
				return usagef("%v", err)
			}
			m, err := charts.ParseSweepMetric(c.String("metric"))
			if err != nil {
				return usagef("sweep: --metric %q: %v", c.String("metric"), err)
			}
			metric, unit := m.Name, m.Unit
			graph, format, err := of.figureOrTable("sweep", tf, isTerminal(e.stdout))
			if err != nil {
				return err
			}
			if err := checkFields("sweep", fields.Vs, graph != "", nil); err != nil {
				return err
			}
			if format == charts.TextTable && graph == "" && len(fields.Vs) > 0 {
				return usagef("sweep: --fields picks the columns of -f csv, json, ndjson or parquet; the text table writes each cell as mean ± 95%% interval (runs)")
			}
			ins, err := e.inputsFor(c, bf, of.Output, pf.args(c)...)
			if err != nil {
				return err
			}
			if err := pf.check(ins); err != nil {
				return err
			}
			ins = e.onceEach("sweep", ins)
			for _, in := range ins {
				if err := proto.contradicts("sweep", in.name, in.udp); err != nil {
					return err
				}
			}
			runs := make([]sweep.Run, len(ins))
			said := make([]bool, len(ins))      // failed with no value: its error said it
			unmatched := make([]bool, len(ins)) // no flow --filter matches: left out
			failed := e.eachInput(ins, jf.Jobs, func(i int, in input) fileResult {
				res := sweepRun(e, &runs[i], in, pf, m, analyze.Align(align.V), proto.V, filter.Flow(), &unmatched[i])
				said[i] = res.err != nil && !runs[i].OK
				return res
			})
			pv, skipped := pf.Pivot(runs, row, cols.Vs)
			none := 0
			for i := range said {
				if said[i] || unmatched[i] {
					skipped-- // not left out for a parameter or the metric
				}
				if unmatched[i] {
					none++
				}
			}
			warnings, err := charts.SweepLeftOut(len(ins), none, skipped, filter.Raw, proto.V, row, metric)
			if err != nil {
				return err
			}
			for _, w := range warnings {
				fmt.Fprintf(e.stderr, "tcpviz: warning: %s\n", w)
			}
			if len(pv.Rows) == 0 {
				return fmt.Errorf("sweep: no capture to aggregate")
			}
			if err := checkFields("sweep", fields.Vs, false, charts.SweepDocs(&pv, row, metric, unit)); err != nil && graph == "" {
				return err
			}
			write := func(w io.Writer) error { return charts.WriteSweep(w, format, &pv, row, metric, unit, fields.Vs) }
			if graph != "" {
				g := charts.SweepGraph(&pv, row, metric, unit, c.Bool("log-x"))
				e.graphWarnings("sweep", g)
				picture.apply(g)
				po := picture.Plot
				po.LogX = c.Bool("log-x")
				write = func(w io.Writer) error { return charts.WriteGraph(w, g, graph, po) }
			}
			if err := e.writeOutput(of.Output, ins, e.stdout, write); err != nil {
				return err
			}
			return reported(failed)
		},
	}, tf, of, jf, picture, pf, proto, filter, bf)
}

// onceEach is ins with each capture once (the same flow of the same
// file: named twice, through a symbolic link and its target, or in a
// folder and alone), a warning naming each one left out: an aggregate
// would count its run twice.
func (e *env) onceEach(cmd string, ins []input) []input {
	out := ins[:0:0]
	for i, j := range earlierSame(ins, func(a, b input) bool {
		return a.hasStream == b.hasStream && a.stream == b.stream && a.udp == b.udp && a.udpFlow == b.udpFlow
	}) {
		if j < 0 {
			out = append(out, ins[i])
			continue
		}
		switch again, in := ins[i].named(), ins[j].named(); {
		case again == in:
			fmt.Fprintf(e.stderr, "tcpviz: warning: %s: %s named twice: counted once\n", cmd, again)
		default:
			fmt.Fprintf(e.stderr, "tcpviz: warning: %s: %s is %s again: counted once\n", cmd, again, in)
		}
	}
	return out
}

// sweepRun reads one capture of a sweep: its parameters from its file
// name, its main flow (the one that carried the most payload, of proto
// when set, of those keep keeps when set; CAPTURE#N: connection N, or
// UDP flow N with proto udp) and
// the metric of it.
func sweepRun(e *env, run *sweep.Run, in input, pf *paramFlags, m charts.SweepMetric, align analyze.Align, proto string, keep func(*reassembly.FlowView) bool, unmatched *bool) fileResult {
	file := in.name
	if in.udp { // CAPTURE#udp[N]: the capture's busiest UDP flow (or flow N), as --proto udp
		file, proto = in.path, "udp"
	}
	*run = sweep.Run{File: file, Params: pf.Values(file)}
	passes := 1
	if m.Transfer() {
		passes = 2 // compare's numbers read the connection again
	}
	return e.readFirst(in, passes, func(src *source, r *reassembly.Reader) fileResult {
		main, st, warnings, err := sweep.MainFlow(r, proto, charts.SweepPick(in.naming(), proto, keep))
		res := resultOf(in, warnings, err)
		if main == nil {
			if res.err == nil {
				res.err = charts.SweepNoFlow(in.naming(), proto, keep != nil)
				*unmatched = res.err == nil // left out, said once for all
			}
			return res
		}
		run.Params["proto"] = reassembly.ProtoName(main.Proto)
		if !m.Transfer() {
			run.Value, run.OK = m.Of(main, st)
			return res
		}
		// compare's numbers need the connection's (or UDP flow's: bytes
		// received) records: read it again (standard input or a pipe
		// from its spool).
		l, err := analyze.Load(src.open, analyze.LoadOptions{Stream: main.Flow, Dir: -1, UDP: main.Proto != reassembly.ProtoTCP})
		if l == nil {
			return resultOf(in, nil, err)
		}
		run.Value, run.OK = m.OfTransfer(analyze.Summarize(l, analyze.TransferOptions{Align: align, At: m.At, ToBytes: m.To}))
		return res
	})
}
