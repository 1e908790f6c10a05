package main

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/charts"
	"tcpviz/internal/cmdline"
	"tcpviz/internal/units"
	"tcpviz/internal/words"
	"tcpviz/reassembly"
)

// Flags are declared once per kind (which connection, which window of it,
// the picture, the output, the table format, parallelism, each graph's
// own choices) and parsed once into plain values, with the same limits
// for every command that takes them. Values are checked as they are read:
// a bad one is a usage error naming the flag (exit 2) before any input is
// read.

// A flag value type (units' and cmdline's: IntValue, SecondsValue,
// NumberValue, WindowValue, ListValue, Choice, List): urfave/cli calls
// Set with the text given.

// fieldsFlag is --fields, the one declaration of every table's: the
// columns to write, in order.
func fieldsFlag() (cli.Flag, *cmdline.List) {
	v := &cmdline.List{Split: true}
	return &cli.GenericFlag{Name: "fields", Value: v, Usage: "only these columns, in this order (comma-separated; rtt_* or *_ms for every column matching)", DefaultText: "all"}, v
}

// streamsFlag is -s of the commands of many flows (the tables, io), one
// declaration: stream numbers and ranges, read by streamSet.
func streamsFlag() (cli.Flag, *cmdline.List) {
	v := &cmdline.List{Split: true, Want: "stream numbers and ranges (1,3-5)"}
	return &cli.GenericFlag{Name: "stream", Aliases: []string{"s"}, Value: v, Usage: "only these streams (flows' numbers for flows and io): 1,3-5", DefaultText: "all"}, v
}

// streamSet is the streams -s names (numbers and ranges), nil without
// it; a bad list is a usage error.
func streamSet(v *cmdline.List) (map[int]bool, error) {
	if len(v.Vs) == 0 {
		return nil, nil
	}
	set, err := reassembly.ParseStreamSet(v.Vs)
	if err != nil {
		return nil, usagef("-s %v", err)
	}
	return set, nil
}

