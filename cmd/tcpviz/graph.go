package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/charts"
	"tcpviz/reassembly"
)

// graphSpec is what differs between the graph commands: the name used in
// derived file names and how the graph is built from a connection's
// records.
type graphSpec struct {
	name  func(c *cli.Context) string
	build func(c *cli.Context, recs []analyze.Record, o analyze.SeriesOptions) (*analyze.Graph, error)
	check func(c *cli.Context) error // validates the command's own flags; may be nil
}

// graphFlags are the flags every graph command takes.
func graphFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "stream", Aliases: []string{"s"}, Value: -1, DefaultText: "the connection with the most payload",
			Usage: "the connection to graph, by Wireshark's tcp.stream number"},
		&cli.StringFlag{Name: "direction", DefaultText: "the direction with the most payload",
			Usage: "the direction whose data is graphed: c2s (from the SYN sender) or s2c"},
		&cli.Float64Flag{Name: "from", Usage: "start of the time window, in seconds from the connection's first packet"},
		&cli.Float64Flag{Name: "to", Usage: "end of the time window, in seconds from the connection's first packet"},
		&cli.Int64Flag{Name: "seq-from", Usage: "start of the sequence window (in the numbering shown: relative, or absolute with --absolute-seq)"},
		&cli.Int64Flag{Name: "seq-to", Usage: "end of the sequence window"},
		&cli.BoolFlag{Name: "absolute-seq", Usage: "show sequence numbers as in the headers (unwrapped) instead of relative to the ISN"},
		&cli.BoolFlag{Name: "absolute-time", Usage: "show wall-clock times (UTC) instead of seconds from the connection's first packet"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"},
			Usage: "file to write; its extension picks the format: .png .svg .pdf, or the plotted points as .csv .json; - writes CSV to standard output"},
		&cli.StringFlag{Name: "out-dir", Value: ".", Usage: "directory for derived file names (<capture>-<graph>-s<N>.png), used without -o"},
		&cli.IntFlag{Name: "width", Value: charts.DefaultWidth, Usage: "picture width in pixels"},
		&cli.IntFlag{Name: "height", Value: charts.DefaultHeight, Usage: "picture height in pixels"},
		&cli.StringFlag{Name: "title", Usage: "title instead of the generated one (graph, connection, capture)"},
		jobsFlag,
	}
}

// graphRequest is a graph command's flags, checked.
type graphRequest struct {
	spec    *graphSpec
	ctx     *cli.Context
	stream  int // -1: most payload
	dir     int // -1: most payload; else a reassembly.Direction
	series  analyze.SeriesOptions
	output  string
	outDir  string
	plot    charts.PlotOptions
	inputs  []input
	graphID string
}

func graphCommand(e *env, name, usage string, spec *graphSpec, extra ...cli.Flag) *cli.Command {
	return &cli.Command{
		Name:      name,
		Usage:     usage,
		ArgsUsage: "CAPTURE|DIR|- ...",
		Flags:     append(graphFlags(), extra...),
		Action: func(c *cli.Context) error {
			req, err := parseGraphRequest(c, spec)
			if err != nil {
				return err
			}
			failed := false
			forEachInput(req.inputs, c.Int("jobs"), func(in input) fileResult {
				return req.graphOf(in, e)
			}, func(in input, r fileResult) {
				failed = report(e.stderr, r) || failed
				for _, row := range r.rows {
					fmt.Fprintln(e.stdout, row[0])
				}
			})
			if failed {
				return errFailed
			}
			return nil
		},
	}
}

func parseGraphRequest(c *cli.Context, spec *graphSpec) (*graphRequest, error) {
	req := &graphRequest{spec: spec, ctx: c, stream: c.Int("stream"), dir: -1,
		output: c.String("output"), outDir: c.String("out-dir")}
	if c.IsSet("stream") && req.stream < 0 {
		return nil, usagef("--stream must be 0 or more")
	}
	switch d := c.String("direction"); d {
	case "":
	case "c2s":
		req.dir = int(reassembly.C2S)
	case "s2c":
		req.dir = int(reassembly.S2C)
	default:
		return nil, usagef("--direction %q: want c2s or s2c", d)
	}
	o := &req.series
	for _, f := range []struct {
		name string
		set  *bool
		val  *int64
	}{{"from", &o.Time.HasMin, &o.Time.Min}, {"to", &o.Time.HasMax, &o.Time.Max}} {
		if !c.IsSet(f.name) {
			continue
		}
		v := c.Float64(f.name)
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e9 {
			return nil, usagef("--%s %v: want seconds", f.name, v)
		}
		*f.set, *f.val = true, int64(math.Round(v*1e9))
	}
	if o.Time.HasMin && o.Time.HasMax && o.Time.Min >= o.Time.Max {
		return nil, usagef("--from must be before --to")
	}
	if c.IsSet("seq-from") {
		o.Seq.HasMin, o.Seq.Min = true, c.Int64("seq-from")
	}
	if c.IsSet("seq-to") {
		o.Seq.HasMax, o.Seq.Max = true, c.Int64("seq-to")
	}
	if o.Seq.HasMin && o.Seq.HasMax && o.Seq.Min >= o.Seq.Max {
		return nil, usagef("--seq-from must be below --seq-to")
	}
	o.AbsoluteSeq, o.AbsoluteTime = c.Bool("absolute-seq"), c.Bool("absolute-time")
	req.plot = charts.PlotOptions{Width: c.Int("width"), Height: c.Int("height"), Title: c.String("title")}
	for _, v := range []int{req.plot.Width, req.plot.Height} {
		if v < 100 || v > 20000 {
			return nil, usagef("--width and --height: want 100 to 20000 pixels")
		}
	}
	if spec.check != nil {
		if err := spec.check(c); err != nil {
			return nil, err
		}
	}
	if req.output != "" {
		if _, err := charts.GraphFormatOf(req.output); err != nil {
			return nil, usagef("-o %s", err)
		}
	}
	ins, err := inputsOf(c)
	if err != nil {
		return nil, err
	}
	if req.output != "" && len(ins) > 1 {
		return nil, usagef("-o names one file but there are %d inputs: use --out-dir to write one file per input", len(ins))
	}
	if req.output != "" && req.output != "-" {
		if err := refuseInput(req.output, ins); err != nil {
			return nil, err
		}
	}
	req.inputs = ins
	req.graphID = spec.name(c)
	return req, nil
}

