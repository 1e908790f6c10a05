package charts

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"tcpviz/analyze"
	"tcpviz/internal/words"
)

// ErrNoACKs is ConnGraph's error for a graph a UDP flow cannot have (no
// ACKs: no RTT, flight or window).
var ErrNoACKs = errors.New("has no ACKs")

// ConnGraph is graph q of the connection l (Load's), ready to render:
// the one drawn while l was read, or drawn now from its records, with
// what the connection says of its data, the y bounds z asked for and the
// series hide names left out. Its warnings are the graph's, and that of
// a congestion window estimated away from the sender; the error is that
// of a UDP flow without the graph (ErrNoACKs), or of a time or sequence
// window that leaves the graph empty.
func ConnGraph(l *analyze.Loaded, q analyze.GraphRequest, z analyze.Zoom, hide []string) (*analyze.Graph, []string, error) {
	if l.UDP && !q.Spec.UDP {
		return nil, nil, fmt.Errorf("UDP flow %d (%s → %s) %w: no %s to draw",
			l.Conn.Stream, l.Stats[l.Dir].Src, l.Stats[l.Dir].Dst, ErrNoACKs, strings.ToLower(q.Spec.Title))
	}
	o := q.Series
	o.Conn, o.Dir, o.Stats = l.Conn, l.Dir, &l.Stats[l.Dir]
	var g *analyze.Graph
	if len(l.Graphs) > 0 {
		g = l.Graphs[0]
	} else {
		g = q.Spec.Draw(l.Records, o, q.Params)
	}
	annotate(l, g)
	var drawn []string // the series with points, before any is hidden
	for _, s := range g.Series {
		if len(s.Points) > 0 {
			drawn = append(drawn, s.Name)
		}
	}
	Adjust(g, z, hide)
	warnings := append(WarningTexts(g.Warnings), StderrNotes(g)...)
	if g.Kind == analyze.GraphCwnd {
		warnings = append(warnings, cwndBasis(g, l.Stats[l.Dir].Path.Vantage)...)
	}
	if len(drawn) > 0 && pointCount(g) == 0 {
		// Every series this connection has was hidden (the graph's
		// others, which a usage error names, are empty here: a window
		// graph without SACK has no bytes-in-flight-unsacked).
		return g, warnings, fmt.Errorf("stream %d (%s): every series drawn here is hidden (%s): nothing left to draw", l.Conn.Stream, l.Dir, strings.Join(drawn, ", "))
	}
	timed := o.Time.HasMin || o.Time.HasMax
	if pointCount(g) > 0 || !timed && !o.Seq.HasMin && !o.Seq.HasMax {
		return g, warnings, nil
	}
	if !timed {
		return g, warnings, fmt.Errorf("stream %d (%s): nothing to draw in the sequence window asked for", l.Conn.Stream, l.Dir)
	}
	return g, warnings, fmt.Errorf("stream %d (%s): nothing to draw in the window asked for (the connection lasts %s s)",
		l.Conn.Stream, l.Dir, FormatSeconds(l.Conn.Duration()))
}

// annotate gives g what the connection l says of its data: whether it
// is a UDP flow's, and under its legend the ACKs of a proxy beside the
// capture (a split connection), which make "acknowledged" and
// "delivered" the proxy's.
func annotate(l *analyze.Loaded, g *analyze.Graph) {
	g.UDP = l.UDP
	if !l.UDP && l.Stats[l.Dir].Path.NearbyPeer {
		g.Notes = append(g.Notes, analyze.Warning{Kind: analyze.NoteProxyACKs})
	}
}

// WhyNoACKs is err, and when it is ErrNoACKs of a main flow that came out
// UDP (a UDP test) though no UDP flow was asked for, how to draw a TCP
// connection's instead: with no --filter, --proto tcp draws the busiest;
// a filter (filtered) chose the flow.
func WhyNoACKs(err error, filtered bool) error {
	if !errors.Is(err, ErrNoACKs) {
		return err
	}
	how := "the capture's main flow; --proto tcp draws the busiest TCP connection's"
	if filtered {
		how = "the busiest flow --filter matches; add 'and tcp' to it for a TCP connection's"
	}
	return fmt.Errorf("%w (%s)", err, how)
}

// Adjust sets the y bounds z asks for on g and leaves out the series
// hide names.
func Adjust(g *analyze.Graph, z analyze.Zoom, hide []string) {
	if z.HasYMin {
		g.Zoom.YMin, g.Zoom.HasYMin = z.YMin, true
	}
	if z.HasYMax {
		g.Zoom.YMax, g.Zoom.HasYMax = z.YMax, true
	}
	kept := g.Series[:0]
	for _, s := range g.Series {
		if !slices.Contains(hide, s.Name) {
			kept = append(kept, s)
		}
	}
	g.Series = kept
}

