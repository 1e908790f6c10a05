package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/charts"
	"tcpviz/internal/cmdline"
	"tcpviz/reassembly"
)

// graphCommands are the commands of the graph registry: one per
// analyze.GraphSpec.Command, each taking the shared flags and its own.
func graphCommands(e *env) []*cli.Command {
	var out []*cli.Command
	seen := map[string]bool{}
	for _, g := range analyze.Graphs("") {
		if seen[g.Command] {
			continue
		}
		seen[g.Command] = true
		out = append(out, graphCommand(e, g.Command, g.Help))
	}
	return out
}

// graphRequest is a graph command's flags, parsed.
type graphRequest struct {
	proto   protoFlags
	filter  filterFlags
	conn    connFlags
	window  windowFlags
	picture pictureFlags
	output  outputFlags
	jobs    jobsFlags
	batch   batchFlags
	params  graphParamFlags
}

func graphCommand(e *env, name, usage string) *cli.Command {
	req := &graphRequest{params: graphParamFlags{command: name}, picture: pictureFlags{axes: true},
		output: graphOutput("directory for derived file names (<capture>-<graph>-s<N>.png), used without -o", false)}
	return withFlags(&cli.Command{
		Name:      name,
		Usage:     usage,
		ArgsUsage: "CAPTURE|DIR|- ...",
		Action: func(c *cli.Context) error {
			if err := req.picture.checkHide(req.params.Spec.Series); err != nil {
				return err
			}
			if seq := req.window.Series.Seq; (seq.HasMin || seq.HasMax) && !req.params.Spec.SeqWindow {
				return usagef("%s: --seq-from and --seq-to pick sequence numbers, which this graph does not draw (seq and rtt do): use --from and --to", name)
			}
			ins, err := e.inputsOf(c, &req.batch)
			if err != nil {
				return err
			}
			for _, in := range ins {
				if err := req.proto.contradicts(c.Command.Name, in.name, in.udp); err != nil {
					return err
				}
			}
			out := req.output.Output
			if out != "" && len(ins) > 1 {
				return usagef("-o names one file but there are %d inputs: use --out-dir to write one file per input", len(ins))
			}
			if err := refuseOutput(out, e.guarded(ins)); err != nil {
				return err
			}
			bases, err := charts.DerivedBases(namings(ins), true)
			if err != nil {
				return usagef("%v", err)
			}
			failed := false
			forEachInput(ins, req.jobs.Jobs, func(i int, in input) fileResult {
				return req.graphOf(e, in, ins, bases[i])
			}, func(_ int, _ input, r fileResult) {
				failed = e.printResult(r) || failed
			})
			return reported(failed)
		},
	}, &req.conn, &req.proto, &req.filter, &req.window, &req.picture, &req.output, &req.jobs, &req.batch, &req.params)
}

// loadInput reads the connection the flags select from one input: one
// pass when the stream is given, two otherwise (a non-regular input is
// spooled for them). Graphs, if set, are drawn while it is read
// (Loaded.Graphs), its records not kept.
func loadInput(e *env, in input, cf connFlags, o analyze.LoadOptions) (*analyze.Loaded, fileResult) {
	o.Stream, o.Dir = cf.Stream, cf.Dir
	return loadWith(e, in, o.Passes(), func(open func() (*reassembly.Reader, error)) (*analyze.Loaded, error) {
		return analyze.Load(open, o)
	})
}

// loadMain reads the main flow of one input: with udp or --proto udp,
// UDP flow cf.Stream (-1: the busiest) as a connection-like Loaded; else
// the connection cf and --filter choose, of either transport unless
// --proto tcp (a sweep's UDP runs: their iperf3 test, not its TCP
// control connection).
func loadMain(e *env, in input, udp bool, cf connFlags, proto string, filter *filterFlags, o analyze.LoadOptions) (*analyze.Loaded, fileResult) {
	if udp || proto == "udp" {
		return loadWith(e, in, 2, func(open func() (*reassembly.Reader, error)) (*analyze.Loaded, error) {
			return analyze.Load(open, analyze.LoadOptions{UDP: true, Stream: cf.Stream, Select: filter.Expr})
		})
	}
	o.AnyTransport, o.Select = proto == "", filter.Expr
	l, res := loadInput(e, in, cf, o)
	if err := filter.Excludes(in.named(), l); err != nil {
		res.err = err
		return nil, res
	}
	return l, res
}

