package charts

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"tcpviz/analyze"
)

// GraphFormat is what a graph is written as.
type GraphFormat string

// Graph formats. PNG, SVG and PDF are pictures; PointsCSV and PointsJSON
// are the plotted points.
const (
	PNG        GraphFormat = "png"
	SVG        GraphFormat = "svg"
	PDF        GraphFormat = "pdf"
	PointsCSV  GraphFormat = "csv"
	PointsJSON GraphFormat = "json"
)

// ParseGraphFormat checks a format name (a file extension without the
// dot, in any case).
func ParseGraphFormat(s string) (GraphFormat, error) {
	switch f := GraphFormat(strings.ToLower(s)); f {
	case PNG, SVG, PDF, PointsCSV, PointsJSON:
		return f, nil
	}
	return "", fmt.Errorf("unknown graph format %q (want png, svg, pdf, csv or json)", s)
}

// PlotOptions set how a graph is drawn.
type PlotOptions struct {
	// Width and Height of the picture in pixels (at 96 dpi for PNG; SVG
	// and PDF get the same size in points × 0.75). Zero picks 1200×700.
	Width, Height int
	// Title replaces the generated title when not empty.
	Title string
	// Capture names the capture in the generated title, as it should be
	// shown (a base name, "standard input"); of a comparison, the inputs
	// ("a vs b").
	Capture string
	// LogY draws the y axis on a logarithmic scale; values at or below
	// zero are drawn on its bottom edge.
	LogY bool
	// LogX draws an x axis that is no time on a logarithmic scale; points
	// at or below zero are left out.
	LogX bool
	// Theme is ThemeDefault or ThemePaper.
	Theme string
	// FontSize is the tick labels' size in points (the title, axis
	// labels and legend scale with it); 0 is 10.
	FontSize float64
	// LineWidth is the width of every line in points; 0 keeps each
	// series' own.
	LineWidth float64
	// Facet draws each series in a panel of its own, small multiples
	// on one scale (compare --facet: one panel per input).
	Facet bool
}

// Picture sizes, in pixels: the default, and the limits a picture must
// stay within (a side of 8000 pixels is a 68 cm poster at 300 dpi; the
// PNG canvas of the largest takes 256 MB).
const (
	DefaultWidth  = 1200
	DefaultHeight = 700
	MinSide       = 100
	MaxSide       = 8000
	dpi           = 96
)

// The ranges of PlotOptions.FontSize and LineWidth, in points: type
// smaller than 4 points is unreadable in print, and a line wider than 20
// points hides the others.
const (
	MinFontSize, MaxFontSize   = 4.0, 40.0
	MinLineWidth, MaxLineWidth = 0.1, 20.0
)

// CheckFontSize returns an error when a font size asked for is outside
// MinFontSize..MaxFontSize.
func CheckFontSize(pt float64) error { return checkPoints(pt, MinFontSize, MaxFontSize) }

// CheckLineWidth returns an error when a line width asked for is outside
// MinLineWidth..MaxLineWidth.
func CheckLineWidth(pt float64) error { return checkPoints(pt, MinLineWidth, MaxLineWidth) }

// checkPoints is the error of a length of pt points outside lo..hi.
func checkPoints(pt, lo, hi float64) error {
	if !(pt >= lo && pt <= hi) {
		return fmt.Errorf("out of range (want %g to %g points)", lo, hi)
	}
	return nil
}

// CheckSize returns an error when a side is outside MinSide..MaxSide.
func CheckSize(w, h int) error {
	for _, v := range []int{w, h} {
		if v < MinSide || v > MaxSide {
			return fmt.Errorf("picture size %d×%d: want %d to %d pixels a side", w, h, MinSide, MaxSide)
		}
	}
	return nil
}

// ThinColumns is how many columns of analyze.Thinning a graph drawn for a
// picture gets per pixel column: thinned finer than the picture, the
// picture's own thinning finds what it would find in every point.
const ThinColumns = 4

// Thin readies graphs qs to be written in format f with these options:
// a picture shows at most a few points per pixel column of a series, so
// long series are thinned as they are built (thinCols); the points'
// formats keep every point.
func (o PlotOptions) Thin(f GraphFormat, qs []analyze.GraphRequest) {
	for i := range qs {
		qs[i].Series.Thin.Cols = o.thinCols(f)
	}
}

