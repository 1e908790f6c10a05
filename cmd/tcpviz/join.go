package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/analyze/join"
	"tcpviz/charts"
	"tcpviz/reassembly"
)

func joinCommand(e *env) *cli.Command {
	tf, of, jf := &tableFlags{}, tableOutput(), &jobsFlags{}
	picture, conn := &pictureFlags{axes: true}, &connFlags{}
	filter := &filterFlags{rows: true}
	graphFlag, graph := choiceFlag("graph", nil, "", []string{string(join.GraphOWD), string(join.GraphProxy)},
		"draw a graph of the first hop instead of the table, to -o (.png .svg .pdf, or its points as .csv .json): owd (one-way and queueing delay over time, the losses marked where they happened), proxy (for a connection a proxy splits: bytes it accepted, delivered beyond it, held)", "the table")
	fieldsFl, fields := fieldsFlag()
	return withFlags(&cli.Command{
		Name:  "join",
		Usage: "line up captures of the same transfers taken at different points of the path: per hop, what was lost, reordered and delayed between them",
		Description: "The captures are put in path order from the evidence (the round trip between each two\n" +
			"does not depend on their clocks), each packet is found again in the next capture (by its\n" +
			"TCP header and IPv4 ID: a NAT's new addresses and ports do not matter), and the clocks are\n" +
			"lined up from the fastest packets each way (offset, drift, and how far path asymmetry could\n" +
			"move the offset). One row per hop, connection and direction, in the formats of summary.\n" +
			"CAPTURE#N keeps connection N of that capture (along every hop it was seen at) and stands for -s.\n" +
			"--columns lists every column with its unit and meaning.",
		ArgsUsage: "CAPTURE[#N] CAPTURE[#N] [CAPTURE...]",
		Flags: []cli.Flag{graphFlag,
			&cli.BoolFlag{Name: "columns", Usage: "list the columns (name, type and unit, meaning) and exit"}, fieldsFl},
		Action: func(c *cli.Context) error {
			if err := picture.checkHide(join.GraphSeries(analyze.GraphKind(graph.V))); err != nil {
				return err
			}
			var gformat charts.GraphFormat
			if graph.V != "" {
				if of.Output == "" {
					return usagef("join --graph %s: name the picture with -o (.png .svg .pdf, or .csv .json for its points; - for its points on standard output)", graph.V)
				}
				f, err := graphFormat(of.Output)
				if err != nil {
					return err
				}
				gformat = f
			}
			if c.Bool("columns") {
				return charts.WriteDocs(e.stdout, charts.JoinColumns.Docs())
			}
			if err := checkFields("join", fields.Vs, gformat != "", charts.JoinColumns.Docs()); err != nil {
				return err
			}
			if of.OutDir != "" {
				return usagef("join: --out-dir: the join is one table; name it with -o")
			}
			format := charts.CSV
			if gformat == "" {
				f, err := of.format(tf, isTerminal(e.stdout))
				if err != nil {
					return err
				}
				format = f
			}
			ins, err := e.inputsFor(c, nil, of.Output)
			if err != nil {
				return err
			}
			if len(ins) < 2 {
				return usagef("join: name two captures or more of the same transfers (got %d)", len(ins))
			}
			if err := refuseSameCapture("join", ins); err != nil {
				return err
			}
			// The join holds every capture's packets at once: a heap goal
			// of 1.5 times what is live (not Go's default 2) keeps two
			// captures of 1 M packets under 300 MB, at no cost in time.
			if os.Getenv("GOGC") == "" {
				defer debug.SetGCPercent(debug.SetGCPercent(50))
			}
			res, readErr := e.joinInputs(ins, jf.Jobs, conn)
			if res == nil {
				return readErr
			}
			if err := filter.SelectJoined(res); err != nil {
				return err
			}
			if gformat == "" && conn.Stream >= 0 {
				// -s N: connection N of the first hop's first capture, on
				// every hop it was seen at, as CAPTURE#N keeps it.
				if !res.Select(res.Hops[0].Up, reassembly.StreamFilter{Set: map[int]bool{conn.Stream: true}}) {
					return filter.NoPick(conn.Stream, res)
				}
			}
			write := func(w io.Writer) error { return charts.WriteJoin(w, format, res, fields.Vs) }
			if gformat != "" {
				ch, d, ok := res.Pick(conn.Stream, conn.Dir)
				if !ok {
					return filter.NoPick(conn.Stream, res)
				}
				g, err := join.Graph(analyze.GraphKind(graph.V), res.Hops[0], ch, d)
				if err != nil {
					return fmt.Errorf("--graph %s: %w", graph.V, err)
				}
				picture.apply(g)
				e.graphWarnings("join", g)
				po := picture.Plot
				write = func(w io.Writer) error { return charts.WriteGraph(w, g, gformat, po) }
			}
			if err := e.writeOutput(of.Output, ins, e.stdout, write); err != nil {
				return err
			}
			return readErr
		},
	}, tf, of, jf, conn, filter, picture)
}

// refuseSameCapture is the usage error of one capture file named twice
// (or through a symbolic link and its target) among captures of points
// along a path: joined with itself it is no hop.
func refuseSameCapture(cmd string, ins []input) error {
	for i, j := range earlierSame(ins, func(a, b input) bool { return true }) {
		if j >= 0 {
			return usagef("%s: %s and %s are one capture: name each capture point once", cmd, ins[j].named(), ins[i].named())
		}
	}
	return nil
}

