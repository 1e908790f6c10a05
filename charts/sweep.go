package charts

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"tcpviz/analyze"
	"tcpviz/analyze/sweep"
	"tcpviz/internal/units"
	"tcpviz/internal/words"
	"tcpviz/reassembly"
)

// A sweep's metric is a number column of the summary (for a TCP flow, of
// its main direction) or of flows (for any flow: a UDP one's received
// throughput, iperf3's loss and jitter): the tables' own definitions.

// metricColumn finds the metric among the summary's columns (tcp) or
// the flows' (either).
func metricColumn(metric string, tcp bool) (sum *summaryCol, flow *Column[FlowRow]) {
	if tcp {
		for i := range SummaryColumns {
			if c := &SummaryColumns[i]; c.Name == metric && (c.Kind&^NotNull == Int || c.Kind&^NotNull == Float) {
				return c, nil
			}
		}
	}
	for i := range FlowsColumns {
		if c := &FlowsColumns[i]; c.Name == metric && (c.Kind&^NotNull == Int || c.Kind&^NotNull == Float) {
			return nil, c
		}
	}
	return nil, nil
}

// SweepMetric is what a sweep aggregates: a number column of summary or
// flows, or one of compare's, of the transfer over time (At or To set:
// the bytes delivered at an instant, the time to the first bytes of an
// amount).
type SweepMetric struct {
	Name, Unit string
	At, To     []int64
}

// ParseSweepMetric reads a sweep's metric: a summary or flows number
// column, delivered_<time>_bytes, time_to_<size>_within_s (or
// time_to_<size>_s, or time_to_bytes=<size>).
func ParseSweepMetric(s string) (SweepMetric, error) {
	if sc, fc := metricColumn(s, true); sc != nil {
		return SweepMetric{Name: s, Unit: sc.Unit}, nil
	} else if fc != nil {
		return SweepMetric{Name: s, Unit: fc.Unit}, nil
	}
	size, ok := strings.CutPrefix(s, "time_to_bytes=")
	if !ok {
		if rest, ok2 := strings.CutPrefix(s, "time_to_"); ok2 {
			if size, ok = strings.CutSuffix(rest, "_within_s"); !ok {
				size, ok = strings.CutSuffix(rest, "_s")
			}
		}
	}
	if ok {
		n, err := units.Size(size)
		if err != nil {
			return SweepMetric{}, err
		}
		return SweepMetric{Name: timeToColumn(n), Unit: "s", To: []int64{n}}, nil
	}
	if t, ok := strings.CutPrefix(s, "delivered_"); ok {
		if t, ok = strings.CutSuffix(t, "_bytes"); ok {
			ns, err := units.Seconds(t, units.MaxSeconds, true)
			if err != nil {
				return SweepMetric{}, err
			}
			return SweepMetric{Name: deliveredColumn(ns), Unit: "B", At: []int64{ns}}, nil
		}
	}
	return SweepMetric{}, errors.New("not a number column of summary, flows or compare (throughput_bps, rtt_median_ms, retrans_packets, app_jitter_ms, delivered_1s_bytes, time_to_bytes=1MiB, ...)")
}

// Transfer tells whether m is one of compare's: measured on a TCP
// connection's transfer (OfTransfer), not on its flow (Of).
func (m SweepMetric) Transfer() bool { return m.At != nil || m.To != nil }

// OfTransfer is m of a connection's transfer, summarised with m's At and
// To (analyze.Summarize); ok is false when it is not measurable.
func (m SweepMetric) OfTransfer(t analyze.Transfer) (float64, bool) {
	if m.At != nil {
		return float64(t.Delivered[0]), true
	}
	return float64(t.TimeTo[0]) / 1e9, t.HasTimeTo[0]
}

// Of is m of a capture's main flow f: for TCP (st, its main direction's
// statistics) the summary's column, else the flows'. ok is false when it
// is not measurable.
func (m SweepMetric) Of(f *analyze.FlowResult, st *analyze.DirStats) (float64, bool) {
	s, fc := metricColumn(m.Name, st != nil)
	var v Value
	switch {
	case s != nil:
		v = s.Cell(&SummaryRow{Stats: st})
	case fc != nil:
		v = fc.Cell(&FlowRow{Flow: f})
	default:
		return 0, false
	}
	if v.Null {
		return 0, false
	}
	if v.Kind == Int {
		return float64(v.I), true
	}
	return v.F, !math.IsNaN(v.F)
}

// SweepStats are the statistics of a sweep table's metric, each a
// column named METRIC_STAT (V_METRIC_STAT for column combination V), in
// SweepDocs' order.
var SweepStats = []string{"mean", "sd", "n", "ci95"}