// checkFields is the usage error of --fields on command cmd whose output
// is one table of cols (nil: known once read) or a figure
// (charts.CheckFields).
func checkFields(cmd string, fields []string, figure bool, cols []charts.Doc) error {
	if err := charts.CheckFields(cmd, fields, figure, cols); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// Flag constructors. Each call makes a new value, so commands share no
// state.

func intFlag(name string, aliases []string, def, min, max int64, usage, defText string) (*cli.GenericFlag, *units.IntValue) {
	v := &units.IntValue{V: def, Min: min, Max: max}
	return &cli.GenericFlag{Name: name, Aliases: aliases, Value: v, Usage: usage, DefaultText: defText}, v
}

func secondsFlag(name string, def, max time.Duration, pos bool, usage string) (*cli.GenericFlag, *units.SecondsValue) {
	v := &units.SecondsValue{NS: int64(def), Max: max, Pos: pos}
	return &cli.GenericFlag{Name: name, Value: v, Usage: usage}, v
}

func choiceFlag(name string, aliases []string, def string, choices []string, usage, defText string) (*cli.GenericFlag, *cmdline.Choice) {
	v := &cmdline.Choice{V: def, Choices: choices}
	return &cli.GenericFlag{Name: name, Aliases: aliases, Value: v, Usage: usage + " (" + words.Or(choices) + ")", DefaultText: defText}, v
}

// flagGroup is one kind of flag: its declarations, and the parse that
// turns what was given into plain values.
type flagGroup interface {
	flags() []cli.Flag
	parse(c *cli.Context) error
}

// withFlags declares the flags of groups on cmd, ahead of its own, and
// parses them all (cmd.Before) before its action runs: the first error
// is a usage error.
func withFlags(cmd *cli.Command, groups ...flagGroup) *cli.Command {
	var flags []cli.Flag
	for _, g := range groups {
		flags = append(flags, g.flags()...)
	}
	cmd.Flags = append(flags, cmd.Flags...)
	cmd.Before = func(c *cli.Context) error {
		for _, g := range groups {
			if err := g.parse(c); err != nil {
				return err
			}
		}
		return nil
	}
	return cmd
}

// connFlags choose a connection and a direction.
type connFlags struct {
	stream    *units.IntValue
	direction *cmdline.Choice
	Stream    int // -1: the connection with the most payload
	Dir       int // -1: the direction with the most payload
}

func (f *connFlags) flags() []cli.Flag {
	s, sv := intFlag("stream", []string{"s"}, -1, 0, math.MaxInt32, "the connection, by Wireshark's tcp.stream number", "the connection with the most payload")
	d, dv := choiceFlag("direction", nil, "", []string{"c2s", "s2c"}, "the direction whose data is shown (c2s: from the SYN sender)", "the direction with the most payload")
	f.stream, f.direction = sv, dv
	return []cli.Flag{s, d}
}

func (f *connFlags) parse(c *cli.Context) error {
	f.Stream, f.Dir = -1, -1
	if c.IsSet("stream") {
		f.Stream = int(f.stream.V)
	}
	switch f.direction.V {
	case "c2s":
		f.Dir = int(reassembly.C2S)
	case "s2c":
		f.Dir = int(reassembly.S2C)
	}
	return nil
}

// maxSeconds bounds times given on the command line (about 31 years).
const maxSeconds = units.MaxSeconds

// windowFlags choose a window on the connection and how numbers are shown.
type windowFlags struct {
	timeOnly       bool // --from and --to only (compare)
	from, to       *units.SecondsValue
	seqFrom, seqTo *units.IntValue
	Series         analyze.SeriesOptions
}

func (f *windowFlags) flags() []cli.Flag {
	from, fv := secondsFlag("from", 0, maxSeconds, false, "start of the time window, in seconds from the connection's first packet (1.5, 1.5s, 600ms)")
	to, tv := secondsFlag("to", 0, maxSeconds, false, "end of the time window, in seconds from the connection's first packet")
	sf, sfv := intFlag("seq-from", nil, 0, math.MinInt64, math.MaxInt64, "start of the sequence window (in the numbering shown: relative, or absolute with --absolute-seq)", "")
	st, stv := intFlag("seq-to", nil, 0, math.MinInt64, math.MaxInt64, "end of the sequence window", "")
	f.from, f.to, f.seqFrom, f.seqTo = fv, tv, sfv, stv
	from.DefaultText, to.DefaultText = "the connection's first packet", "its last"
	sf.DefaultText, st.DefaultText = "the lowest", "the highest"
	if f.timeOnly {
		from.Usage = "start of the time window, in seconds from each input's time 0 (--align)"
		to.Usage = "end of the time window, in seconds from each input's time 0"
		return []cli.Flag{from, to}
	}
	return []cli.Flag{from, to, sf, st,
		&cli.BoolFlag{Name: "absolute-seq", Usage: "show sequence numbers as in the headers (unwrapped) instead of relative to the ISN"},
		&cli.BoolFlag{Name: "absolute-time", Usage: "show wall-clock times (UTC) instead of seconds from the connection's first packet"},
	}
}

func (f *windowFlags) parse(c *cli.Context) error {
	o := &f.Series
	if c.IsSet("from") {
		o.Time.HasMin, o.Time.Min = true, f.from.NS
	}
	if c.IsSet("to") {
		o.Time.HasMax, o.Time.Max = true, f.to.NS
	}
	if o.Time.HasMin && o.Time.HasMax && o.Time.Min >= o.Time.Max {
		return usagef("--from must be before --to")
	}
	if f.timeOnly {
		return nil
	}
	if c.IsSet("seq-from") {
		o.Seq.HasMin, o.Seq.Min = true, f.seqFrom.V
	}
	if c.IsSet("seq-to") {
		o.Seq.HasMax, o.Seq.Max = true, f.seqTo.V
	}
	if o.Seq.HasMin && o.Seq.HasMax && o.Seq.Min >= o.Seq.Max {
		return usagef("--seq-from must be below --seq-to")
	}
	o.AbsoluteSeq, o.AbsoluteTime = c.Bool("absolute-seq"), c.Bool("absolute-time")
	return nil
}

// pictureFlags size and title a picture, and with axes set the y axis
// of a graph: its range, log scale, and series to hide.
type pictureFlags struct {
	theme         *cmdline.Choice
	fontSize      *units.NumberValue
	lineWidth     *units.NumberValue
	axes          bool
	noHide        bool // axes but no --hide (sweep: its series are known once read)
	width, height *units.IntValue
	yMin, yMax    *units.NumberValue
	hide          *cmdline.List
	Plot          charts.PlotOptions
	Zoom          analyze.Zoom // the y bounds asked for
	Hide          []string
}

func (f *pictureFlags) flags() []cli.Flag {
	w, wv := intFlag("width", nil, charts.DefaultWidth, charts.MinSide, charts.MaxSide, "picture width in pixels", "")
	h, hv := intFlag("height", nil, charts.DefaultHeight, charts.MinSide, charts.MaxSide, "picture height in pixels", "")
	f.width, f.height = wv, hv
	theme, tv := choiceFlag("theme", nil, "default", charts.Themes, "the look: default (Wireshark's colours on a grid) or paper (a journal's figure: colour-blind and grayscale safe, every line its own dashes and markers, no grid)", "")
	f.theme, f.fontSize, f.lineWidth = tv, &units.NumberValue{Range: charts.CheckFontSize}, &units.NumberValue{Range: charts.CheckLineWidth}
	out := []cli.Flag{w, h, &cli.StringFlag{Name: "title", Usage: "title instead of the generated one"}, theme,
		&cli.GenericFlag{Name: "font-size", Value: f.fontSize, DefaultText: "10",
			Usage: fmt.Sprintf("size of the tick labels in points, %g to %g (the title, axis labels and legend scale with it)", charts.MinFontSize, charts.MaxFontSize)},
		&cli.GenericFlag{Name: "line-width", Value: f.lineWidth, DefaultText: "each series' own",
			Usage: fmt.Sprintf("width of every line in points, %g to %g", charts.MinLineWidth, charts.MaxLineWidth)}}
	if !f.axes {
		return out
	}
	f.yMin, f.yMax, f.hide = &units.NumberValue{}, &units.NumberValue{}, &cmdline.List{Split: true}
	out = append(out,
		&cli.GenericFlag{Name: "y-min", Value: f.yMin, Usage: "bottom of the y axis, in the unit of the data (bytes, ms, bit/s; 1.5k, 8M)", DefaultText: "from the data"},
		&cli.GenericFlag{Name: "y-max", Value: f.yMax, Usage: "top of the y axis; points above it are drawn as marks on the edge", DefaultText: "from the data, without a lone outlier"},
		&cli.BoolFlag{Name: "log-y", Usage: "logarithmic y axis"})
	if f.noHide {
		return out
	}
	return append(out, &cli.GenericFlag{Name: "hide", Value: f.hide, Usage: "leave out a series, by its name in the CSV (repeatable, or comma-separated)"})
}

func (f *pictureFlags) parse(c *cli.Context) error {
	f.Plot = charts.PlotOptions{Width: int(f.width.V), Height: int(f.height.V), Title: c.String("title")}
	if err := charts.CheckSize(f.Plot.Width, f.Plot.Height); err != nil {
		return err
	}
	if f.theme.V != "default" {
		f.Plot.Theme = f.theme.V
	}
	if c.IsSet("font-size") {
		if err := charts.CheckFontSize(f.fontSize.V); err != nil {
			return usagef("--font-size %g: %v", f.fontSize.V, err)
		}
		f.Plot.FontSize = f.fontSize.V
	}
	if c.IsSet("line-width") {
		if err := charts.CheckLineWidth(f.lineWidth.V); err != nil {
			return usagef("--line-width %g: %v", f.lineWidth.V, err)
		}
		f.Plot.LineWidth = f.lineWidth.V
	}
	if !f.axes {
		return nil
	}
	f.Zoom = analyze.Zoom{}
	if c.IsSet("y-min") {
		f.Zoom.YMin, f.Zoom.HasYMin = f.yMin.V, true
	}
	if c.IsSet("y-max") {
		f.Zoom.YMax, f.Zoom.HasYMax = f.yMax.V, true
	}
	if f.Zoom.HasYMin && f.Zoom.HasYMax && f.Zoom.YMin >= f.Zoom.YMax {
		return usagef("--y-min must be below --y-max")
	}
	f.Plot.LogY = c.Bool("log-y")
	if f.Plot.LogY && (f.Zoom.HasYMin && f.Zoom.YMin <= 0 || f.Zoom.HasYMax && f.Zoom.YMax <= 0) {
		return usagef("--log-y: --y-min and --y-max must be positive")
	}
	f.Hide = f.hide.Vs
	return nil
}

// checkHide is the usage error of a --hide name that is not one of the
// graph's series (valid), or of names that hide them all
// (charts.HideSeries).
func (f *pictureFlags) checkHide(valid []string) error {
	hide, err := charts.HideSeries(f.hide.Raw, valid)
	if err != nil {
		return usagef("%v", err)
	}
	f.Hide = hide
	return nil
}

// apply sets the y bounds asked for on g and leaves out the hidden series.
func (f *pictureFlags) apply(g *analyze.Graph) { charts.Adjust(g, f.Zoom, f.Hide) }

// outFlags are -o and --out-dir, declared once for every command that
// writes files: one file, or a directory for the names the command
// derives. A name given must not be empty, and the directory must be
// one (or be makeable).
type outFlags struct {
	outUsage, dirUsage string
	dirDefault         string // "." for graphs' derived names
	dirOnly            bool   // --out-dir alone (report: a folder per input)
	exclusive          bool   // -o and --out-dir, even its default, exclude each other (tables)
	Output, OutDir     string
}

func (f *outFlags) flags() []cli.Flag {
	dir := &cli.StringFlag{Name: "out-dir", Value: f.dirDefault, Usage: f.dirUsage}
	if f.dirOnly {
		return []cli.Flag{dir}
	}
	return []cli.Flag{&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: f.outUsage}, dir}
}