// graphOf draws the graph of one input and writes it. The row it returns
// holds the path written ("" when the graph went to standard output).
func (req *graphRequest) graphOf(in input, e *env) fileResult {
	src, cleanup, err := rereadable(in, e)
	if err != nil {
		return fileResult{err: err}
	}
	defer cleanup()
	l, res := load(src, e, req.stream)
	conn, recs := l.conn, l.recs
	if conn == nil {
		return res
	}
	o := req.series
	o.Conn = conn
	o.Dir = mainDirection(conn)
	if req.dir >= 0 {
		o.Dir = reassembly.Direction(req.dir)
	}
	g, err := req.spec.build(req.ctx, recs, o)
	if err != nil {
		res.err = fmt.Errorf("%s: %w", in.name, err)
		return res
	}
	po := req.plot
	po.Capture = in.name
	if in.path == "" {
		po.Capture = "standard input"
	}
	path, format := req.output, charts.PNG
	if path != "" {
		format, _ = charts.GraphFormatOf(path)
	} else {
		path, err = outputPath(req.outDir, fmt.Sprintf("%s-%s-s%d.png", captureBase(in), req.graphID, conn.Stream))
		if err != nil {
			res.err = err
			return res
		}
	}
	write := func(w io.Writer) error { return charts.WriteGraph(w, g, format, po) }
	if path == "-" {
		if err := write(e.stdout); err != nil && res.err == nil {
			res.err = fmt.Errorf("standard output: %w", err)
		}
		return res
	}
	if err := writeAtomic(path, req.inputs, write); err != nil {
		if res.err == nil {
			res.err = err
		}
		return res
	}
	res.rows = append(res.rows, []string{path})
	return res
}

// loaded is one connection of a capture, analysed.
type loaded struct {
	conn  *reassembly.Conn
	recs  []analyze.Record
	stats [2]analyze.DirStats
}

// load reads a capture and returns connection stream (-1: the one with
// the most payload) with its records and statistics; conn is nil when it
// could not. The first pass (skipped when the stream is given) finds the
// connection with the most payload; the second runs the analysis over
// every segment and keeps the records of that connection only.
func load(in input, e *env, stream int) (loaded, fileResult) {
	var res fileResult
	expect := 0 // the stream's packets, when the first pass counted them
	if stream < 0 {
		s, n, err := busiestStream(in, e)
		if err != nil {
			return loaded{}, fileResult{err: err}
		}
		stream, expect = s, n
	}
	oc, err := in.open(e.stdin)
	if err != nil {
		return loaded{}, fileResult{err: err}
	}
	defer oc.close()
	sc := reassembly.NewScanner(oc.Reader)
	streams := 0
	sc.Tracker().OnNew = func(*reassembly.Conn) { streams++ }
	a := analyze.New()
	var conn *reassembly.Conn
	recs := records{all: make([]analyze.Record, 0, expect)}
	for sc.Scan() {
		seg, c := sc.Segment(), sc.Conn()
		info := a.Add(c, seg)
		if c.Stream == stream {
			conn = c
			recs.add(analyze.NewRecord(c, seg, info))
		}
	}
	res.warnings = scanWarnings(in, sc)
	if err := sc.Err(); err != nil {
		res.err = fmt.Errorf("%s: %w (%d packets before it were read)", in.name, err, sc.Packets())
	}
	if conn == nil {
		if res.err == nil {
			if streams == 0 {
				res.err = fmt.Errorf("%s: no TCP connection in the capture", in.name)
			} else {
				res.err = fmt.Errorf("%s: no stream %d (the capture has streams 0 to %d)", in.name, stream, streams-1)
			}
		}
		return loaded{}, res
	}
	return loaded{conn: conn, recs: recs.slice(), stats: a.Stats(conn)}, res
}