// SweepColumnMay tells whether name can be a column of a sweep table of
// metric before its column combinations are known (SweepDocs): one of
// the metric's statistics, METRIC_STAT, or with columns (withCols)
// V_METRIC_STAT for a combination V.
func SweepColumnMay(name, metric string, withCols bool) bool {
	return slices.ContainsFunc(SweepStats, func(stat string) bool {
		col := metric + "_" + stat
		if !withCols {
			return name == col
		}
		return len(name) > len(col)+1 && strings.HasSuffix(name, "_"+col)
	})
}

// CheckSweepNames is the error, before any capture is read, of a
// sweep's names that name nothing. params are those --param and
// --manifest add (proto, the main flow's transport, is always one, and
// none may be called so); fields, a --fields name none of the tables of
// metric (by --metric's spelling) can have; cols and row, a --cols or
// --rows name that is no parameter (row "": none given).
func CheckSweepNames(params []string, metric string, fields, cols []string, row string) error {
	if slices.Contains(params, "proto") {
		return errors.New("sweep: a parameter named proto (--param, --manifest): proto is always one of a sweep's, the main flow's transport; name yours otherwise")
	}
	known := append([]string{"proto"}, params...)
	for _, f := range fields {
		// The columns are known once read; a name none can be is
		// refused now: a parameter (the rows'), or a statistic of the
		// metric, METRIC_STAT, or with --cols V_METRIC_STAT for a
		// column combination V.
		if f == "all" || strings.ContainsAny(f, "*?[") || slices.Contains(known, f) {
			continue
		}
		if !SweepColumnMay(f, metric, len(cols) > 0) {
			per := metric + "_mean"
			if len(cols) > 0 {
				per = "with --cols, a column's: VALUE_" + per + " (tcp_" + per + ")"
			}
			return fmt.Errorf("sweep: --fields %q: no such column (want the --rows parameter (%s) or the metric's %s: %s)", f, words.Or(known), strings.Join(SweepStats, ", "), per)
		}
	}
	for i, n := range cols {
		if !slices.Contains(known, n) {
			return fmt.Errorf("sweep: --cols %q: no such parameter (want %s; --param NAME=REGEX adds one from the file names, --param NAME from the pcapng comments)", n, words.Or(known))
		}
		if slices.Contains(cols[:i], n) {
			// Its values would be combined with themselves
			// (geo_geo_geo_throughput_bps_mean, found by a tester).
			return fmt.Errorf("sweep: --cols %q named twice: each parameter once", n)
		}
	}
	if row == "" {
		return fmt.Errorf("sweep: --rows: name the parameter of the rows (%s)", words.Or(known))
	}
	if !slices.Contains(known, row) {
		return fmt.Errorf("sweep: --rows %q: no such parameter (want %s; --param NAME=REGEX adds one from the file names, --param NAME from the pcapng comments)", row, words.Or(known))
	}
	return nil
}

// SweepLeftOut words the captures a sweep leaves out of its aggregate,
// of all it read: unmatched in which no flow --filter (filter) matches,
// skipped more without the row parameter or with the metric not
// measurable (proto: --proto's transport, "" for either). err ends the
// run: --filter matched in none.
func SweepLeftOut(all, unmatched, skipped int, filter, proto, row, metric string) (warnings []string, err error) {
	if unmatched == all {
		return nil, fmt.Errorf("sweep: --filter %q matches no %s flow in %s", filter, Transports(proto), words.Plural(int64(unmatched), "capture"))
	}
	if unmatched > 0 {
		warnings = append(warnings, fmt.Sprintf("sweep: %s left out (no flow --filter %q matches)", words.Plural(int64(unmatched), "capture"), filter))
	}
	if skipped > 0 {
		warnings = append(warnings, fmt.Sprintf("sweep: %s left out (no %s parameter, or %s not measurable)", words.Plural(int64(skipped), "capture"), row, metric))
	}
	return warnings, nil
}

// SweepPick is how a sweep run chooses its main flow in input in
// (sweep.MainFlow's keep), among those keep keeps (nil: any): CAPTURE#N
// its connection N (under --proto udp, proto, its UDP flow N), CAPTURE#udpN
// its UDP flow N; a whole capture, keep's.
func SweepPick(in Named, proto string, keep func(*reassembly.FlowView) bool) func(*reassembly.FlowView) bool {
	switch {
	case in.UDP && in.UDPFlow >= 0:
		return func(v *reassembly.FlowView) bool {
			return v.Stream == in.UDPFlow && (keep == nil || keep(v))
		}
	case in.HasStream:
		return func(v *reassembly.FlowView) bool {
			return (v.Proto == "tcp" || proto != "") && v.Stream == in.Stream && (keep == nil || keep(v))
		}
	}
	return keep
}

