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
)

func compareCommand(e *env) *cli.Command {
	var (
		picture pictureFlags
		table   tableFlags
		jobs    jobsFlags
		conn    connFlags
		output  = outputFlags{dirUsage: "directory for the default graph file name (compare-<graph>.png)"}
	)
	kinds := []string{string(analyze.CompareDelivered), string(analyze.CompareThroughput), string(analyze.CompareRTT)}
	graphFlag, graph := choiceFlag("graph", nil, string(analyze.CompareDelivered), kinds, "what to overlay: delivered (bytes acknowledged), tput (goodput) or rtt", "")
	groups := []flagGroup{&conn, &picture, &output, &table, &jobs}
	return &cli.Command{
		Name:  "compare",
		Usage: "overlay the main connection of several captures on one graph, with a comparison table",
		Description: "Each input is a capture, or CAPTURE#N for its stream N (default: -s, else the connection\n" +
			"with the most payload, in the direction with the most payload or --direction). The graph\n" +
			"aligns every connection at its first packet; the table (on standard output) gives bytes\n" +
			"delivered at 1/5/10 s, time to deliver the first MiB, mean throughput and its ratio to the\n" +
			"first input, median RTT, retransmissions and where slow start ended. The path of the\n" +
			"graph is printed on standard error.",
		ArgsUsage: "CAPTURE[#STREAM] CAPTURE[#STREAM] ...",
		Flags:     append(groupFlags(groups...), graphFlag),
		Action: func(c *cli.Context) error {
			if err := parseGroups(c, groups...); err != nil {
				return err
			}
			kind := analyze.CompareKind(graph.v)
			format := table.resolve(isTerminal(e.stdout))
			if c.NArg() < 1 {
				return usagef("compare: name at least one capture (usually two or more)")
			}
			cins, err := parseCompareInputs(c.Args().Slice(), conn.Stream)
			if err != nil {
				return err
			}
			ins := make([]input, len(cins))
			for i := range cins {
				ins[i] = cins[i].input
			}
			out := output.Output
			if out == "" {
				out = filepath.Join(output.OutDir, "compare-"+string(kind)+".png")
			}
			if out != "-" {
				if err := refuseInput(out, ins); err != nil {
					return err
				}
				if err := refuseSpecial(out); err != nil {
					return err
				}
			}
			loads := make([]*analyze.Loaded, len(cins))
			failed := false
			work, done := e.withProgress(len(ins), func(i int, in input) fileResult {
				cf := conn
				cf.Stream = cins[i].stream
				l, res := loadInput(e, in, cf, nil)
				loads[i] = l
				return res
			})
			forEachInput(ins, jobs.Jobs, work, func(_ int, _ input, r fileResult) {
				failed = e.printResult(r) || failed
			})
			done()
			var cmp []analyze.CompareInput
			for i, l := range loads {
				if l != nil {
					cmp = append(cmp, analyze.CompareInput{Label: cins[i].label, L: l})
				}
			}
			if len(cmp) == 0 {
				return errReported
			}
			g := analyze.Compare(kind, cmp)
			po := picture.Plot
			if po.Title == "" {
				po.Title = g.Title + " —"
				for i, ci := range cmp {
					if i > 0 {
						po.Title += " vs"
					}
					po.Title += " " + ci.Label
				}
			}
			write := func(w io.Writer) error { return charts.WriteGraph(w, g, output.Format, po) }
			if out == "-" {
				if err := write(e.stdout); err != nil {
					return err
				}
			} else {
				if err := makeDir(filepath.Dir(out)); err != nil {
					return err
				}
				if err := writeAtomic(out, ins, write); err != nil {
					return err
				}
				fmt.Fprintln(e.stderr, escapeName(out))
				t := charts.NewTable(charts.CompareColumns)
				for _, r := range analyze.CompareRows(cmp) {
					charts.AddRow(t, charts.CompareColumns, &r)
				}
				if err := t.Write(e.stdout, format); err != nil {
					return err
				}
			}
			if failed {
				return errReported
			}
			return nil
		},
	}
}

// compareInput is one argument of compare: a capture and maybe a stream.
type compareInput struct {
	input
	stream int // -1: the connection with the most payload
	label  string
}

var streamSuffix = regexp.MustCompile(`^(.*)#(\d+)$`)

// parseCompareInputs reads compare's arguments: CAPTURE or CAPTURE#N (a
// file whose name ends so is taken as named). stream is -s, the default.
func parseCompareInputs(args []string, stream int) ([]compareInput, error) {
	var out []compareInput
	for _, a := range args {
		if a == "-" {
			return nil, usagef("compare: standard input is not supported; name capture files")
		}
		ci := compareInput{input: input{name: a, path: a}, stream: stream, label: baseName(a)}
		if _, err := os.Stat(a); err != nil {
			if m := streamSuffix.FindStringSubmatch(a); m != nil {
				n, err := strconv.Atoi(m[2])
				if err != nil {
					return nil, usagef("%s: stream number out of range", escapeName(a))
				}
				ci = compareInput{input: input{name: m[1], path: m[1]}, stream: n, label: baseName(m[1]) + "#" + m[2]}
			}
		}
		st, err := os.Stat(ci.path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", escapeName(ci.name), unwrapPathError(err))
		}
		if st.IsDir() {
			return nil, usagef("compare: %s is a directory; name capture files", escapeName(ci.name))
		}
		ci.regular = st.Mode().IsRegular()
		out = append(out, ci)
	}
	return out, nil
}
