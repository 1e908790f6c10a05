package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"tcpviz/charts"
	"tcpviz/internal/batch"
	"tcpviz/internal/cmdline"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1 // an input could not be read, was damaged, or held nothing selected
	exitUsage   = 2 // rejected before any input was read
)

// usageError marks errors in how tcpviz was called (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// errReported is returned by a command whose failures were already
// printed on stderr (one line per failed input): it only sets exit
// status 1.
var errReported = errors.New("one or more inputs failed")

// reported is errReported when an input failed (and was said), else nil.
func reported(failed bool) error {
	if failed {
		return errReported
	}
	return nil
}

// env is what a command may touch: its streams and standard input, and
// what is known of them.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	stderrTTY      bool // stderr is a terminal: progress bars are shown
	color          bool // colours allowed (NO_COLOR is not set)
	single         bool // the command has one input (set by inputsOf)
	// runInputs are every input of the run, before --shard kept a share
	// (set by inputsOf): no output may overwrite any of them, whatever
	// the share.
	runInputs []input
	bar       progress
	out       *errWriter // stdout, as set by runEnv
	made      *madeDirs  // directories made for outputs (set by runEnv)
	// report, when set (by tests), changes a report's limits
	// (charts.ReportOptions' TableConns and PointsOver).
	report charts.ReportOptions
}

const exitCodesHelp = `EXIT STATUS:
   0  success
   1  runtime failure: an input could not be read, was damaged, or held nothing the flags select (the others were still processed)
   2  usage error: unknown command or flag, bad flag value, no input, an output that would overwrite an input, an --out-dir that is not a directory`

// commands are tcpviz's commands, in the order --help lists them.
func commands(e *env) []*cli.Command {
	cmds := []*cli.Command{tableCommand(e, charts.StreamsTable), tableCommand(e, charts.FlowsTable),
		tableCommand(e, charts.SummaryTable), tableCommand(e, charts.PacketsTable)}
	cmds = append(cmds, graphCommands(e)...)
	cmds = append(cmds, compareCommand(e), sweepCommand(e), ioCommand(e), joinCommand(e), ladderCommand(e), reportCommand(e))
	cmds = append(cmds, completionCommand(e, func() []*cli.Command { return commands(e) }), manCommand(e, func() *cli.App { return newApp(e) }))
	for _, c := range cmds {
		c.OnUsageError = func(_ *cli.Context, err error, _ bool) error { return &usageError{cmdline.FlagMessage(err.Error())} }
		c.HideHelpCommand = true
	}
	return cmds
}

func newApp(e *env) *cli.App {
	return &cli.App{
		Name:      "tcpviz",
		Usage:     "TCP graphs and statistics from packet captures",
		UsageText: "tcpviz COMMAND [flags] CAPTURE|DIR|- ...",
		Description: "tcpviz reads pcap, pcapng and snoop captures (optionally gzip or zstd compressed;\n" +
			"the format is detected from the first bytes) and reconstructs every TCP connection.\n\n" + exitCodesHelp,
		Reader:          e.stdin,
		Writer:          e.stdout,
		ErrWriter:       e.stderr,
		HideHelpCommand: true,
		HideVersion:     true,
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return &usageError{err.Error()}
		},
		Commands: commands(e),
	}
}

// run is tcpviz's main: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(newEnv(stdin, stdout, stderr), args)
}

// newEnv is the environment of a run on these streams.
func newEnv(stdin io.Reader, stdout, stderr io.Writer) *env {
	return &env{stdin: stdin, stdout: stdout, stderr: stderr,
		stderrTTY: isTerminal(stderr), color: os.Getenv("NO_COLOR") == ""}
}

// runEnv runs the command line in e and returns the exit status. A failed
// write on standard output (a full disk, a closed pipe) fails the run,
// said once.
func runEnv(e *env, args []string) int {
	out := &errWriter{w: e.stdout}
	e.stdout, e.out = out, out
	e.made = &madeDirs{}
	app := newApp(e)
	switch {
	case len(args) == 2 && args[1] == "help", len(args) > 2 && args[1] == "help" && args[2] == "help":
		args = []string{args[0], "--help"} // tcpviz help: tcpviz --help
	case len(args) > 2 && args[1] == "help": // tcpviz help seq: tcpviz seq --help
		args = append([]string{args[0], args[2], "--help"}, args[3:]...)
	}
	err := checkCommand(app, args)
	if err == nil {
		args, err = flagsFirst(app, args)
	}
	if err == nil {
		err = app.Run(args)
	}
	e.made.removeEmpty() // what failed outputs left empty
	e.bar.clear()
	stderr := e.stderr
	var ue *usageError
	code := exitOK
	switch {
	case err == nil:
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "tcpviz: %s\n", cmdline.OneLine(ue.msg))
		return exitUsage
	case errors.Is(err, errEmptyShard):
		return exitOK
	case errors.Is(err, errVersion):
		fmt.Fprintln(e.stdout, cmdline.Version()) // a failed write is said below
	case errors.Is(err, errReported):
		code = exitFailure
	case out.failed() != nil && errors.Is(err, out.failed()):
		code = exitFailure // said below
	default:
		fmt.Fprintf(stderr, "tcpviz: %s\n", cmdline.OneLine(err.Error()))
		code = exitFailure
	}
	if werr := out.failed(); werr != nil {
		fmt.Fprintf(stderr, "tcpviz: standard output: %s\n", cmdline.OneLine(unwrapPathError(werr).Error()))
		code = exitFailure
	}
	return code
}