func (f *outFlags) parse(c *cli.Context) error {
	f.Output, f.OutDir = c.String("output"), c.String("out-dir")
	if c.IsSet("output") && f.Output == "" {
		return usagef("-o: want a file name")
	}
	if c.IsSet("out-dir") && f.OutDir == "" {
		return usagef("--out-dir: want a directory")
	}
	if f.Output != "" && (f.exclusive && f.OutDir != "" || c.IsSet("out-dir")) {
		// A graph's --out-dir has a default ("."): given with -o, it
		// would be ignored.
		return usagef("-o and --out-dir exclude each other")
	}
	if c.IsSet("out-dir") {
		return checkOutDir(f.OutDir)
	}
	return nil
}

// outputFlags name where a graph goes: one file (-o, whose extension
// picks the format; - for CSV on standard output) or a directory for
// derived names.
type outputFlags struct {
	outFlags
	Format charts.GraphFormat // of Output
}

// graphOutput is where a graph goes; dirUsage says what --out-dir holds.
func graphOutput(dirUsage string, dirOnly bool) outputFlags {
	return outputFlags{outFlags: outFlags{dirUsage: dirUsage, dirDefault: ".", dirOnly: dirOnly,
		outUsage: "file to write; its extension picks the format: .png .svg .pdf, or the plotted points as .csv .json; - writes CSV to standard output"}}
}