// thinCols is the analyze.Thinning columns of a graph written in format f
// with these options: ThinColumns per pixel column of a picture, 0 (no
// thinning: every point) for the points' formats.
func (o PlotOptions) thinCols(f GraphFormat) int {
	switch f {
	case PNG, SVG, PDF:
		w, _ := o.Size()
		return ThinColumns * w
	}
	return 0
}

// Size is the picture's size in pixels, the defaults for those unset.
func (o PlotOptions) Size() (w, h int) {
	w, h = o.Width, o.Height
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	return w, h
}

// WriteGraph writes g to w in format f: a picture, or its points.
func WriteGraph(w io.Writer, g *analyze.Graph, f GraphFormat, o PlotOptions) error {
	switch f {
	case PointsCSV:
		return writePointsCSV(w, g)
	case PointsJSON:
		return writePointsJSON(w, g)
	case PNG, SVG, PDF:
		return Render(w, g, f, o)
	}
	return fmt.Errorf("unknown graph format %q", f)
}

// Title is the generated title of g: the graph, the connection and the
// capture; of a graph of no one connection (a comparison, every flow, an
// experiment), the graph and what capture says it is of.
func Title(g *analyze.Graph, capture string) string {
	name := g.Title
	if name == "" {
		name = string(g.Kind)
	}
	if g.Stream < 0 || g.Kind == analyze.GraphCompare {
		if capture != "" {
			name += " — " + capture
		}
		return name
	}
	t := fmt.Sprintf("%s — %s → %s (stream %d, %s)", name, g.Src, g.Dst, g.Stream, g.Dir)
	if g.UDP {
		t = fmt.Sprintf("%s — %s → %s (flow %d, UDP)", name, g.Src, g.Dst, g.Stream)
	}
	if capture != "" {
		t += " — " + capture
	}
	return t
}

// Render draws g as a PNG, SVG or PDF picture to w.
func Render(w io.Writer, g *analyze.Graph, f GraphFormat, o PlotOptions) error {
	chunk := 0
	if f == PNG {
		chunk = rasterChunk
	}
	return render(w, g, f, o, chunk)
}

// render is Render, lines stroked in pieces of chunk points (0: whole).
func render(w io.Writer, g *analyze.Graph, f GraphFormat, o PlotOptions, chunk int) error {
	wpx, hpx := o.Size()
	if err := CheckSize(wpx, hpx); err != nil {
		return err
	}
	width := vg.Length(wpx) * vg.Inch / dpi
	height := vg.Length(hpx) * vg.Inch / dpi
	var canvas vg.CanvasWriterTo
	var img *vgimg.Canvas
	switch f {
	case PNG:
		img = vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
		canvas = vgimg.PngCanvas{Canvas: img}
	case SVG:
		canvas = vgsvg.New(width, height)
	case PDF:
		canvas = newPDFCanvas(width, height)
	default:
		return fmt.Errorf("cannot render format %q", f)
	}
	dc := draw.New(canvas)
	if img == nil {
		// The vector formats get a white background; the PNG canvas
		// starts white (filling it again took a tenth of a second).
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
	}
	if o.Facet && len(g.Series) > 1 {
		drawFacets(dc, g, o, chunk)
		_, err := canvas.WriteTo(w)
		return err
	}
	p, leg := newPlot(g, o, wpx, hpx, chunk)
	// The title and the legend go above the plot, so that the legend never
	// hides data.
	title := p.Title
	p.Title.Text = ""
	top := dc.Max.Y - vg.Points(4)
	for _, line := range fitTitle(title.TextStyle, title.Text, dc.Max.X-dc.Min.X-vg.Points(8)) {
		dc.FillText(title.TextStyle, vg.Point{X: dc.Center().X, Y: top}, line)
		top -= title.TextStyle.Rectangle(line).Size().Y
	}
	top -= vg.Points(4)
	top = leg.draw(dc, top)
	pc := dc
	pc.Max.Y = top - vg.Points(4)
	// Room on the right for half of the last x tick label, which gonum
	// centres on the plot's edge ("2.8" would be cut to "2.").
	pc.Max.X -= vg.Points(14)
	p.Draw(pc)
	_, err := canvas.WriteTo(w)
	return err
}