// SweepNoFlow is the error of a sweep run in which no main flow was found
// (proto: its transport, "" for either; filtered: --filter chose among
// the flows), nil when --filter matched none of a whole capture's flows:
// it is left out, said once for all (SweepLeftOut).
func SweepNoFlow(in Named, proto string, filtered bool) error {
	switch {
	case in.HasStream || in.UDP && in.UDPFlow >= 0:
		conn := "connection"
		if proto == "udp" {
			conn = "UDP flow"
		}
		if filtered {
			return fmt.Errorf("%s: no such %s that --filter matches", in.Given(), conn)
		}
		return fmt.Errorf("%s: no such %s", in.Given(), conn)
	case filtered:
		return nil
	}
	return fmt.Errorf("%s: no %s flow", in.Display(), Transports(proto))
}

// Transports names the flows --proto picks: TCP or UDP without it.
func Transports(proto string) string {
	if proto == "" {
		return "TCP or UDP"
	}
	return strings.ToUpper(proto)
}

// SweepDocs are the columns of a sweep table: the row parameter, then
// for each column combination V its metric's mean, sd, n and ci95
// (SweepStats).
func SweepDocs(p *sweep.Pivot, row, metric, unit string) []Doc {
	docs := []Doc{{Name: row, Kind: String, Doc: "the row parameter's value, as the file names say it"}}
	for _, v := range p.Cols {
		prefix := metric
		if v != "" {
			prefix = v + "_" + metric
		}
		docs = append(docs,
			Doc{Name: prefix + "_" + SweepStats[0], Kind: Float, Unit: unit, Doc: "mean over the runs of " + orAll(v)},
			Doc{Name: prefix + "_" + SweepStats[1], Kind: Float, Unit: unit, Doc: "their sample standard deviation (empty below 2 runs)"},
			Doc{Name: prefix + "_" + SweepStats[2], Kind: Int, Doc: "how many runs"},
			Doc{Name: prefix + "_" + SweepStats[3], Kind: Float, Unit: unit, Doc: "half-width of the mean's 95% confidence interval, Student's t (empty below 2 runs)"})
	}
	return docs
}

func orAll(v string) string {
	if v == "" {
		return "the row"
	}
	return v
}

// sweepRow is row i of the pivot as cells.
func sweepRow(p *sweep.Pivot, i int) []Value {
	row := []Value{StrV(p.Rows[i])}
	num := func(x float64) Value { return FloatV(x, 6).Or(!math.IsNaN(x)) }
	for _, c := range p.Cells[i] {
		row = append(row, num(c.Mean), num(c.SD), IntV(int64(c.N)), num(c.CI95))
	}
	return row
}