func (f *outputFlags) parse(c *cli.Context) error {
	if err := f.outFlags.parse(c); err != nil {
		return err
	}
	f.Format = charts.PNG
	if f.Output != "" {
		g, err := graphFormat(f.Output)
		if err != nil {
			return err
		}
		f.Format = g
	}
	return nil
}

// graphFormat is the format of a graph written to -o out
// (charts.GraphFormatOf); an unknown one is a usage error.
func graphFormat(out string) (charts.GraphFormat, error) {
	g, err := charts.GraphFormatOf(out)
	if err != nil {
		return "", usagef("%v", err)
	}
	return g, nil
}

// tableFlags choose a table's format.
type tableFlags struct {
	format, times *cmdline.Choice
	Format        charts.TableFormat // "" until resolved against the output
	Times         charts.TimeFormat  // CSV's times
}

func (f *tableFlags) flags() []cli.Flag {
	names := make([]string, len(charts.TableFormats))
	for i, t := range charts.TableFormats {
		names[i] = string(t)
	}
	fl, v := choiceFlag("format", []string{"f"}, "", names, "output format", "table on a terminal, csv otherwise")
	f.format = v
	var times []string
	for _, t := range charts.TimeFormats {
		times = append(times, string(t))
	}
	tl, tv := choiceFlag("time-format", nil, string(charts.TimeRFC3339), times,
		"how CSV writes times: rfc3339 (UTC, nanoseconds), epoch (seconds, nine decimals), or spreadsheet (2026-11-30 21:18:38.686173 UTC, which LibreOffice's CSV import reads as a date; booleans as 1 and 0)", "")
	f.times = tv
	return []cli.Flag{fl, tl}
}

func (f *tableFlags) parse(*cli.Context) error {
	f.Format = charts.TableFormat(f.format.V)
	f.Times = charts.TimeFormat(f.times.V)
	return nil
}