// errWriter is standard output, remembering the first write that failed.
type errWriter struct {
	w   io.Writer
	mu  sync.Mutex
	err error
}

func (w *errWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err != nil {
		w.mu.Lock()
		if w.err == nil {
			w.err = err
		}
		w.mu.Unlock()
	}
	return n, err
}

func (w *errWriter) failed() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// checkCommand rejects a missing or unknown command before urfave/cli
// sees it (it would print usage text).
func checkCommand(app *cli.App, args []string) error {
	if len(args) < 2 {
		return usagef("no command (tcpviz --help lists them)")
	}
	a := args[1]
	switch a {
	case "-h", "--help", "-help", "help":
		return nil
	case "--version", "-version", "-v":
		return errVersion
	}
	if strings.HasPrefix(a, "-") {
		return usagef("%s: flags come after the command (tcpviz COMMAND [flags] CAPTURE ...)", charts.EscapeName(a))
	}
	var names []string
	for _, c := range app.Commands {
		if c.HasName(a) {
			return nil
		}
		names = append(names, c.Name)
	}
	if best := cmdline.Nearest(a, names); best != "" {
		return usagef("unknown command %q: did you mean %s? (tcpviz --help lists them)", a, best)
	}
	return usagef("unknown command %q (tcpviz --help lists them)", a)
}

// flagsFirst moves a command's flags before its other arguments, so that
// `tcpviz seq in.pcap -o out.png` works like `tcpviz seq -o out.png
// in.pcap` (urfave/cli stops reading flags at the first argument). A "--"
// ends the flags as usual, wherever it is. An argument that starts with a
// dash but is none of the command's flags is an input when it names an
// existing file or directory (-dash.pcap, or -dash.pcap#1 for compare),
// else an unknown flag, named as typed; a flag of the command stays a
// flag even if a file has its name. A flag that takes a value but ends
// the line is a usage error.
func flagsFirst(app *cli.App, args []string) ([]string, error) {
	if len(args) < 3 {
		return args, nil
	}
	var cmd *cli.Command
	for _, c := range app.Commands {
		if c.HasName(args[1]) {
			cmd = c
		}
	}
	if cmd == nil {
		return args, nil
	}
	takesValue := map[string]bool{}
	for _, f := range append(cmd.Flags, cli.HelpFlag) { // urfave/cli adds --help when it runs
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flags, rest []string
	rest = append(rest, args[:2]...)
	var positional []string
	for i := 2; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takes, isFlag := takesValue[name]
		if !isFlag {
			if existingInput(a) {
				positional = append(positional, a)
				continue
			}
			typed, _, _ := strings.Cut(a, "=")
			return nil, usagef("unknown flag %s", charts.EscapeName(typed))
		}
		if name == "help" || name == "h" {
			// Help, whatever else is there: urfave/cli would take an
			// argument beside it for a help topic.
			return append(args[:2:2], "--help"), nil
		}
		flags = append(flags, a)
		if hasValue {
			continue
		}
		if takes {
			if i+1 >= len(args) {
				return nil, usagef("%s: missing value", a)
			}
			i++
			flags = append(flags, args[i])
		}
	}
	// "--" before the arguments, so that none is taken for a flag and
	// none is "--" itself.
	if len(positional) > 0 {
		flags = append(flags, "--")
	}
	return append(append(rest, flags...), positional...), nil
}

// existingInput tells whether argument a names an existing file or
// directory, as typed or without a compare or UDP suffix (#1, #udp2).
func existingInput(a string) bool {
	if _, err := os.Lstat(a); err == nil {
		return true
	}
	if base, _, _, ok, _ := cmdline.CaptureSuffix(a); ok {
		if _, err := os.Lstat(base); err == nil {
			return true
		}
	}
	return false
}