// drawFacets draws each series of g in a panel of its own, in a grid of
// about as many columns as rows, every panel on the scale of the whole
// (the range all series together give): small multiples. The title and
// the notes go above them; each panel is titled by its series' name (a
// compared input's label), in the series' own colour.
func drawFacets(dc draw.Canvas, g *analyze.Graph, o PlotOptions, chunk int) {
	xmin, xmax, ymin, ymax, any := axisRange(g, o.LogY, false)
	title := plot.New().Title.TextStyle
	title.Font.Size = vg.Points(11 * fontScale(o.FontSize))
	text := o.Title
	if text == "" {
		text = Title(g, o.Capture)
	}
	top := dc.Max.Y - vg.Points(4)
	for _, line := range fitTitle(title, text, dc.Max.X-dc.Min.X-vg.Points(8)) {
		dc.FillText(title, vg.Point{X: dc.Center().X, Y: top}, line)
		top -= title.Rectangle(line).Size().Y
	}
	leg := &legend{fontSize: o.FontSize}
	for _, n := range g.Notes {
		leg.add(WarningText(n), nil)
	}
	top = leg.draw(dc, top-vg.Points(4)) - vg.Points(4)
	colors := colorIndexes(g)
	var mains []int // a tile per series; companions join their series'
	for i, s := range g.Series {
		if s.Of == "" {
			mains = append(mains, i)
		}
	}
	n := len(mains)
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	rows := (n + cols - 1) / cols
	cw, ch := (dc.Max.X-dc.Min.X)/vg.Length(cols), (top-dc.Min.Y)/vg.Length(rows)
	for i, mi := range mains {
		s := g.Series[mi]
		sub := *g
		sub.Series, sub.Notes = nil, nil
		for j, c := range g.Series {
			if j == mi || c.Of == s.Name {
				c.Palette = 1 + colors[mi]
				sub.Series = append(sub.Series, c)
			}
		}
		if any {
			sub.Zoom = analyze.Zoom{XMin: xmin, XMax: xmax, YMin: ymin, YMax: ymax, HasXMin: true, HasXMax: true, HasYMin: true, HasYMax: true}
		}
		po := o
		po.Title = s.Name
		wpx, hpx := int(cw.Dots(dpi)), int(ch.Dots(dpi))
		p, _ := newPlot(&sub, po, wpx, hpx, chunk)
		tc := styleOf(&sub, s.Name, colors[mi]).color
		if pc, ok := paperColors[tc]; ok && o.Theme == ThemePaper {
			tc = pc
		}
		p.Title.TextStyle.Color = tc
		r, c := i/cols, i%cols
		tile := dc
		tile.Min = vg.Point{X: dc.Min.X + vg.Length(c)*cw, Y: top - vg.Length(r+1)*ch}
		tile.Max = vg.Point{X: tile.Min.X + cw - vg.Points(14), Y: top - vg.Length(r)*ch}
		p.Draw(tile)
	}
}

// fitTitle breaks a title into lines no wider than width: at its " — "
// (the graph, the connection, the capture), then between words, a word
// wider than the picture cut with an ellipsis.
func fitTitle(sty text.Style, title string, width vg.Length) []string {
	fits := func(s string) bool { return sty.Width(s) <= width }
	if fits(title) {
		return []string{title}
	}
	var lines []string
	add := func(piece, sep string) {
		if n := len(lines); n > 0 && fits(lines[n-1]+sep+piece) {
			lines[n-1] += sep + piece
		} else {
			lines = append(lines, piece)
		}
	}
	for i, part := range strings.Split(title, " — ") {
		sep := " — "
		if fits(part) {
			if i == 0 {
				sep = ""
			}
			add(part, sep)
			continue
		}
		for j, word := range strings.Fields(part) {
			sep := " "
			if j == 0 {
				sep = " — "
			}
			if !fits(word) {
				word = cutToFit(word, fits)
			}
			if len(lines) == 0 {
				lines = append(lines, word)
				continue
			}
			add(word, sep)
		}
	}
	return lines
}

