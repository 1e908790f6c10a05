package charts

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"tcpviz/analyze"
	"tcpviz/analyze/join"
	"tcpviz/reassembly"
)

// Filter is --filter as the commands apply it: on the tables, the
// connections and flows kept; on the commands that draw one connection,
// those the busiest is chosen among. The zero Filter keeps everything.
type Filter struct {
	Expr reassembly.Filter // nil without --filter
	Raw  string            // as typed
}

// Excludes is the error of a connection -s or CAPTURE#N named (named: the
// input, as named) that the filter does not match (Load takes the stream
// given whatever the filter says; the busiest it chooses among those the
// filter matches): the filter and the stream select nothing together, as
// on the tables and in ladder.
func (f Filter) Excludes(named string, l *analyze.Loaded) error {
	if f.Expr == nil || l == nil || l.UDP {
		return nil
	}
	if v := reassembly.ConnView(l.Conn); f.Expr.Match(&v) {
		return nil
	}
	return fmt.Errorf("%s: stream %d is not among the connections --filter %q matches", named, l.Conn.Stream, f.Raw)
}

// SelectJoined keeps the joined connections the filter matches, if there
// is one: an error when it matches none.
func (f Filter) SelectJoined(res *join.Result) error {
	if f.Expr == nil || res.Select(nil, f.Expr) {
		return nil
	}
	return fmt.Errorf("--filter %q selects no connection seen in both %s", f.Raw, EscapeName(HopName(res.Hops[0])))
}

// NoPick is the error of a joined connection not found: -s stream (or,
// -1, the busiest) in the first hop, among those the filter kept.
func (f Filter) NoPick(stream int, res *join.Result) error {
	hop := EscapeName(HopName(res.Hops[0]))
	switch {
	case f.Expr != nil && stream >= 0:
		return fmt.Errorf("-s %d: no such connection among those --filter %q matches in both %s", stream, f.Raw, hop)
	case f.Expr != nil:
		return fmt.Errorf("--filter %q matches no connection seen in both %s", f.Raw, hop)
	}
	return fmt.Errorf("-s %d: no such connection in both %s", stream, hop)
}

// Flow is the filter as a choice of flows (any transport), nil without one.
func (f Filter) Flow() func(*reassembly.FlowView) bool {
	if f.Expr == nil {
		return nil
	}
	return func(v *reassembly.FlowView) bool { return f.Expr.Match(v) }
}

// SelectsNothing is the error of the filter and -s (streams, as typed)
// that kept no connection or flow (matched, counted as the tables and io
// count them: nil, nothing to say), nil when they kept one.
func (f Filter) SelectsNothing(matched *atomic.Int64, streams []string) error {
	if matched == nil || matched.Load() > 0 {
		return nil
	}
	var parts []string
	if f.Expr != nil {
		parts = append(parts, fmt.Sprintf("--filter %q", f.Raw))
	}
	if len(streams) > 0 {
		// (urfave/cli sets a flag's value once per name it has: -s, --stream)
		var seen []string
		for _, v := range streams {
			if !slices.Contains(seen, v) {
				seen = append(seen, v)
			}
		}
		parts = append(parts, "-s "+strings.Join(seen, ","))
	}
	return fmt.Errorf("%s selects no connection or flow", strings.Join(parts, " with "))
}

// Ladder draws the ladder of connection stream (-1: the busiest) of res
// among those the filter matches: of one capture (res holds it alone;
// name: its name, in errors, as the window's) or of the captures joined.
// A time window (o.Time) that holds no packet draws nothing: an error, as
// the graph commands'.
func (f Filter) Ladder(res *join.Result, name string, stream int, o join.LadderOptions) (*analyze.Graph, error) {
	var g *analyze.Graph
	if len(res.Captures) == 1 {
		if f.Expr != nil && !res.Select(nil, f.Expr) {
			return nil, fmt.Errorf("%s: --filter %q selects no connection", name, f.Raw)
		}
		var ok bool
		var err error
		g, ok, err = res.Ladder(stream, o)
		switch {
		case !ok && f.Expr != nil:
			return nil, fmt.Errorf("%s: -s %d: no such connection among those --filter %q matches", name, stream, f.Raw)
		case !ok:
			return nil, fmt.Errorf("%s: -s %d: no such connection", name, stream)
		case err != nil:
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	} else {
		if err := f.SelectJoined(res); err != nil {
			return nil, err
		}
		var ok bool
		var err error
		if g, ok, err = res.Ladder(stream, o); !ok {
			return nil, f.NoPick(stream, res)
		} else if err != nil {
			return nil, err
		}
	}
	if timed := o.Time.HasMin || o.Time.HasMax; timed && !slices.ContainsFunc(g.Series, func(s analyze.Series) bool { return len(s.Points) > 0 }) {
		return nil, fmt.Errorf("%s: stream %d: nothing to draw in the window asked for", name, g.Stream)
	}
	return g, nil
}

// SelectStreams keeps, of res (caps read from ins), the connection each
// CAPTURE#N names: stream N of that capture, on every hop it was seen at.
// selected says one was named: it then stands for -s, whatever -s says,
// as in the graph commands.
func SelectStreams(res *join.Result, caps []*join.Capture, ins []Named) (selected bool, err error) {
	for i, in := range ins {
		if !in.HasStream {
			continue
		}
		if !res.Select(caps[i], in.StreamFilter()) {
			where := ""
			if len(ins) > 1 {
				where = " among the connections joined"
			}
			return false, fmt.Errorf("%s#%d: no such connection%s", in.Display(), in.Stream, where)
		}
		selected = true
	}
	return selected, nil
}

// Seen is f, noting in seen whether it kept anything. It is asked before
// the filters already there (--filter, -s): seen says the stream is in the
// capture, whatever they keep of it. then, when set, is asked after (io's
// --filter).
func Seen(f reassembly.Filter, seen *atomic.Bool, then reassembly.Filter) reassembly.Filter {
	return seenFilter{f, seen, then}
}

type seenFilter struct {
	f    reassembly.Filter
	seen *atomic.Bool
	then reassembly.Filter
}

func (s seenFilter) Match(v *reassembly.FlowView) bool {
	if !s.f.Match(v) {
		return false
	}
	s.seen.Store(true)
	return s.then == nil || s.then.Match(v)
}