// loadWith prepares in for passes reads and loads it with load; the
// result names the input in its warnings and error.
func loadWith(e *env, in input, passes int, load func(func() (*reassembly.Reader, error)) (*analyze.Loaded, error)) (*analyze.Loaded, fileResult) {
	src, err := e.newSource(in, passes)
	if err != nil {
		return nil, fileResult{err: err}
	}
	defer src.close()
	l, err := load(src.open)
	if l == nil {
		return nil, resultOf(in, nil, err)
	}
	return l, resultOf(in, l.Warnings, err)
}

// graphOf draws the graph of one input and writes it: to -o, or to a name
// derived from base in --out-dir (printed).
func (req *graphRequest) graphOf(e *env, in input, ins []input, base string) fileResult {
	cf := req.conn
	switch {
	case in.hasStream: // CAPTURE#N: that connection, whatever -s says
		cf.Stream = in.stream
	case in.udp:
		cf.Stream = in.udpFlow
	}
	qs := []analyze.GraphRequest{{Spec: req.params.Spec, Series: req.window.Series, Params: req.params.Params}}
	req.picture.Plot.Thin(req.output.Format, qs)
	q := qs[0]
	l, res := loadMain(e, in, in.udp, cf, req.proto.V, &req.filter, analyze.LoadOptions{Graphs: qs})
	if l == nil {
		return res
	}
	g, warnings, err := charts.ConnGraph(l, q, req.picture.Zoom, req.picture.Hide)
	if !in.udp && req.proto.V != "udp" {
		err = charts.WhyNoACKs(err, req.filter.Expr != nil)
	}
	for _, w := range warnings {
		res.warnings = append(res.warnings, fmt.Sprintf("%s: stream %d (%s): %s", in.display(), l.Conn.Stream, l.Dir, w))
	}
	if err != nil {
		res.err = prefixErr(in, err)
		return res
	}
	po := req.picture.Plot
	po.Capture = charts.CaptureTitle(in.name, in.path == "")
	path, format := req.output.Output, req.output.Format
	write := func(w io.Writer) error { return charts.WriteGraph(w, g, format, po) }
	if path == "-" {
		if err := write(e.stdout); err != nil && res.err == nil {
			res.err = fmt.Errorf("standard output: %w", err)
		}
		return res
	}
	if path == "" {
		var err error
		if path, err = charts.OutputPath(req.output.OutDir, charts.ConnGraphFile(base, q, l)); err != nil {
			res.err = err
			return res
		}
	}
	if err := e.writeOutput(path, ins, nil, write); err != nil {
		if res.err == nil {
			res.err = err
		}
		return res
	}
	res.lines = append(res.lines, charts.EscapeName(path))
	return res
}

// protoFlags choose the transport of the main flow (of a graph, of each
// input of compare or sweep).
type protoFlags struct{ *cmdline.Choice }

// contradicts is the usage error of a CAPTURE#udp input (name, a UDP
// flow) under --proto tcp, which asks for a TCP connection: the suffix
// was taken and the flag ignored.
func (f *protoFlags) contradicts(cmd, name string, udp bool) error {
	if !udp || f.V != "tcp" {
		return nil
	}
	return usagef("%s: %s names a UDP flow, --proto tcp a TCP connection: give one", cmd, charts.EscapeName(name))
}

func (f *protoFlags) flags() []cli.Flag {
	fl, v := choiceFlag("proto", nil, "", []string{"tcp", "udp"}, "the transport of the main flow (-s: its tcp.stream or udp.stream)",
		"the flow that carried the most payload, TCP or UDP (iperf3's UDP test, not its control connection)")
	f.Choice = v
	return []cli.Flag{fl}
}

func (f *protoFlags) parse(*cli.Context) error { return nil }
