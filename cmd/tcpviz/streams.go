package main

import (
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"tcpviz/charts"
	"tcpviz/reassembly"
)

func streamsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "streams",
		Usage:     "list TCP connections: endpoints, start, duration, packets and bytes each way, state",
		ArgsUsage: "CAPTURE|DIR|- ...",
		Flags:     []cli.Flag{formatFlag, jobsFlag},
		Action: func(c *cli.Context) error {
			format, err := tableFormat(c, e.stdout)
			if err != nil {
				return err
			}
			ins, err := inputsOf(c)
			if err != nil {
				return err
			}
			t := &charts.Table{Columns: charts.StreamsColumns}
			failed := false
			work, done := e.withProgress(len(ins), func(in input) fileResult {
				return streamsOf(in, e)
			})
			defer done()
			forEachInput(ins, c.Int("jobs"), work, func(in input, r fileResult) {
				failed = report(e.stderr, r) || failed
				t.Rows = append(t.Rows, r.rows...)
			})
			if err := t.Write(e.stdout, format); err != nil {
				return err
			}
			if failed {
				return errFailed
			}
			return nil
		},
	}
}

// streamsOf lists the connections of one capture.
func streamsOf(in input, e *env) fileResult {
	oc, err := in.open(e.stdin)
	if err != nil {
		return fileResult{err: err}
	}
	defer oc.close()
	sc := reassembly.NewScanner(oc.Reader)
	// Rows are made as connections are retired (finished, idle, or at the
	// end of the capture), so that only live connections are held.
	type row struct {
		stream int
		cells  []string
	}
	var rows []row
	sc.Tracker().OnRetire = func(c *reassembly.Conn) {
		rows = append(rows, row{c.Stream, charts.StreamRow(in.name, c)})
	}
	for sc.Scan() {
	}
	slices.SortFunc(rows, func(a, b row) int { return a.stream - b.stream })
	var r fileResult
	for _, rw := range rows {
		r.rows = append(r.rows, rw.cells)
	}
	r.warnings = scanWarnings(in, sc)
	if err := sc.Err(); err != nil {
		r.err = fmt.Errorf("%s: %w (%d packets before it were read)", in.name, err, sc.Packets())
	}
	return r
}

// scanWarnings condenses a scan's per-packet problems into at most two
// lines.
func scanWarnings(in input, sc *reassembly.Scanner) []string {
	var out []string
	st := sc.Stats()
	ws, more := sc.Warnings()
	if n := st.Malformed; n > 0 {
		first := ""
		for _, w := range ws {
			first = w.Error()
			break
		}
		out = append(out, fmt.Sprintf("%s: %s could not be decoded and skipped (first: %s)", in.name, plural(n, "packet"), first))
	}
	if n := st.UnknownLink; n > 0 {
		out = append(out, fmt.Sprintf("%s: packet %d: unsupported link type; %s skipped", in.name, st.FirstUnknown, plural(n, "packet")))
	}
	if more > 0 && len(out) == 0 {
		out = append(out, fmt.Sprintf("%s: %s of other problems", in.name, plural(more, "packet")))
	}
	return out
}

// plural formats a count with a noun: "1 packet", "2 packets".
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