// SweepGraph draws the metric against the row parameter (its values as
// numbers, Pivot.X; values not all numbers are named along the axis at
// even steps, on a linear axis whatever logX says): one line per column
// combination through the means (a mark where it has one alone), a bar of
// the 95% confidence interval at each.
func SweepGraph(p *sweep.Pivot, row, metric, unit string, logX bool) *analyze.Graph {
	xs, xunit, isNum := p.X, p.XUnit, p.XOK
	var names []string
	var warnings []analyze.Warning
	if !sweepNumeric(p) {
		// A parameter whose values are not all numbers (proto, a
		// kind): its values in the table's order, evenly spaced.
		if logX {
			warnings = append(warnings, analyze.Warning{Kind: analyze.WarnLogXNames, Label: row, Values: strings.Join(p.Rows, ", ")})
		}
		names, xunit, logX = p.Rows, "", false
		xs, isNum = make([]float64, len(p.Rows)), make([]bool, len(p.Rows))
		for i := range xs {
			xs[i], isNum[i] = float64(i), true
		}
	} else if logX {
		var out []string // a logarithmic axis has no place for them
		for i, x := range xs {
			if x <= 0 {
				out = append(out, p.Rows[i])
			}
		}
		if len(out) > 0 {
			warnings = append(warnings, analyze.Warning{Kind: analyze.WarnLogXNonPositive, Label: row, Values: strings.Join(out, ", ")})
		}
	}
	// Groups side by side at each x (a dodge of 0.6% of the axis each,
	// in the axis's own scale), so that their intervals do not hide
	// one another.
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, x := range xs {
		if isNum[i] && (!logX || x > 0) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	dodge := func(x float64, j int) float64 {
		k := float64(j) - float64(len(p.Cols)-1)/2
		switch {
		case len(p.Cols) < 2 || !(hi > lo):
			return x
		case logX:
			return x * math.Pow(hi/lo, 0.006*k)
		}
		return x + 0.006*k*(hi-lo)
	}
	g := &analyze.Graph{Kind: "sweep", Title: metric + " against " + row, Stream: -1, XCol: 0, YCol: 1,
		X:       analyze.Axis{Label: row, Unit: xunit, Names: names},
		Y:       analyze.Axis{Label: metric, Unit: unit},
		Columns: []string{row, metric, "ci95_high"}, Warnings: warnings}
	colors := labelColors(p.Cols) // a group's colour in every sweep figure
	// A metric none of whose means is below zero (a rate, a time, a
	// count) has its intervals cut at zero: Student's t from two runs is
	// 12.7 times their standard error, and an interval to -11 Mbit/s
	// stretched the axis below what the metric can be (helper-75).
	floor := 0.0
	for i := range p.Rows {
		for j := range p.Cols {
			if c := p.Cells[i][j]; c.N > 0 && c.Mean < 0 {
				floor = math.Inf(-1)
			}
		}
	}
	for j, col := range p.Cols {
		name := col
		if name == "" {
			name = metric
		}
		line := analyze.Series{Name: name, Kind: analyze.Lines, Palette: 1 + colors[j]}
		bars := analyze.Series{Name: name + " (95% confidence interval)", Kind: analyze.Bars, Palette: 1 + colors[j]}
		for i := range p.Rows {
			x, c := dodge(xs[i], j), p.Cells[i][j]
			if !isNum[i] || c.N == 0 {
				continue
			}
			line.Points = append(line.Points, analyze.Point{V: [3]float64{x, c.Mean}})
			if c.N > 1 {
				bars.Points = append(bars.Points, analyze.Point{V: [3]float64{x, max(c.Mean-c.CI95, floor), c.Mean + c.CI95}})
			}
		}
		if len(line.Points) == 1 {
			line.Kind = analyze.Marks // a line through one point draws nothing
		}
		g.Series = append(g.Series, line)
		if len(bars.Points) > 0 {
			g.Series = append(g.Series, bars)
		}
	}
	return g
}

// sweepNumeric tells a sweep whose row values are all numbers: its figure's
// x axis is theirs (else the values are named at even steps).
func sweepNumeric(p *sweep.Pivot) bool {
	return !slices.Contains(p.XOK, false)
}

// sweepText is the sweep for a terminal: one column per combination,
// each cell "mean ± ci95 (n)" in one unit for the whole table, scaled as
// the pictures scale it (4.72 ± 0.03 Mbit/s), as a study's table reads.
func sweepText(p *sweep.Pivot, row, metric, unit string) *Table {
	top := 0.0
	for _, r := range p.Cells {
		for _, c := range r {
			if !math.IsNaN(c.Mean) {
				top = math.Max(top, math.Abs(c.Mean))
			}
		}
	}
	div, scaled := 1.0, unit
	if unit != "" {
		div, scaled = unitFor(analyze.Axis{Unit: unit}, top) // the pictures' scaling: bit/s to Mbit/s
	}
	// As many decimals for every cell: three significant digits of the
	// largest.
	dec := 0
	for lim := 100.0; dec < 6 && top/div < lim; lim /= 10 {
		dec++
	}
	t := &Table{Columns: []Doc{{Name: row, Kind: String}}}
	for _, v := range p.Cols {
		name := v
		if name == "" {
			name = metric
		}
		t.Columns = append(t.Columns, Doc{Name: name + " (" + scaled + ")", Kind: String})
	}
	for i, rv := range p.Rows {
		cells := []Value{StrV(rv)}
		for _, c := range p.Cells[i] {
			var s string
			switch {
			case c.N == 0:
			case c.N == 1:
				s = fmt.Sprintf("%.*f (1)", dec, c.Mean/div)
			default:
				s = fmt.Sprintf("%.*f ± %.*f (%d)", dec, c.Mean/div, dec, c.CI95/div, c.N)
			}
			cells = append(cells, StrV(s))
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

// WriteSweep writes a sweep's table in format f: the text table's cells
// as mean ± 95% interval (runs) in one unit, the other formats' as the
// mean, sd, n and ci95 columns of each combination.
func WriteSweep(w io.Writer, f TableFormat, p *sweep.Pivot, row, metric, unit string, fields []string) error {
	if f == TextTable {
		return sweepText(p, row, metric, unit).Write(w, TextTable)
	}
	rw, err := NewFieldsWriter(w, f, SweepDocs(p, row, metric, unit), fields)
	if err != nil {
		return err
	}
	for i := range p.Rows {
		if err := rw.WriteRow(sweepRow(p, i)); err != nil {
			return err
		}
	}
	return rw.Close()
}

// ParamColumns are the param_<name> columns of a table whose rows name
// their capture by file: each of ps's parameters, null where a capture
// has none.
func ParamColumns[R any](ps *sweep.Params, file func(*R) string) Schema[R] {
	var out Schema[R]
	for _, name := range ps.Names {
		out = append(out, Column[R]{Name: "param_" + name, Kind: String,
			Doc: fmt.Sprintf("the capture's %s, as %s says it", name, ps.Source(name)),
			Cell: func(r *R) Value {
				v, ok := ps.Values(file(r))[name]
				return StrV(v).Or(ok)
			}})
	}
	return out
}