// records collects a connection's records. When the number to expect is
// known, they go straight into one slice of that size; otherwise into
// chunks joined at the end: growing one slice of a million records copies
// it again and again, in steps the garbage collector cannot interrupt.
type records struct {
	all    []analyze.Record
	chunks [][]analyze.Record
	n      int
}

const recordChunk = 1 << 14

func (r *records) add(rec analyze.Record) {
	if len(r.all) < cap(r.all) {
		r.all = append(r.all, rec)
		return
	}
	if r.n%recordChunk == 0 {
		r.chunks = append(r.chunks, make([]analyze.Record, 0, recordChunk))
	}
	last := &r.chunks[len(r.chunks)-1]
	*last = append(*last, rec)
	r.n++
}

func (r *records) slice() []analyze.Record {
	if r.n == 0 {
		return r.all
	}
	out := make([]analyze.Record, len(r.all)+r.n)
	off := copy(out, r.all)
	for i, c := range r.chunks {
		off += copy(out[off:], c)
		r.chunks[i] = nil
	}
	return out
}

// busiestStream is the first pass: the stream number of the connection
// that carried the most payload (the first of equals), and its packets.
func busiestStream(in input, e *env) (int, int, error) {
	oc, err := in.open(e.stdin)
	if err != nil {
		return 0, 0, err
	}
	defer oc.close()
	sc := reassembly.NewScanner(oc.Reader)
	best, bestBytes, packets := -1, int64(-1), 0
	sc.Tracker().OnRetire = func(c *reassembly.Conn) {
		b := c.Dir[0].Bytes + c.Dir[1].Bytes
		if b > bestBytes || b == bestBytes && c.Stream < best {
			best, bestBytes = c.Stream, b
			packets = int(c.Dir[0].Packets + c.Dir[1].Packets)
		}
	}
	for sc.Scan() {
	}
	if best < 0 {
		if err := sc.Err(); err != nil {
			return 0, 0, fmt.Errorf("%s: %w", in.name, err)
		}
		return 0, 0, fmt.Errorf("%s: no TCP connection in the capture", in.name)
	}
	return best, packets, nil
}

// mainDirection is the direction that carried the most payload (c2s when
// equal).
func mainDirection(c *reassembly.Conn) reassembly.Direction {
	if c.Dir[reassembly.S2C].Bytes > c.Dir[reassembly.C2S].Bytes {
		return reassembly.S2C
	}
	return reassembly.C2S
}

// rereadable returns an input that can be read more than once: the input
// itself, or for standard input a temporary copy, removed by cleanup.
func rereadable(in input, e *env) (input, func(), error) {
	if in.path != "" {
		return in, func() {}, nil
	}
	f, err := os.CreateTemp("", "tcpviz-stdin-*")
	if err != nil {
		return in, nil, fmt.Errorf("-: %w", err)
	}
	cleanup := func() { os.Remove(f.Name()) }
	_, err = io.Copy(f, e.stdin)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return in, nil, fmt.Errorf("-: %w", err)
	}
	in.path = f.Name()
	return in, cleanup, nil
}

// captureBase is the capture's file name without compression and capture
// extensions, for derived output names ("stdin" for standard input).
func captureBase(in input) string {
	if in.path == "" {
		return "stdin"
	}
	b := filepath.Base(in.name)
	for _, ext := range []string{".gz", ".zst", ".zstd"} {
		b = strings.TrimSuffix(b, ext)
	}
	switch strings.ToLower(filepath.Ext(b)) {
	case ".pcap", ".pcapng", ".cap", ".snoop", ".dmp", ".trace":
		b = strings.TrimSuffix(b, filepath.Ext(b))
	}
	if b == "" {
		b = "capture"
	}
	return b
}

// seqCommand is `tcpviz seq`.
func seqCommand(e *env) *cli.Command {
	spec := &graphSpec{
		name: func(c *cli.Context) string {
			if c.String("style") == "stevens" {
				return "stevens"
			}
			return "seq"
		},
		check: func(c *cli.Context) error {
			switch s := c.String("style"); s {
			case "tcptrace", "stevens":
				return nil
			default:
				return usagef("--style %q: want tcptrace or stevens", s)
			}
		},
		build: func(c *cli.Context, recs []analyze.Record, o analyze.SeriesOptions) (*analyze.Graph, error) {
			if c.String("style") == "stevens" {
				return analyze.Stevens(recs, o), nil
			}
			return analyze.TCPTrace(recs, o), nil
		},
	}
	return graphCommand(e, "seq", "time/sequence graph: --style tcptrace (segments, ACK and window lines, SACK, events) or stevens", spec,
		&cli.StringFlag{Name: "style", Value: "tcptrace", Usage: "tcptrace or stevens"})
}