// cutToFit is the longest start of word, followed by an ellipsis, that
// fits (at least the ellipsis): found by halving, as a title of one word
// of 100,000 letters took minutes cut a letter at a time (each cut
// measured anew).
func cutToFit(word string, fits func(string) bool) string {
	r := []rune(word)
	lo, hi := 0, len(r)-1 // r[:lo]+"…" fits (or lo is 0); r[:hi+1]+"…" is not known to
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(string(r[:mid]) + "…") {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(r[:lo]) + "…"
}

// newPlot builds the gonum plot of g and its legend (drawn separately, on
// a background, over the data); lines are stroked in pieces of chunk
// points (0: whole).
func newPlot(g *analyze.Graph, o PlotOptions, wpx, hpx, chunk int) (*plot.Plot, *legend) {
	p := plot.New()
	p.Title.Text = o.Title
	if p.Title.Text == "" {
		p.Title.Text = Title(g, o.Capture)
	}
	k := fontScale(o.FontSize)
	p.Title.TextStyle.Font.Size = vg.Points(11 * k)
	p.Title.Padding = vg.Points(6)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(12 * k)
		a.Tick.Label.Font.Size = vg.Points(10 * k)
	}
	if o.Theme != ThemePaper {
		grid := plotter.NewGrid()
		grid.Vertical.Color = color.Gray{Y: 225}
		grid.Horizontal.Color = color.Gray{Y: 225}
		p.Add(grid)
	}

	logX := o.LogX && g.XCol >= 0 && !g.X.Time && len(g.X.Names) == 0
	if logX {
		g = logXGraph(g)
	}
	xmin, xmax, ymin, ymax, any := axisRange(g, o.LogY, false)
	xtop := math.Max(math.Abs(xmin), math.Abs(xmax))
	if logX {
		xtop = math.Pow(10, xmax)
	}
	xdiv, xunit := unitFor(g.X, xtop)
	ydiv, yunit := unitFor(g.Y, math.Max(math.Abs(ymin), math.Abs(ymax)))
	p.X.Label.Text = axisLabel(g.X.Label, xunit)
	p.Y.Label.Text = axisLabel(g.Y.Label, yunit)
	p.X.Tick.Marker = scaledTicks{n: wpx / 110, div: xdiv, si: xunit == g.X.Unit}
	p.Y.Tick.Marker = scaledTicks{n: hpx / 80, div: ydiv, si: yunit == g.Y.Unit}
	if g.X.Time && g.X.Clock {
		p.X.Tick.Marker = plot.TimeTicks{Ticker: siTicks{n: wpx / 160}, Format: "15:04:05.000"}
		p.X.Label.Text = "time (UTC)"
	}
	if logX {
		p.X.Tick.Marker = logTicks{div: xdiv}
	}
	// On a log axis the plot is of log10(y), values at or below the
	// axis's bottom on its edge: gonum's own log scale misplaces the
	// axis label.
	var ty func(float64) float64
	pymin, pymax := ymin, ymax
	if o.LogY {
		ty = func(y float64) float64 { return math.Log10(math.Max(y, ymin)) }
		pymin, pymax = math.Log10(ymin), math.Log10(ymax)
		p.Y.Tick.Marker = logTicks{div: ydiv}
	}
	// The plot area is a little smaller than the picture: thinning on the
	// picture's pixels is finer than needed, never coarser.
	pg := newPixelGrid(xmin, xmax, pymin, pymax, wpx, hpx)
	leg := &legend{fontSize: o.FontSize, wide: o.Theme == ThemePaper}
	plots := make([]*seriesPlot, len(g.Series))
	boxes := new([]vg.Rectangle) // the arrows' labels, so that none overwrites another
	colors := colorIndexes(g)
	for i := range g.Series {
		s := &g.Series[i]
		plots[i] = newSeriesPlot(g, s, pg, colors[i], ty)
		plots[i].chunk = chunk
		plots[i].boxes = boxes
		name := plots[i].style.legend
		if plots[i].alpha != nil {
			name += " (darker where samples are denser)"
		}
		leg.add(name, plots[i])
	}
	applyTheme(plots, o)
	// Lines first, then bars and dots, then marks: the data and the rare
	// events stay visible where the lines run over them.
	for _, layer := range [][]analyze.SeriesKind{
		{analyze.Spans}, {analyze.Steps, analyze.Lines, analyze.Arrows}, {analyze.Bars, analyze.Dots}, {analyze.Marks},
	} {
		for _, sp := range plots {
			if slices.Contains(layer, sp.kind) {
				p.Add(sp)
			}
		}
	}
	if cp := newClipPlot(g, pg, xmin, xmax, ymin, ymax, ty); cp != nil {
		p.Add(cp)
		leg.add(cp.legend(ydiv, yunit), cp)
	}
	if !any {
		leg.add(emptyNote(g.Kind), nil)
	}
	for _, n := range g.Notes {
		leg.add(WarningText(n), nil)
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, pymin, pymax
	if g.Y.Down {
		p.Y.Scale = plot.InvertedScale{Normalizer: p.Y.Scale}
	}
	if len(g.X.Names) > 0 {
		p.X.Tick.Marker = namedTicks(g.X.Names)
		p.X.Min, p.X.Max = -0.15, float64(len(g.X.Names)-1)+0.15
	}
	return p, leg
}

// logXGraph is g with its points' x as log10 of it, those at or below
// zero left out.
func logXGraph(g *analyze.Graph) *analyze.Graph {
	cp := *g
	cp.Series = make([]analyze.Series, len(g.Series))
	for i, s := range g.Series {
		s.Points = nil
		for _, pt := range g.Series[i].Points {
			if pt.V[g.XCol] > 0 {
				pt.V[g.XCol] = math.Log10(pt.V[g.XCol])
				s.Points = append(s.Points, pt)
			}
		}
		cp.Series[i] = s
	}
	return &cp
}

// namedTicks label an axis at 0, 1, 2… with names (a ladder's capture
// points).
type namedTicks []string

// Ticks implements plot.Ticker.
func (n namedTicks) Ticks(lo, hi float64) []plot.Tick {
	out := make([]plot.Tick, len(n))
	for i, name := range n {
		out[i] = plot.Tick{Value: float64(i), Label: name}
	}
	return out
}

// outlierSpan: the highest few values of a graph are left out of its
// automatic range when they would stretch it to more than this many times
// the span of the others (a lone 18 s RTT sample among 600 ms ones).
const outlierSpan = 3

// withoutOutliers returns the top of the automatic y range of g: ymax, or
// below a lone outlier. The outliers are up to three points (one per 200
// of a graph), and only in graphs of 20 points or more.
func withoutOutliers(g *analyze.Graph, ymin, ymax float64) float64 {
	n := pointCount(g)
	if n < 20 {
		return ymax
	}
	// The four highest values, highest first (no sort of them all).
	var tops [4]float64
	have := 0
	for i := range g.Series {
		s := &g.Series[i]
		for j := range s.Points {
			_, y := pointXY(g, &s.Points[j])
			if s.Kind == analyze.Bars {
				y = math.Max(y, s.Points[j].V[g.YCol+1])
			}
			if have == len(tops) && !(y > tops[len(tops)-1]) {
				continue
			}
			at := min(have, len(tops)-1)
			for at > 0 && y > tops[at-1] {
				tops[at] = tops[at-1]
				at--
			}
			tops[at] = y
			have = min(have+1, len(tops))
		}
	}
	k := min(3, max(1, n/200))
	for i := 1; i <= k; i++ {
		if rest := tops[i]; tops[i-1] > rest+(outlierSpan-1)*(rest-math.Min(ymin, 0)) && rest > math.Min(ymin, 0) {
			return rest
		}
	}
	return ymax
}

// smallestPositive is the bottom of a log axis: the smallest positive y
// value of g, or a thousandth of top if there is none.
func smallestPositive(g *analyze.Graph, top float64) float64 {
	lo := math.Inf(1)
	for i := range g.Series {
		s := &g.Series[i]
		for j := range s.Points {
			if _, y := pointXY(g, &s.Points[j]); y > 0 {
				lo = math.Min(lo, y)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return math.Max(top, 1) / 1000
	}
	return lo
}

// unitFor chooses the unit an axis is labelled in, from the largest value
// shown: ms become s, B become KB, MB or GB, bit/s kbit/s, Mbit/s or
// Gbit/s (SI, powers of 1000). It returns the divisor and the unit.
func unitFor(a analyze.Axis, top float64) (float64, string) {
	if a.Time {
		return 1, a.Unit
	}
	var steps []struct {
		f    float64
		unit string
	}
	switch a.Unit {
	case "ms":
		steps = []struct {
			f    float64
			unit string
		}{{1e3, "s"}}
	case "B":
		steps = []struct {
			f    float64
			unit string
		}{{1e9, "GB"}, {1e6, "MB"}, {1e3, "KB"}}
	case "bit/s":
		steps = []struct {
			f    float64
			unit string
		}{{1e9, "Gbit/s"}, {1e6, "Mbit/s"}, {1e3, "kbit/s"}}
	}
	for _, st := range steps {
		if top >= st.f {
			return st.f, st.unit
		}
	}
	return 1, a.Unit
}

// dataRange is the extent of all points of g.
func dataRange(g *analyze.Graph) (xmin, xmax, ymin, ymax float64, any bool) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for i := range g.Series {
		s := &g.Series[i]
		for j := range s.Points {
			// The built-in min and max: math.Min's and math.Max's
			// results (±0, infinities), inline, not a call each.
			x, y := pointXY(g, &s.Points[j])
			xmin, xmax = min(xmin, x), max(xmax, x)
			if s.Kind == analyze.Spans { // bands have no y
				continue
			}
			ymin, ymax = min(ymin, y), max(ymax, y)
			if s.Kind == analyze.Bars {
				ymax = max(ymax, s.Points[j].V[g.YCol+1])
			}
			any = true
		}
	}
	return
}

// pad widens [lo, hi] by frac on the sides not fixed by the user, and
// makes an empty range non-empty.
func pad(lo, hi, frac float64, fixedLo, fixedHi bool) (float64, float64) {
	if hi < lo {
		lo, hi = hi, lo
	}
	d := hi - lo
	if d == 0 {
		d = math.Max(math.Abs(lo)*0.1, 1)
		frac = 0.5
	}
	if !fixedLo {
		lo -= d * frac
	}
	if !fixedHi {
		hi += d * frac
	}
	return lo, hi
}

func axisLabel(label, unit string) string {
	if unit == "" {
		return label
	}
	return label + " (" + unit + ")"
}

// scaledTicks are siTicks in units of div: labelled with plain numbers
// (the unit is in the axis label), or with SI prefixes when si is set (an
// axis whose unit did not change).
type scaledTicks struct {
	n   int
	div float64
	si  bool
}

// Ticks implements plot.Ticker.
func (t scaledTicks) Ticks(lo, hi float64) []plot.Tick {
	if t.si && t.div == 1 {
		return siTicks{n: t.n}.Ticks(lo, hi)
	}
	ts := siTicks{n: t.n}.Ticks(lo/t.div, hi/t.div)
	step := majorStep(ts)
	for i := range ts {
		v := ts[i].Value
		ts[i].Value = v * t.div
		if ts[i].Label != "" {
			ts[i].Label = tickLabel(v, step, trimFloat)
		}
	}
	return ts
}

// majorStep is the step between ts's labelled ticks (0 with fewer than
// two).
func majorStep(ts []plot.Tick) float64 {
	first := -1
	for i, t := range ts {
		if t.Label == "" {
			continue
		}
		if first >= 0 {
			return t.Value - ts[first].Value
		}
		first = i
	}
	return 0
}

// tickLabel labels a tick at v, on an axis labelled every step, with
// format (three decimals at most); where the step is under a thousandth,
// with as many decimals as it needs, so that the ticks of a connection
// of a millisecond do not all read 0 and 0.001.
func tickLabel(v, step float64, format func(float64) string) string {
	if !(step > 0) || step >= 1e-3 {
		return format(v)
	}
	return trimDecimals(v, min(int(-math.Floor(math.Log10(step)))+1, 12))
}

// logTicks label the powers of ten of an axis of log10 values (and 2 and 5
// times them when it spans less than three decades), in units of div;
// plain ticks when that labels fewer than two.
type logTicks struct{ div float64 }

// maxLogDecades: a log axis of more decades labels every n-th of them,
// about this many.
const maxLogDecades = 10

// Ticks implements plot.Ticker.
func (t logTicks) Ticks(llo, lhi float64) []plot.Tick {
	lo, hi := math.Pow(10, llo), math.Pow(10, lhi)
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		return nil
	}
	few := math.Log10(hi/lo) < 3
	// Past maxLogDecades decades (--y-min 1e-308: 311 of them, each
	// labelled, smeared the axis black; found by a tester), every
	// every-th decade is labelled and ticked, and no other.
	every := 1.0
	if d := math.Ceil(math.Log10(hi)) - math.Floor(math.Log10(lo)); d > maxLogDecades {
		every = math.Ceil(d / maxLogDecades)
	}
	var ts []plot.Tick
	labelled := 0
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		if every > 1 && math.Mod(e, every) != 0 {
			continue
		}
		p := math.Pow(10, e)
		for m := 1.0; m <= 9; m++ {
			if every > 1 && m > 1 {
				break
			}
			v := m * p
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			tk := plot.Tick{Value: math.Log10(v)}
			if m == 1 || few && (m == 2 || m == 5) {
				tk.Label = strconv.FormatFloat(v/t.div, 'g', 4, 64)
				labelled++
			}
			ts = append(ts, tk)
		}
	}
	if labelled < 2 {
		ts = scaledTicks{n: 5, div: t.div}.Ticks(lo, hi)
		for i := range ts {
			ts[i].Value = math.Log10(ts[i].Value)
		}
		kept := ts[:0]
		for _, tk := range ts {
			if !math.IsInf(tk.Value, 0) && !math.IsNaN(tk.Value) {
				kept = append(kept, tk)
			}
		}
		ts = kept
	}
	return ts
}

