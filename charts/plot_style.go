package charts

import (
	"hash/fnv"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tcpviz/analyze"
	"tcpviz/analyze/join"
)

// The Tableau 10 palette, which Wireshark's graphs also use.
var (
	blue   = rgb(0x1f77b4)
	orange = rgb(0xff7f0e)
	green  = rgb(0x2ca02c)
	red    = rgb(0xd62728)
	purple = rgb(0x9467bd)
	brown  = rgb(0x8c564b)
	pink   = rgb(0xe377c2)
	gray   = rgb(0x7f7f7f)
	olive  = rgb(0xbcbd22)
	cyan   = rgb(0x17becf)
	black  = color.RGBA{A: 255}
	// darkGray marks spurious retransmissions: darker than gray, which
	// vanished against the ACK line.
	darkGray = rgb(0x404040)
)

func rgb(v uint32) color.RGBA {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}
}

// seriesStyle is how one series is drawn. Styles are fixed per series name
// so that a colour means the same thing in every graph.
type seriesStyle struct {
	color  color.RGBA
	width  vg.Length // line width, or glyph radius for marks
	glyph  draw.GlyphDrawer
	legend string // legend text
	// density shades dots by how many points their cell holds.
	density bool
	// lane is where a band (Spans) runs along the plot's foot, from the
	// bottom: the congestion state 0, what held the sender 1.
	lane int
}

var seriesStyles = map[string]seriesStyle{
	analyze.SeriesData:             {color: blue, width: 1, legend: "data segment"},
	analyze.SeriesRetrans:          {color: red, width: 2, legend: "retransmission"},
	analyze.SeriesOutOfOrder:       {color: orange, width: 2, legend: "out-of-order (late, not resent)"},
	analyze.SeriesLost:             {color: pink, width: 4, glyph: draw.RingGlyph{}, legend: "lost segment (gap before)"},
	analyze.SeriesAck:              {color: green, width: 1, legend: "ACK"},
	analyze.SeriesRecvWindow:       {color: olive, width: 1.2, legend: "receive window (ACK + window)"},
	analyze.SeriesSACK:             {color: purple, width: 0.8, legend: "SACK block"},
	analyze.SeriesDupAck:           {color: cyan, width: 3.5, glyph: tickGlyph{}, legend: "duplicate ACK"},
	analyze.SeriesZeroWindow:       {color: black, width: 4, glyph: diamondGlyph{}, legend: "zero window"},
	analyze.SeriesSYN:              {color: gray, width: 4, glyph: draw.TriangleGlyph{}, legend: "SYN"},
	analyze.SeriesFIN:              {color: black, width: 3.5, glyph: draw.SquareGlyph{}, legend: "FIN"},
	analyze.SeriesRST:              {color: red, width: 4, glyph: draw.CrossGlyph{}, legend: "RST"},
	analyze.SeriesThroughput:       {color: blue, width: 1.2, legend: "throughput (all bytes sent)"},
	analyze.SeriesGoodput:          {color: green, width: 2.8, legend: "goodput (newly acknowledged)"},
	analyze.SeriesDelivery:         {color: orange, width: 1.1, legend: "delivery rate (newly delivered, SACKed or duplicate-ACKed included)"},
	analyze.SeriesRTT:              {color: blue, width: 1.3, legend: "RTT sample", density: true},
	analyze.SeriesRTTRepair:        {color: orange, width: 1.6, legend: "ack_rtt across a repair (segment resent, or another sent between: --sampling karn leaves it out)", density: true},
	analyze.SeriesInFlight:         {color: blue, width: 1.2, legend: "bytes in flight (at each segment sent)"},
	analyze.SeriesInFlightUnSACKed: {color: green, width: 1.2, legend: "bytes in flight not SACKed (what was lost still counted)"},
	analyze.SeriesAdvertised:       {color: olive, width: 1.5, legend: "advertised receive window"},
	analyze.SeriesSpurious:         {color: darkGray, width: 3, legend: "spurious retransmission (proven unneeded)"},
	analyze.SeriesDSACK:            {color: brown, width: 2.4, legend: "D-SACK block (a duplicate arrived)"},
	analyze.SeriesCwnd:             {color: blue, width: 1.6, legend: "cwnd estimate (the window the sender allowed)"},
	analyze.SeriesSsthresh:         {color: orange, width: 1.4, legend: "ssthresh estimate (the window settled at after each loss; restored where one is undone)"},
	analyze.SeriesFastLoss:         {color: red, width: 4.5, glyph: draw.PlusGlyph{}, legend: "loss: fast retransmit"},
	analyze.SeriesRTOLoss:          {color: purple, width: 4.5, glyph: draw.PyramidGlyph{}, legend: "loss: timeout"},
	analyze.SeriesPipe:             {color: green, width: 1.3, legend: "the sender's pipe (in flight, less SACKed and lost)"},
	analyze.SeriesBDP:              {color: pink, width: 1.4, legend: "BDP estimate (largest delivery rate of 10 round trips × least RTT)"},
	analyze.SeriesUndoneLoss:       {color: darkGray, width: 4.5, glyph: draw.CrossGlyph{}, legend: "loss undone (proven spurious: the window restored)"},
	analyze.SeriesTLP:              {color: cyan, width: 3.5, glyph: draw.TriangleGlyph{}, legend: "tail-loss probe (the last segment again: no reduction)"},
	analyze.SeriesDisorder:         {color: rgb(0xe8c547), legend: "state: disorder (duplicate ACKs or SACK, nothing resent)"},
	analyze.SeriesRecovery:         {color: rgb(0xff9f5a), legend: "state: recovery (fast retransmit)"},
	analyze.SeriesLossState:        {color: rgb(0xb49bd0), legend: "state: loss (after a timeout)"},
	analyze.SeriesRwndHeld:         {color: rgb(0xcfd06a), lane: 1, legend: "held by the receive window (cwnd unknown: the line is a lower bound)"},
	analyze.SeriesAppHeld:          {color: rgb(0xb8b8b8), lane: 1, legend: "nothing to send (cwnd unknown: the line is a lower bound)"},
	join.SeriesOWD:                 {color: blue, width: 1.3, legend: "one-way delay (packet seen at both captures)", density: true},
	join.SeriesQueue:               {color: orange, width: 1.3, legend: "queueing delay (above the fixed delay of its size)", density: true},
	join.SeriesLostBetween:         {color: red, width: 4, glyph: draw.RingGlyph{}, legend: "lost between the captures"},
	join.SeriesAccepted:            {color: blue, width: 1.6, legend: "accepted by the proxy (acknowledged to the sender)"},
	join.SeriesDelivered:           {color: green, width: 1.6, legend: "delivered beyond the proxy (acknowledged by the receiver)"},
	join.SeriesBuffered:            {color: orange, width: 1.4, legend: "held by the proxy"},
	join.SeriesLadderData:          {color: blue, width: 1, legend: "data segment"},
	join.SeriesLadderAck:           {color: green, width: 1, legend: "ACK"},
	join.SeriesLadderCtl:           {color: black, width: 1.2, legend: "SYN, FIN or RST"},
	join.SeriesLadderLost:          {color: red, width: 1.2, legend: "lost between the captures"},
}

