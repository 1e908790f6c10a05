package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/charts"
	"tcpviz/reassembly"
)

func summaryCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "summary",
		Usage:     "per-connection, per-direction statistics: counts of Wireshark's analysis flags, windows, RTT, throughput",
		ArgsUsage: "CAPTURE|DIR|- ...",
		Description: "One row per connection direction (c2s then s2c, in stream order). Counts equal tshark's\n" +
			"tcp.analysis.* flags; rtt_* use tcp.analysis.ack_rtt; an empty cell means not measurable.",
		Flags: []cli.Flag{formatFlag, jobsFlag},
		Action: func(c *cli.Context) error {
			format, err := tableFormat(c, e.stdout)
			if err != nil {
				return err
			}
			ins, err := inputsOf(c)
			if err != nil {
				return err
			}
			t := &charts.Table{Columns: charts.SummaryColumns}
			failed := false
			forEachInput(ins, c.Int("jobs"), func(in input) fileResult {
				return summaryOf(in, e)
			}, func(in input, r fileResult) {
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

// summaryOf analyses every segment of one capture and returns two rows per
// connection.
func summaryOf(in input, e *env) fileResult {
	oc, err := in.open(e.stdin)
	if err != nil {
		return fileResult{err: err}
	}
	defer oc.close()
	sc := reassembly.NewScanner(oc.Reader)
	var conns []*reassembly.Conn
	sc.Tracker().OnNew = func(c *reassembly.Conn) { conns = append(conns, c) }
	a := analyze.New()
	for sc.Scan() {
		a.Add(sc.Conn(), sc.Segment())
	}
	var r fileResult
	for _, c := range conns {
		st := a.Stats(c)
		for d := range st {
			r.rows = append(r.rows, charts.SummaryRow(in.name, &st[d]))
		}
	}
	r.warnings = scanWarnings(in, sc)
	if err := sc.Err(); err != nil {
		r.err = fmt.Errorf("%s: %w (%d packets before it were read)", in.name, err, sc.Packets())
	}
	return r
}
