package charts

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"tcpviz/analyze/join"
	"tcpviz/internal/words"
	"tcpviz/reassembly"
)

// AddJoined adds to a report the section of joined captures: the hops of
// connection ch of their first hop in direction d (the join's rows, a
// fact per hop), its one-way delay across the first hop (or, split by a
// proxy, the proxy's buffer) drawn in the page and as a picture, and its
// ladder; put writes the pictures.
func AddJoined(rep *Report, res *join.Result, ch *join.ConnHop, d reassembly.Direction, po PlotOptions, put Put) error {
	names := make([]string, len(res.Captures))
	for i, c := range res.Captures {
		names[i] = c.Name
	}
	rc := ReportConn{Stream: -1, Nav: "joined captures",
		Label: fmt.Sprintf("%s, stream %d (%s) along %s", ch.Up.Ends(d)[0], ch.Up.Stream, d, strings.Join(names, " > "))}
	t := NewTable(JoinColumns)
	cur := ch
	for i, h := range res.Hops {
		if i > 0 {
			cur = nil
			for _, c := range h.Conns {
				if c.Up == prevDown(res, i, ch) {
					cur = c
				}
			}
			if cur == nil {
				break
			}
		}
		for dd := range cur.Dir {
			AddRow(t, JoinColumns, &JoinRow{Hop: h, Conn: cur, Dir: reassembly.Direction(dd)})
		}
		dh := &cur.Dir[d]
		if cur.Split {
			rc.Facts = append(rc.Facts, Fact{Label: HopName(h), Value: fmt.Sprintf("split by a proxy: it held up to %s", words.Plural(dh.ProxyBufferMax, "byte"))})
			continue
		}
		rc.Facts = append(rc.Facts, Fact{Label: HopName(h), Value: fmt.Sprintf("%s lost, %s reordered between; one-way delay median %.1f ms (min %.1f, p95 %.1f); queueing p95 %.1f ms; clock offset %.3f ± %.3f ms",
			words.Plural(dh.LostData, "data segment"), words.Plural(dh.Reordered, "packet"), float64(dh.OWD.Median)/1e6, float64(dh.OWD.Min)/1e6, float64(dh.OWD.P95)/1e6, float64(dh.Queue.P95)/1e6, h.Clock.Offset/1e6, h.Clock.Err/1e6)})
	}
	rc.Table = t
	g, _ := join.Graph("", res.Hops[0], ch, d) // the one that fits: no error
	caption, file := "One-way and queueing delay across the first hop", "join-owd.png"
	if ch.Split {
		caption, file = "The proxy's buffer: bytes it accepted, delivered beyond it, held", "join-proxy.png"
	}
	if err := put(file, func(w io.Writer) error { return WriteGraph(w, g, PNG, po) }); err != nil {
		return err
	}
	rc.Graphs = append(rc.Graphs, newReportGraph(g, caption, file, po.Width, po.Height))
	if lg, ok, err := res.Ladder(ch.Up.Stream, join.LadderOptions{}); ok && err == nil {
		if err := put("ladder.png", func(w io.Writer) error { return WriteGraph(w, lg, PNG, po) }); err != nil {
			return err
		}
		rc.Images = append(rc.Images, ReportImage{Caption: "Ladder of the first " + strconv.Itoa(join.LadderPackets) + " packets at " + res.Captures[0].Name + ", along every capture point", File: "ladder.png"})
	}
	rep.Conns = append(rep.Conns, rc)
	return nil
}

// prevDown is, at hop i, the connection of the chain of ch that the hop
// before leads to.
func prevDown(res *join.Result, i int, ch *join.ConnHop) *join.Conn {
	cur := ch
	for k := 1; k < i; k++ {
		for _, c := range res.Hops[k].Conns {
			if c.Up == cur.Down {
				cur = c
			}
		}
	}
	return cur.Down
}