func isTerminal(w io.Writer) bool {
	if ew, ok := w.(*errWriter); ok {
		w = ew.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// errEmptyShard ends a run whose --shard holds no input: not an error
// (exit 0), so that a job runner's share i of n may be empty.
var errEmptyShard = errors.New("empty shard")

// errVersion asks run to print the version.
var errVersion = errors.New("version")

// inputsOf expands a command's arguments, with --files-from's and only the
// --shard share when bf is set; no argument is a usage error. Arguments
// that cannot be read are inputs holding their error: each fails alone
// when its turn comes.
func (e *env) inputsOf(c *cli.Context, bf *batchFlags, more ...string) ([]input, error) {
	args := append(c.Args().Slice(), more...)
	if bf != nil {
		more, err := bf.filesFrom(e.stdin)
		if err != nil {
			return nil, err
		}
		args = append(args, more...)
	}
	if len(args) == 0 {
		return nil, usagef("%s: no input: name capture files, directories, or - for standard input", c.Command.Name)
	}
	ins := expandInputs(args)
	for _, in := range ins {
		if err := charts.InputRefused(c.Command.Name, in.naming()); err != nil {
			return nil, usagef("%v", err)
		}
		if in.usage {
			return nil, usagef("%v", in.err)
		}
	}
	// The lists the inputs were named in (--manifest, --files-from)
	// are the run's inputs too: no output writes over them (--manifest
	// runs.csv -o runs.csv), and one read from standard input counts
	// as naming it (path "").
	var lists []input
	if m := c.String("manifest"); m != "" {
		lists = append(lists, input{name: "--manifest " + m, path: m})
	}
	if bf != nil && bf.FilesFrom != "" {
		list := input{name: "--files-from " + bf.FilesFrom, path: bf.FilesFrom}
		if list.path == "-" {
			list.path = ""
		}
		lists = append(lists, list)
	}
	e.runInputs = slices.Clone(ins)
	for _, l := range lists {
		if l.path != "" {
			e.runInputs = append(e.runInputs, input{name: l.path, path: l.path})
		}
	}
	if bf != nil && bf.Shard.N > 1 {
		if ins = shardOf(ins, bf.Shard); len(ins) == 0 {
			return nil, errEmptyShard
		}
	}
	e.single = len(ins) == 1
	if len(ins) == 0 {
		return nil, fmt.Errorf("%s: no capture found", charts.EscapeName(strings.Join(args, " ")))
	}
	// The lists were read from their files, or standard input: a pipe
	// read once, each is named once.
	named := append(ins[:len(ins):len(ins)], lists...)
	stdins := 0
	for _, in := range named {
		if in.path == "" {
			stdins++
		}
	}
	if stdins > 1 && bf != nil && bf.FilesFrom == "-" {
		return nil, usagef("standard input (-) can be named only once: --files-from - reads the list from it")
	}
	if stdins > 1 {
		return nil, usagef("standard input (-) can be named only once")
	}
	return ins, e.refuseOnceTwice(named)
}

// refuseOnceTwice is the usage error of a pipe, FIFO or other file read
// once that two inputs name (-, /dev/stdin; a FIFO named twice): each
// read would take part of its bytes, and both fail as damaged captures.
func (e *env) refuseOnceTwice(ins []input) error {
	type once struct {
		name string
		st   os.FileInfo
	}
	var seen []once
	for _, in := range ins {
		if in.err != nil || in.regular {
			continue
		}
		var st os.FileInfo
		var err error
		if in.path != "" {
			st, err = os.Stat(in.path)
		} else if f, ok := e.stdin.(*os.File); ok {
			st, err = f.Stat()
		} else {
			continue
		}
		if err != nil || st.Mode().IsRegular() {
			continue
		}
		for _, o := range seen {
			if os.SameFile(o.st, st) {
				return usagef("%s and %s are one pipe, read once: name it once", charts.EscapeName(o.name), charts.EscapeName(in.name))
			}
		}
		seen = append(seen, once{in.name, st})
	}
	return nil
}

// inputsFor is inputsOf, without --files-from and --shard, for a command
// whose one output is out: an out that names an input, or is no regular
// file, is refused before anything is read (refuseOutput).
func (e *env) inputsFor(c *cli.Context, bf *batchFlags, out string, more ...string) ([]input, error) {
	ins, err := e.inputsOf(c, bf, more...)
	if err != nil {
		return nil, err
	}
	if err := refuseOutput(out, e.guarded(ins)); err != nil {
		return nil, err
	}
	return ins, nil
}

// fileResult is what processing one input produced.
type fileResult struct {
	lines    []string // printed on stdout, one per line (paths written)
	warnings []string // one line each, already naming the file
	err      error    // the file failed (partly or wholly); names the file
}

// withProgress wraps work so that, with several inputs and a terminal on
// stderr, a progress bar shows how many files are done. Call the returned
// done function when all are.
func (e *env) withProgress(n int, work func(int, input) fileResult) (func(int, input) fileResult, func()) {
	if n < 2 || !e.stderrTTY {
		return work, func() {}
	}
	e.bar.start(e.newBar(int64(n), "captures", progressbar.OptionShowCount()))
	return func(i int, in input) fileResult {
		r := work(i, in)
		e.bar.add(1)
		return r
	}, e.bar.finish
}

// newBar makes a progress bar on stderr: max steps (-1: unknown).
func (e *env) newBar(max int64, description string, opts ...progressbar.Option) *progressbar.ProgressBar {
	opts = append([]progressbar.Option{
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription(description),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionSetWidth(30),
		// No ticker of its own: the bar is drawn only under progress's
		// lock, so a message never meets half a bar.
		progressbar.OptionSetSpinnerChangeInterval(0),
	}, opts...)
	if e.color {
		opts = append(opts, progressbar.OptionEnableColorCodes(true),
			progressbar.OptionSetTheme(progressbar.Theme{Saucer: "[cyan]=[reset]", SaucerHead: "[cyan]>[reset]", SaucerPadding: " ", BarStart: "[", BarEnd: "]"}))
	}
	return progressbar.NewOptions64(max, opts...)
}

// byteProgress starts a bar counting the bytes read of in, over passes
// passes (its size unknown when it is not a regular file).
func (e *env) byteProgress(in input, passes int) *progress {
	max := int64(-1)
	if in.regular {
		if st, err := os.Stat(in.path); err == nil && st.Size() > 0 {
			max = st.Size() * int64(passes)
		}
	}
	e.bar.start(e.newBar(max, "reading "+in.display(), progressbar.OptionShowBytes(true), progressbar.OptionShowCount(), progressbar.OptionSpinnerType(14)))
	return &e.bar
}

// progress is the run's progress bar on stderr, if any: every message on
// stderr clears it first, so that no line starts in the middle of a bar.
// A nil *progress or one without a bar does nothing.
type progress struct {
	mu  sync.Mutex
	bar *progressbar.ProgressBar
}

func (p *progress) start(bar *progressbar.ProgressBar) {
	p.mu.Lock()
	p.bar = bar
	p.mu.Unlock()
}

func (p *progress) add(n int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.bar != nil {
		p.bar.Add64(n)
	}
	p.mu.Unlock()
}

// clear erases the bar from the terminal; the next step draws it again.
func (p *progress) clear() { p.hold(func() {}) }

// hold erases the bar and runs print (which writes on stderr) before the
// bar may be drawn again.
func (p *progress) hold(print func()) {
	if p == nil {
		print()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Clear()
	}
	print()
}

// finish erases the bar for good.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.bar != nil {
		p.bar.Clear()
		p.bar.Exit()
		p.bar = nil
	}
	p.mu.Unlock()
}