// udpLegends name the series of a UDP flow's graphs, which has no ACKs:
// what the series call acknowledged is what reached the capture point.
var udpLegends = map[string]string{
	analyze.SeriesData:       "datagram",
	analyze.SeriesAck:        "received (reached the capture point)",
	analyze.SeriesThroughput: "throughput (all datagrams)",
	analyze.SeriesGoodput:    "received (reached the capture point)",
	analyze.SeriesDelivery:   "received (each byte once)",
}

// receiverFlight tells whether g is a cwnd graph drawn at a
// receiver-side capture, whose line is the data that arrived per round
// trip, not the window the sender allowed (a comparison's note of one
// input, Label, is not).
func receiverFlight(g *analyze.Graph) bool {
	return slices.ContainsFunc(g.Notes, func(w analyze.Warning) bool { return w.Kind == analyze.NoteReceiverFlight && w.Label == "" })
}

// palette colours series without a fixed style (the inputs of a
// comparison), by their position in the graph.
var palette = []color.RGBA{blue, orange, green, red, purple, brown, pink, gray, olive, cyan}

// colorIndexes are the palette colours of g's series without a fixed
// style (compare's inputs, a sweep's groups): each label's own, from a
// hash of it, so that a label keeps its colour in every figure of a
// study ("cubic" the same in delivered, tput and rtt, whatever else is
// compared); when two labels of one figure want one colour, the later
// takes the next free one. A series' Palette, when set, wins.
func colorIndexes(g *analyze.Graph) []int {
	names := make([]string, len(g.Series))
	for i, s := range g.Series {
		if _, fixed := seriesStyles[s.Name]; !fixed && s.Palette == 0 && s.Of == "" {
			names[i] = s.Name
		}
	}
	out := labelColors(names)
	for i, s := range g.Series {
		if s.Palette > 0 {
			out[i] = s.Palette - 1
		}
	}
	for i, s := range g.Series { // a companion takes its series' colour
		if s.Of != "" {
			if j := slices.IndexFunc(g.Series, func(o analyze.Series) bool { return o.Name == s.Of }); j >= 0 {
				out[i] = out[j]
			}
		}
	}
	return out
}

// labelColors are the palette indexes of labels (the empty ones get 0):
// by a hash of each label, probing on for the next free one.
func labelColors(labels []string) []int {
	out := make([]int, len(labels))
	taken := map[int]bool{}
	seen := map[string]int{}
	for i, l := range labels {
		if l == "" {
			continue
		}
		if k, ok := seen[l]; ok {
			out[i] = k
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(l))
		// Not gray, the colour of no data (unless every other is taken).
		k := int(h.Sum32() % uint32(len(palette)))
		for n := 0; (taken[k] || palette[k] == gray) && n < 2*len(palette); n++ {
			if n >= len(palette) && !taken[k] {
				break
			}
			k = (k + 1) % len(palette)
		}
		taken[k], seen[l], out[i] = true, k, k
	}
	return out
}

