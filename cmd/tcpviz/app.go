package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"tcpviz/charts"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// usageError marks errors in how tcpviz was called (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// failed is returned by a command that already reported its errors on
// stderr; it only sets the exit status.
var errFailed = errors.New("one or more inputs failed")

// env is what a command may touch: its streams and standard input.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

const exitCodesHelp = `EXIT STATUS:
   0  success
   1  runtime failure: an input could not be read or was damaged (the others were still processed)
   2  usage error: unknown flag or command, bad flag value, missing input`

func newApp(e *env) *cli.App {
	app := &cli.App{
		Name:      "tcpviz",
		Usage:     "TCP graphs and statistics from packet captures",
		UsageText: "tcpviz COMMAND [flags] CAPTURE|DIR|- ...",
		Description: "tcpviz reads pcap, pcapng and snoop captures (optionally gzip or zstd compressed;\n" +
			"the format is detected from the first bytes) and reconstructs every TCP connection.\n\n" + exitCodesHelp,
		Reader:          e.stdin,
		Writer:          e.stdout,
		ErrWriter:       e.stderr,
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return &usageError{err.Error()}
		},
		Commands: []*cli.Command{
			streamsCommand(e),
			summaryCommand(e),
			seqCommand(e),
			tputCommand(e),
			rttCommand(e),
			windowCommand(e),
			compareCommand(e),
			reportCommand(e),
		},
	}
	return app
}

// run is tcpviz's main: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	app := newApp(e)
	err := app.Run(flagsFirst(app, args))
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "tcpviz: %s\n", ue.msg)
		fmt.Fprintln(stderr, "run 'tcpviz --help' for usage")
		return exitUsage
	case errors.Is(err, errFailed):
		return exitFailure
	case strings.HasPrefix(err.Error(), "flag provided but not defined"),
		strings.HasPrefix(err.Error(), "No help topic"),
		strings.Contains(err.Error(), "Required flag"):
		fmt.Fprintf(stderr, "tcpviz: %s\n", err)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "tcpviz: %s\n", err)
		return exitFailure
	}
}

// flagsFirst moves a command's flags before its other arguments, so that
// `tcpviz seq in.pcap -o out.png` works like `tcpviz seq -o out.png
// in.pcap` (urfave/cli stops reading flags at the first argument). A "--"
// ends the flags as usual.
func flagsFirst(app *cli.App, args []string) []string {
	if len(args) < 3 {
		return args
	}
	var cmd *cli.Command
	for _, c := range app.Commands {
		if c.HasName(args[1]) {
			cmd = c
		}
	}
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
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
			positional = append(positional, args[i:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if takesValue[name] && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return append(append(rest, flags...), positional...)
}

var jobsFlag = &cli.IntFlag{
	Name:    "jobs",
	Aliases: []string{"j"},
	Usage:   "files processed in parallel (default: number of cores)",
	Value:   runtime.NumCPU(),
}

var formatFlag = &cli.StringFlag{
	Name:    "format",
	Aliases: []string{"f"},
	Usage:   "output format: csv, json or table (default: table on a terminal, csv otherwise)",
}

// tableFormat picks the table format from --format or from whether stdout
// is a terminal.
func tableFormat(c *cli.Context, stdout io.Writer) (charts.TableFormat, error) {
	if s := c.String("format"); s != "" {
		f, err := charts.ParseTableFormat(s)
		if err != nil {
			return "", &usageError{err.Error()}
		}
		return f, nil
	}
	if isTerminal(stdout) {
		return charts.TextTable, nil
	}
	return charts.CSV, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// inputsOf expands a command's arguments; no argument is a usage error.
func inputsOf(c *cli.Context) ([]input, error) {
	if c.NArg() == 0 {
		return nil, usagef("%s: no input: name capture files, directories, or - for standard input", c.Command.Name)
	}
	ins, err := expandInputs(c.Args().Slice())
	if err != nil {
		return nil, err
	}
	stdins := 0
	for _, in := range ins {
		if in.path == "" {
			stdins++
		}
	}
	if stdins > 1 {
		return nil, usagef("standard input (-) can be named only once")
	}
	return ins, nil
}

// fileResult is what processing one input produced.
type fileResult struct {
	rows     [][]string
	warnings []string // one line each, already naming the file
	err      error    // the file failed (partly or wholly); names the file
}

// withProgress wraps work so that, with several inputs and a terminal on
// stderr, a progress bar shows how many files are done. Call the returned
// done function when all are.
func (e *env) withProgress(n int, work func(input) fileResult) (func(input) fileResult, func()) {
	if n < 2 || !isTerminal(e.stderr) {
		return work, func() {}
	}
	bar := progressbar.NewOptions(n,
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription("captures"),
		progressbar.OptionShowCount(),
		progressbar.OptionClearOnFinish(),
	)
	return func(in input) fileResult {
		r := work(in)
		bar.Add(1)
		return r
	}, func() { bar.Finish() }
}

// forEachInput processes inputs with up to jobs workers and hands the
// results to emit in input order, each as soon as it and all before it are
// done.
func forEachInput(ins []input, jobs int, work func(input) fileResult, emit func(input, fileResult)) {
	if jobs < 1 {
		jobs = 1
	}
	results := make([]chan fileResult, len(ins))
	for i := range results {
		results[i] = make(chan fileResult, 1)
	}
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	go func() {
		for i, in := range ins {
			sem <- struct{}{}
			wg.Add(1)
			go func(i int, in input) {
				defer wg.Done()
				defer func() { <-sem }()
				results[i] <- work(in)
			}(i, in)
		}
	}()
	for i, in := range ins {
		emit(in, <-results[i])
	}
	wg.Wait()
}

// report prints a file's warnings and error on stderr and tells whether it
// failed.
func report(stderr io.Writer, r fileResult) bool {
	for _, w := range r.warnings {
		fmt.Fprintf(stderr, "tcpviz: warning: %s\n", w)
	}
	if r.err != nil {
		fmt.Fprintf(stderr, "tcpviz: %s\n", r.err)
		return true
	}
	return false
}