// countingReader counts the bytes read through it on a progress bar.
type countingReader struct {
	r   io.Reader
	bar *progress
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	if n > 0 {
		c.bar.add(int64(n))
	}
	return n, err
}

// forEachInput processes inputs with up to jobs workers and hands the
// results to emit in input order, each as soon as it and all before it are
// done (batch.InOrder). A worker that panics (a bug) fails its input with
// a one-line error naming it; the other inputs' results are kept.
func forEachInput(ins []input, jobs int, work func(int, input) fileResult, emit func(int, input, fileResult)) {
	batch.InOrder(len(ins), jobs, func(i int) fileResult { return work(i, ins[i]) },
		func(i int, r any) fileResult {
			return fileResult{err: fmt.Errorf("%s: internal error: %v (a bug in tcpviz: please report it, with the capture if you can)", ins[i].display(), r)}
		},
		func(i int, r fileResult) { emit(i, ins[i], r) })
}

// eachInput processes inputs as forEachInput does, with a progress bar
// over them, printing each result in input order (printResult); failed
// says an input failed.
func (e *env) eachInput(ins []input, jobs int, work func(int, input) fileResult) (failed bool) {
	work, done := e.withProgress(len(ins), work)
	defer done()
	forEachInput(ins, jobs, work, func(_ int, _ input, r fileResult) {
		failed = e.printResult(r) || failed
	})
	return failed
}

// printResult prints a file's warnings and error on stderr (but
// errReported, said already) and its lines on stdout, and tells whether
// it failed.
func (e *env) printResult(r fileResult) bool {
	if len(r.warnings) > 0 {
		e.bar.hold(func() {
			for _, w := range r.warnings {
				fmt.Fprintf(e.stderr, "tcpviz: warning: %s\n", cmdline.OneLine(w))
			}
		})
	}
	for _, l := range r.lines {
		fmt.Fprintln(e.stdout, l)
	}
	if r.err != nil {
		// A failed write on stdout is said once, at the end of the run.
		if werr := e.out.failed(); (werr == nil || !errors.Is(r.err, werr)) && !errors.Is(r.err, errReported) {
			e.bar.hold(func() { fmt.Fprintf(e.stderr, "tcpviz: %s\n", cmdline.OneLine(r.err.Error())) })
		}
		return true
	}
	return false
}