// styleOf returns the style of a series: fixed per name for the series of
// one connection's graphs, by position (index) for other names.
func styleOf(g *analyze.Graph, name string, index int) seriesStyle {
	s, ok := seriesStyles[name]
	if !ok {
		s = seriesStyle{color: palette[index%len(palette)], width: 1.5, glyph: draw.CircleGlyph{}, legend: name, density: true}
	}
	if l, ok := udpLegends[name]; ok && g.UDP {
		s.legend = l
	}
	if name == analyze.SeriesCwnd && receiverFlight(g) {
		s.legend = "data arrived per round trip (the sender's flight one one-way delay earlier)"
	}
	if name == analyze.SeriesDelivery && g.Kind == analyze.GraphCwnd {
		// Each round's delivery rate in bytes, beside the window; brown,
		// as the graph's orange is ssthresh.
		s.legend, s.width, s.color = "delivery rate × least RTT (each round's)", 1, brown
	}
	return s
}

// styleOfSeries is s's style: a companion (analyze.Series.Role) is drawn
// with its role's marks and dashes in its series' colour, under its own
// name.
func styleOfSeries(g *analyze.Graph, s *analyze.Series, index int) seriesStyle {
	if r, ok := seriesStyles[s.Role]; ok && s.Of != "" {
		r.color, r.legend = palette[index%len(palette)], s.Name
		return r
	}
	return styleOf(g, s.Name, index)
}

// tickGlyph is a short vertical tick, for duplicate ACKs on the ACK line.
type tickGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (tickGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	ls := draw.LineStyle{Color: sty.Color, Width: vg.Points(1.2)}
	c.StrokeLine2(ls, pt.X, pt.Y-sty.Radius, pt.X, pt.Y+sty.Radius)
	c.StrokeLine2(ls, pt.X-sty.Radius/2, pt.Y+sty.Radius, pt.X+sty.Radius/2, pt.Y+sty.Radius)
}

// diamondGlyph is a filled diamond, for zero windows: no other mark has
// its shape.
type diamondGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.SetColor(sty.Color)
	c.Fill(p)
}

// Themes: how a picture looks.
const (
	// ThemeDefault is Wireshark's colours (Tableau 10) on a light grid.
	ThemeDefault = ""
	// ThemePaper is a journal's figure, legible in grayscale: the
	// Okabe–Ito colours (safe for colour-blind readers too), every line
	// its own dash pattern and markers, black axes, no grid.
	ThemePaper = "paper"
)

// Themes are the themes' names, for --theme.
var Themes = []string{"default", ThemePaper}

// paperColors map the default palette to Okabe and Ito's.
var paperColors = map[color.RGBA]color.RGBA{
	blue: rgb(0x0072b2), orange: rgb(0xe69f00), green: rgb(0x009e73), red: rgb(0xd55e00),
	purple: rgb(0xcc79a7), brown: rgb(0x8c510a), pink: rgb(0xaa4499), gray: rgb(0x666666),
	olive: rgb(0x999933), cyan: rgb(0x56b4e9), darkGray: rgb(0x333333),
}

// paperDashes are the lines' dash patterns, in points, by the line's
// order in the picture (the first solid); paperMarkers their markers.
var (
	paperDashes  = [][]float64{nil, {6, 3}, {1.5, 2.5}, {7, 2.5, 1.5, 2.5}, {11, 3.5}, {3, 2}}
	paperMarkers = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, diamondGlyph{}, draw.PlusGlyph{}, draw.CrossGlyph{}}
)

// fontScale is how much the text grows for a --font-size of pt (the
// size of the tick labels; 0: the default, 10).
func fontScale(pt float64) float64 {
	if pt <= 0 {
		return 1
	}
	return pt / 10
}

// applyTheme sets the look o asks for on the plots of a picture's series.
func applyTheme(plots []*seriesPlot, o PlotOptions) {
	line := 0
	for _, sp := range plots {
		sp.fontSize = o.FontSize
		if o.LineWidth > 0 {
			sp.width = vg.Points(o.LineWidth)
		}
		if o.Theme != ThemePaper {
			continue
		}
		if c, ok := paperColors[sp.style.color]; ok {
			sp.style.color = c
		}
		if sp.kind == analyze.Lines || sp.kind == analyze.Steps {
			sp.lineIndex = line
			if sp.colorIndex > 0 { // a label keeps its dashes and marker in every figure
				sp.lineIndex = sp.colorIndex - 1
			}
			if d := paperDashes[sp.lineIndex%len(paperDashes)]; d != nil {
				for _, v := range d {
					sp.dashes = append(sp.dashes, vg.Points(v))
				}
			}
			sp.marker = paperMarkers[sp.lineIndex%len(paperMarkers)]
			if o.LineWidth == 0 {
				sp.width = vg.Points(max(1.4, float64(sp.style.width)))
			}
			line++
		}
	}
}

// The pictures' text is in Liberation Sans, as the report's page is
// (gonum's default is Liberation Serif).
func init() {
	plot.DefaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
}