// emptyNote says why a graph of kind has no point: an RTT graph lacks
// samples (an ACK of data sent once), which a direction with data but no
// ACK back has none of (chrissanders-packets__tcp_retransmissions' c2s:
// six data segments, no ACK; the note said it had no packets).
func emptyNote(kind analyze.GraphKind) string {
	if kind == analyze.GraphRTT {
		return "no RTT sample (an ACK of data sent once) in this connection direction and window"
	}
	return "nothing to draw in this connection direction and window"
}

// siTicks puts about n labelled ticks at round values (steps of 1, 2,
// 2.5 or 5 times a power of ten), with minor ticks between, and labels
// them with SI prefixes (1.5M, 250k).
type siTicks struct{ n int }

// Ticks implements plot.Ticker.
func (t siTicks) Ticks(lo, hi float64) []plot.Tick {
	n := max(t.n, 2)
	span := hi - lo
	if !(span > 0) || math.IsInf(span, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step, minors := 10*mag, 5
	for _, m := range []struct {
		f      float64
		minors int
	}{{1, 5}, {2, 4}, {2.5, 5}, {5, 5}} {
		if m.f*mag >= raw {
			step, minors = m.f*mag, m.minors
			break
		}
	}
	minor := step / float64(minors)
	if math.Abs(lo/minor) >= 1<<52 || math.Abs(hi/minor) >= 1<<52 {
		// Steps finer than the values' precision (a range of 10 µs at
		// three billion seconds): k++ would not move k, and the loop
		// below would never end. A tick at each end, in full.
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', -1, 64)}, {Value: hi, Label: strconv.FormatFloat(hi, 'g', -1, 64)}}
	}
	var ts []plot.Tick
	for k := math.Ceil(lo / minor); k*minor <= hi+minor*1e-9; k++ {
		v := k * minor
		if int64(k)%int64(minors) == 0 {
			ts = append(ts, plot.Tick{Value: v, Label: tickLabel(v, step, SI)})
		} else {
			ts = append(ts, plot.Tick{Value: v})
		}
	}
	return ts
}

// SI formats v with an SI prefix (k, M, G, T) and at most 4 significant
// digits.
func SI(v float64) string {
	a := math.Abs(v)
	prefixes := []struct {
		f float64
		s string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}}
	for _, p := range prefixes {
		if a >= p.f {
			return trimFloat(v/p.f) + p.s
		}
	}
	return trimFloat(v)
}