// HideSeries is which of a graph's series (valid) --hide's values (raw,
// as given) name: a value that is one whole, commas and all (compare's
// label "PEP, 85 KB"), names it; another is a list of names. A name of no
// series, or names that hide them all, is an error (a usage error).
func HideSeries(raw, valid []string) ([]string, error) {
	var hide []string
	for _, r := range raw {
		if whole := strings.TrimSpace(r); slices.Contains(valid, whole) {
			hide = append(hide, whole)
			continue
		}
		for _, h := range strings.Split(r, ",") {
			if h = strings.TrimSpace(h); !slices.Contains(valid, h) {
				return nil, fmt.Errorf("--hide %q: no such series in this graph (want %s)", h, words.Or(valid))
			}
			hide = append(hide, h)
		}
	}
	if len(valid) > 0 && !slices.ContainsFunc(valid, func(v string) bool { return !slices.Contains(hide, v) }) {
		return nil, fmt.Errorf("--hide: every series of this graph hidden (%s): nothing left to draw", strings.Join(valid, ", "))
	}
	return hide, nil
}

// ConnGraphFile is the file name a graph command derives for the graph q
// of connection l of the capture named base: base, the graph's stem and
// the stream (sN for tcp.stream N, udpN for a UDP flow's udp.stream).
func ConnGraphFile(base string, q analyze.GraphRequest, l *analyze.Loaded) string {
	which := fmt.Sprintf("s%d", l.Conn.Stream)
	if l.UDP {
		which = fmt.Sprintf("udp%d", l.Conn.Stream) // udp.stream, not tcp.stream
	}
	return fmt.Sprintf("%s-%s-%s.png", base, graphStem(q), which)
}

// graphStem is the name of graph q in derived file names: its kind, and
// for RTT graphs the sampling when it is not the default one
// ("rtt-timestamps").
func graphStem(q analyze.GraphRequest) string {
	if sm := q.Params.Sampling; q.Spec.Kind == analyze.GraphRTT && sm != "" && sm != analyze.SampleAck {
		return string(q.Spec.Kind) + "-" + string(sm)
	}
	return string(q.Spec.Kind)
}

// rttSamplingNames say where each sampling's samples come from.
var rttSamplingNames = map[analyze.RTTSampling]string{
	analyze.SampleAck:        "ack_rtt",
	analyze.SampleKarn:       "Karn's rule, as tcptrace",
	analyze.SampleTimestamps: "TCP timestamps",
}

// Caption is the title of graph q with the parameters that change what
// it shows (a report's figure captions).
func Caption(q analyze.GraphRequest) string {
	if q.Spec.Kind == analyze.GraphRTT {
		sm := q.Params.Sampling
		if sm == "" {
			sm = analyze.SampleAck
		}
		return fmt.Sprintf("%s (%s)", q.Spec.Title, rttSamplingNames[sm])
	}
	return q.Spec.Title
}

// cwndBasis says once what a cwnd graph's line is where the capture is
// not known to be at the sender, as the graph drew it: the data that
// arrived per round trip where the graph was drawn at a receiver
// (receiverFlight, from the handshake's round trips); else, where the
// path analysis (v: from the handshake or TCP timestamps) does not place
// the capture at the sender, that the graph drew the sender's model from
// a flight that may not be the sender's: no handshake (sharkfest-traces'
// SF20_Trace1, at the receiver, whose warning had said the line was the
// data arrived where the picture drew the sender's window, ssthresh and
// bands), or one whose round trips did not tell (suricata-verify's
// syn_retransmit_with_ts, microseconds each way).
func cwndBasis(g *analyze.Graph, v analyze.Vantage) []string {
	const est = "the congestion window is estimated from a sender-side capture; "
	switch {
	case receiverFlight(g) && v == analyze.VantageSender:
		return []string{est + "by its handshake this one is nearer the receiver: the line is the data that reached it over each round trip (the sender's flight one one-way delay earlier), not the window the sender allowed"}
	case receiverFlight(g):
		return []string{est + "this one is " + vantagePhrase(v, "the path") + ": the line is the data that reached it over each round trip (the sender's flight one one-way delay earlier), not the window the sender allowed"}
	case v == analyze.VantageUnknown:
		return []string{est + "where this one was taken is unknown (no handshake, no timestamps): the graph drew the sender's model from the flight seen here, whose window, ssthresh and states are the sender's only if the capture is near it"}
	case v != analyze.VantageSender:
		return []string{est + "the path analysis places this one " + vantagePhrase(v, "the path") + ", but the graph, which goes by the handshake's round trips alone, drew the sender's model from the flight seen here, whose window, ssthresh and states are the sender's only if the capture is near it"}
	}
	return nil
}
