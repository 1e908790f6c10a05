package main

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/charts"
	"tcpviz/reassembly"
)

func ioCommand(e *env) *cli.Command {
	tf, of, jf := &tableFlags{}, tableOutput(), &jobsFlags{}
	picture := &pictureFlags{axes: true, noHide: true}
	filter := &filterFlags{rows: true}
	interval, iv := secondsFlag("interval", time.Second, maxSeconds, true, "width of each interval (1s, 100ms)")
	top, tv := intFlag("top", nil, 8, 0, 1000, "how many flows, those that carried the most payload, are named; the others are summed as other (0: all)", "")
	graph, gv := choiceFlag("graph", nil, charts.IOStacked, []string{charts.IOStacked, charts.IOLines, charts.IOFairness},
		"the figure (-o .png .svg .pdf): every flow's throughput stacked, a line per flow, or Jain's fairness index over time", "")
	fieldsFl, fields := fieldsFlag()
	streamsFl, streams := streamsFlag()
	return withFlags(&cli.Command{
		Name:  "io",
		Usage: "an I/O graph of every flow: packets, payload and throughput per interval of each flow of any transport, and how fairly they shared (Jain's index)",
		Description: "Counts, for every flow of the capture (TCP connections, UDP and other flows) and every\n" +
			"--interval from its first packet, the packets and the transport payload that passed the\n" +
			"capture point (retransmissions included), as Wireshark's I/O graphs and tcptrace's traffic\n" +
			"module count them. The --top flows that carried the most payload are named, the others\n" +
			"summed as other. The table has one row per interval and flow (long form), with the\n" +
			"flow's share of the interval and Jain's fairness index of the flows active in it,\n" +
			"(Σx)²/(n·Σx²): 1 when they shared equally, 1/n when one took all. -o with .png .svg\n" +
			".pdf draws the figure (--graph stacked, lines or fairness) of one capture.",
		ArgsUsage: "CAPTURE|DIR ...",
		Flags:     []cli.Flag{interval, top, graph, fieldsFl, streamsFl},
		Action: func(c *cli.Context) error {
			figure, format, err := of.figureOrTable("io", tf, isTerminal(e.stdout))
			if err != nil {
				return err
			}
			if err := checkFields("io", fields.Vs, figure != "", charts.IOColumns.Docs()); err != nil {
				return err
			}
			ins, err := e.inputsFor(c, nil, of.Output)
			if err != nil {
				return err
			}
			if figure != "" && len(ins) != 1 {
				return usagef("io: a figure is of one capture (%d given); a table takes several", len(ins))
			}
			set, err := streamSet(streams)
			if err != nil {
				return err
			}
			sel := filter.Expr // the flows --filter and -s keep
			if set != nil {
				sel = reassembly.StreamFilter{Set: set, Next: filter.Expr}
			}
			var matched *atomic.Int64 // the flows sel kept
			if sel != nil {
				matched = new(atomic.Int64)
			}
			results := make([]*analyze.IOResult, len(ins))
			failed := e.eachInput(ins, jf.Jobs, func(i int, in input) fileResult {
				stream, keep, counted := -1, sel, matched
				var seen atomic.Bool // CAPTURE#N's connection is in the capture
				if in.hasStream {    // CAPTURE#N: that connection alone
					stream = in.stream
				}
				if in.udp { // CAPTURE#udpN: that UDP flow alone
					keep = charts.Seen(in.naming().StreamFilter(), &seen, sel)
					if counted == nil {
						counted = new(atomic.Int64)
					}
				}
				o := analyze.IOOptions{Interval: iv.NS, Top: int(tv.V), Keep: charts.IOKeep(keep, counted, stream, &seen)}
				return e.readOnce(in, func(r *reassembly.Reader) fileResult {
					out, err := analyze.IO(r, o)
					if results[i] = out; out == nil {
						return resultOf(in, nil, err)
					}
					res := resultOf(in, out.Warnings, err)
					if err == nil && (in.hasStream || in.udp) && !seen.Load() {
						res.err = in.naming().Absent()
					}
					return res
				})
			})
			files := make([]string, len(ins))
			for i, in := range ins {
				files[i] = in.name
				if in.udp {
					files[i] = in.path // CAPTURE#udpN: the capture, as CAPTURE#N's
				}
			}
			write := func(w io.Writer) error { return charts.WriteIO(w, format, files, results, fields.Vs) }
			if figure != "" {
				r := results[0]
				if r == nil {
					return errReported
				}
				if len(r.Bins) == 0 {
					return fmt.Errorf("io: %s: no flow carried payload%s", ins[0].display(), map[bool]string{true: " that --filter matches", false: ""}[filter.Expr != nil])
				}
				g := charts.IOGraph(r, gv.V)
				picture.apply(g)
				po := picture.Plot
				po.Capture = charts.CaptureTitle(ins[0].name, ins[0].path == "")
				write = func(w io.Writer) error { return charts.WriteGraph(w, g, figure, po) }
			}
			if err := e.writeOutput(of.Output, ins, e.stdout, write); err != nil {
				return err
			}
			if err := filter.SelectsNothing(matched, streams.Vs); err != nil && !failed {
				return err
			}
			return reported(failed)
		},
	}, tf, of, jf, picture, filter)
}