// trimFloat writes v with at most three decimals (trimDecimals).
func trimFloat(v float64) string { return trimDecimals(v, 3) }

// trimDecimals writes v with at most d decimals, trailing zeros dropped
// (and a negative zero as 0).
func trimDecimals(v float64, d int) string {
	s := strconv.FormatFloat(v, 'f', d, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

// legend is drawn above the plot, as rows of entries.
type legend struct {
	names    []string
	thumbs   []plot.Thumbnailer
	fontSize float64 // PlotOptions.FontSize
	wide     bool    // wider samples, for dash patterns (paper)
}

func (l *legend) add(name string, t plot.Thumbnailer) {
	l.names = append(l.names, name)
	l.thumbs = append(l.thumbs, t)
}

// draw draws the legend in rows centred on c, the first row's top at
// top, and returns the bottom of the last row.
func (l *legend) draw(c draw.Canvas, top vg.Length) vg.Length {
	if len(l.names) == 0 {
		return top
	}
	sty := plot.NewLegend().TextStyle
	sty.Font = font.From(plot.DefaultFont, vg.Length(9*fontScale(l.fontSize)))
	thumbW := vg.Points(16)
	if l.wide {
		thumbW = vg.Points(30)
	}
	em := sty.Rectangle(" ").Max.X
	lineH := sty.Rectangle("Xg").Size().Y * 1.3
	gap := 3 * em
	widths := make([]vg.Length, len(l.names))
	for i, n := range l.names {
		widths[i] = thumbW + em + sty.Width(n)
	}
	avail := c.Max.X - c.Min.X - 2*gap
	for i := 0; i < len(l.names); {
		// One row: as many entries as fit.
		j, w := i, vg.Length(0)
		for j < len(l.names) && (j == i || w+gap+widths[j] <= avail) {
			if j > i {
				w += gap
			}
			w += widths[j]
			j++
		}
		x := c.Center().X - w/2
		y := top - lineH
		for k := i; k < j; k++ {
			if t := l.thumbs[k]; t != nil {
				tc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
					Min: vg.Point{X: x, Y: y + lineH*0.15},
					Max: vg.Point{X: x + thumbW, Y: y + lineH*0.85},
				}}
				t.Thumbnail(&tc)
			}
			c.FillText(sty, vg.Point{X: x + thumbW + em, Y: y + lineH*0.25}, l.names[k])
			x += widths[k] + gap
		}
		top = y
		i = j
	}
	return top
}