// resolve picks the format for output w when --format was not given.
func (f *tableFlags) resolve(terminal bool) charts.TableFormat {
	switch {
	case f.Format != "":
		return f.Format
	case terminal:
		return charts.TextTable
	}
	return charts.CSV
}

// tableOutFlags send a table to a file (-o FILE, atomically; its
// extension picks the format unless --format does), or as Parquet to one
// partition per input in a directory (--out-dir).
type tableOutFlags struct{ outFlags }

// tableOutput is where a table goes.
func tableOutput() *tableOutFlags {
	return &tableOutFlags{outFlags{outUsage: "file to write the table to (.csv .json .txt .parquet pick the format); - or nothing: standard output",
		dirUsage: "with --format parquet: one Hive-style partition per input, DIR/capture=<name>-<hash>/part-0.parquet", exclusive: true}}
}

// format resolves the table format (charts.TableTarget.Format).
func (f *tableOutFlags) format(tf *tableFlags, terminal bool) (charts.TableFormat, error) {
	format, err := charts.TableTarget{Output: f.Output, Dir: f.OutDir, Terminal: terminal}.Format(tf.Format)
	if err != nil {
		return "", usagef("%v", err)
	}
	return format, nil
}

// jobsFlags set how many inputs are processed at once.
type jobsFlags struct {
	jobs *units.IntValue
	Jobs int
}

func (f *jobsFlags) flags() []cli.Flag {
	fl, v := intFlag("jobs", []string{"j"}, int64(runtime.NumCPU()), 1, 1024, "files processed in parallel", "number of cores")
	f.jobs = v
	return []cli.Flag{fl}
}

func (f *jobsFlags) parse(*cli.Context) error {
	f.Jobs = int(f.jobs.V)
	return nil
}

// graphParamFlags are the choices of each graph command beyond the
// shared flags, declared per command name (compare takes those of the
// graphs it overlays).
type graphParamFlags struct {
	command  string
	choices  map[string]*cmdline.Choice // by parameter name
	window   *units.WindowValue
	segments *units.IntValue
	Spec     analyze.GraphSpec
	Params   analyze.GraphParams
}

// flags are the parameter flags of f's command: those its registry
// entry has (analyze.GraphSpec.Params; compare's: those of every graph
// marked for it, and graph).
func (f *graphParamFlags) flags() []cli.Flag {
	var params []analyze.ParamSpec
	if gs := analyze.Graphs(f.command); len(gs) > 0 {
		params = gs[0].Params // the command's first graph holds them
	}
	f.choices = map[string]*cmdline.Choice{}
	var out []cli.Flag
	for _, p := range params {
		if p.Choices != nil {
			fl, v := choiceFlag(p.Name, nil, p.Default, p.Choices, p.Help, "")
			f.choices[p.Name] = v
			out = append(out, fl)
			continue
		}
		// The averaging window of the throughput.
		f.window = &units.WindowValue{} // unset: analyze's default, one second
		s, sv := intFlag("segments", nil, 0, 2, 1<<20, "average over the last N segments instead (like tcptrace)", "")
		f.segments = sv
		out = append(out, &cli.GenericFlag{Name: p.Name, Value: f.window, DefaultText: "1s", Usage: p.Help}, s,
			&cli.BoolFlag{Name: "bins", Usage: "fixed bins of the window's width, drawn as steps, instead of a moving average"})
	}
	return out
}

func (f *graphParamFlags) parse(c *cli.Context) error {
	if f.command != "compare" {
		style := ""
		if v := f.choices["style"]; v != nil {
			style = v.V
		}
		// The command's first graph, or the one of the --style given (a
		// choice its flag checked).
		for i, g := range analyze.Graphs(f.command) {
			if i == 0 || style != "" && g.Style == style {
				f.Spec = g
			}
		}
	}
	if f.window != nil {
		if c.IsSet("segments") && (c.IsSet("window") || c.Bool("bins")) {
			return usagef("--segments excludes --window and --bins")
		}
		f.Params.Window, f.Params.RTTs, f.Params.Bins = f.window.NS, f.window.RTTs, c.Bool("bins")
		if c.IsSet("segments") {
			f.Params.Segments = int(f.segments.V)
		}
	}
	if v := f.choices["sampling"]; v != nil {
		f.Params.Sampling = analyze.RTTSampling(v.V)
	}
	if v := f.choices["by"]; v != nil {
		f.Params.BySeq = v.V == "seq"
	}
	return nil
}