// readCaptures reads every input for the join. A capture damaged part
// way keeps what was read before the damage (the error said; failed is
// then set, and the run exits 1); one that cannot be read at all, or
// holds no TCP packet, ends the run (err).
func (e *env) readCaptures(ins []input, jobs int) (caps []*join.Capture, failed bool, err error) {
	caps = make([]*join.Capture, len(ins))
	failed = e.eachInput(ins, jobs, func(i int, in input) fileResult {
		return e.readOnce(in, func(r *reassembly.Reader) fileResult {
			var err error
			caps[i], err = join.Read(in.name, r)
			return resultOf(in, nil, err)
		})
	})
	for i, c := range caps {
		if c == nil {
			return nil, failed, errReported
		}
		if c.Packets == 0 {
			return nil, failed, fmt.Errorf("%s: no TCP packet", ins[i].display())
		}
	}
	return caps, failed, nil
}

// joinInputs reads every input (readCaptures), joins them and keeps the
// connections CAPTURE#N names (selectStreams); res nil says the run ends
// with err.
func (e *env) joinInputs(ins []input, jobs int, cf *connFlags) (*join.Result, error) {
	caps, failed, err := e.readCaptures(ins, jobs)
	if err != nil {
		return nil, err
	}
	res, err := join.Join(caps)
	if err != nil {
		if errors.Is(err, join.ErrNothingInCommon) {
			return nil, fmt.Errorf("%w (captures of different transfers?)", err)
		}
		return nil, err
	}
	for _, w := range charts.JoinWarnings(res) {
		fmt.Fprintf(e.stderr, "tcpviz: warning: %s\n", w)
	}
	if err := selectStreams(res, ins, caps, cf); err != nil {
		return nil, err
	}
	if failed {
		return res, errReported
	}
	return res, nil
}

func ladderCommand(e *env) *cli.Command {
	picture, conn := &pictureFlags{}, &connFlags{}
	window := &windowFlags{timeOnly: true}
	ladderOut := graphOutput("directory for the default file name (ladder.png)", false)
	output := &ladderOut
	jf := &jobsFlags{}
	packets, pv := intFlag("packets", nil, join.LadderPackets, 1, 100000, "draw the connection's first N packets (at the first capture)", "")
	filter := &filterFlags{}
	groups := []flagGroup{conn, filter, window, picture, output, jf}
	return withFlags(&cli.Command{
		Name:  "ladder",
		Usage: "ladder diagram of one connection: one line per capture point, one arrow per packet (one capture: the far end estimated, dashed)",
		Description: "Time runs down; each arrow goes from where a packet was seen first to where it was seen\n" +
			"next, labelled as Wireshark's Flow Graph labels it ([flags] Seq, Ack, Len; numbers relative\n" +
			"to the SYN). With two captures or more of the same transfer (as join takes them) the times at\n" +
			"every point are real (the clocks lined up as join does) and a lost packet's arrow stops half\n" +
			"way; with one, the far end's times are estimated from the handshake and drawn dashed. The\n" +
			"first --packets packets of the busiest connection (-s: another; --filter: the busiest it\n" +
			"matches; CAPTURE#N: connection N of that capture, whatever -s says), or --from/--to.",
		ArgsUsage: "CAPTURE[#N] [CAPTURE...]",
		Flags:     []cli.Flag{packets},
		Action: func(c *cli.Context) error {
			out := output.Output
			if out == "" {
				out = filepath.Join(output.OutDir, "ladder.png")
			}
			ins, err := e.inputsFor(c, nil, out)
			if err != nil {
				return err
			}
			if err := refuseSameCapture("ladder", ins); err != nil {
				return err
			}
			o := join.LadderOptions{Packets: int(pv.V), Time: window.Series.Time}
			var res *join.Result
			var readErr error
			if len(ins) == 1 {
				caps, failed, err := e.readCaptures(ins, 1)
				if err != nil {
					return err
				}
				if failed {
					readErr = errReported
				}
				res = &join.Result{Captures: caps}
				if err := selectStreams(res, ins, caps, conn); err != nil {
					return err
				}
			} else {
				defer debug.SetGCPercent(debug.SetGCPercent(50))
				if res, readErr = e.joinInputs(ins, jf.Jobs, conn); res == nil {
					return readErr
				}
			}
			g, err := filter.Ladder(res, ins[0].display(), conn.Stream, o)
			if err != nil {
				return err
			}
			e.graphWarnings("ladder", g)
			po := picture.Plot
			write := func(w io.Writer) error { return charts.WriteGraph(w, g, output.Format, po) }
			if err := e.writeOutput(out, ins, e.stdout, write); err != nil {
				return err
			}
			return readErr
		},
	}, groups...)
}

// selectStreams keeps, of res (caps read from ins), the connection each
// CAPTURE#N names (charts.SelectStreams), which then stands for -s
// (cf.Stream -1: the one kept).
func selectStreams(res *join.Result, ins []input, caps []*join.Capture, cf *connFlags) error {
	selected, err := charts.SelectStreams(res, caps, namings(ins))
	if selected {
		cf.Stream = -1
	}
	return err
}

// reportJoined adds to a report of A+B… the section of the joined
// captures (charts.AddJoined) of the main connection.
func (e *env) reportJoined(in input, rep *charts.Report, cf connFlags, po charts.PlotOptions, put charts.Put) error {
	ins := append([]input{{name: in.path, path: in.path, regular: true}}, in.others()...)
	caps, failed, err := e.readCaptures(ins, 1)
	if err != nil {
		return err
	}
	res, err := join.Join(caps)
	if err != nil {
		return err
	}
	ch, d, ok := res.Pick(cf.Stream, cf.Dir)
	if !ok {
		return fmt.Errorf("-s %d: not in both %s", cf.Stream, charts.HopName(res.Hops[0]))
	}
	if err := charts.AddJoined(rep, res, ch, d, po, put); err != nil {
		return err
	}
	return reported(failed) // a damaged capture, said: joined as far as read
}