// axisRange is the range a graph is drawn in, the pictures and the
// interactive page alike: the data, or the graph's zoom, padded; a time
// axis from the connection's start begins at 0; counts and rates at 0
// when it costs little. Pictures leave lone outliers out (drawing them on
// the edge); the page, which cannot, keeps every point (allPoints). any
// is false when the graph has no point.
func axisRange(g *analyze.Graph, logY, allPoints bool) (xmin, xmax, ymin, ymax float64, any bool) {
	xmin, xmax, ymin, ymax, any = dataRange(g)
	z := g.Zoom
	if any && !z.HasYMax && !allPoints {
		ymax = withoutOutliers(g, ymin, ymax)
	}
	if logY && any && !z.HasYMin {
		ymin = smallestPositive(g, ymax)
	}
	if z.HasXMin {
		xmin = z.XMin
	} else if any && g.X.Time && !g.X.Clock && xmin > 0 && xmin < xmax {
		xmin = 0 // a time axis from the connection's first packet starts at 0, labelled
	}
	if z.HasXMax {
		xmax = z.XMax
	}
	if z.HasYMin {
		ymin = z.YMin
	}
	if z.HasYMax {
		ymax = z.YMax
	}
	if !any && !z.HasXMin && !z.HasXMax {
		xmin, xmax = 0, 1
	}
	if !any && !z.HasYMin && !z.HasYMax {
		ymin, ymax = 0, 1
	}
	if any && xmin == xmax && g.X.Time && !g.X.Clock && xmin >= 0 && !z.HasXMin && !z.HasXMax {
		// One instant on a time axis from the connection's first packet:
		// from 0 to it (or a second), not half a second either side of
		// it, into negative time.
		xmin, xmax = 0, math.Max(xmax, 1)
	}
	single := any && ymin == ymax && ymin > 0 && g.Y.Unit != "" && !logY && !z.HasYMin && !z.HasYMax
	xmin, xmax = pad(xmin, xmax, 0.01, z.HasXMin, z.HasXMax)
	if logY {
		if !(ymin > 0) {
			ymin = 1
		}
		if !(ymax > ymin) {
			ymax = ymin * 10
		}
		lo, hi := pad(math.Log10(ymin), math.Log10(ymax), 0.03, z.HasYMin, z.HasYMax)
		ymin, ymax = math.Pow(10, lo), math.Pow(10, hi)
	} else {
		if single {
			ymin = 0 // one value of a quantity: from zero to it, not around it into negative values
		}
		ymin, ymax = pad(ymin, ymax, 0.03, z.HasYMin, z.HasYMax)
		if g.Y.Unit != "" && ymin > 0 && ymin < 0.1*ymax && !z.HasYMin {
			ymin = 0 // start counts and rates at zero when it costs little
		}
		if single {
			ymin = 0
		}
	}
	return xmin, xmax, ymin, ymax, any
}
