package charts

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tcpviz/analyze"
)

// seriesPlot is a gonum Plotter drawing one series, thinned to the pixels
// of the picture.
type seriesPlot struct {
	kind  analyze.SeriesKind
	style seriesStyle
	pts   []xyz
	// alpha, when set, is the opacity of each dot: more points in its
	// cell, more opaque (a dense cloud shows where most samples are).
	alpha []float64
	// chunk, when set, strokes lines in pieces of that many points (see
	// rasterChunk).
	chunk int
	// labels and dashed: Arrows' texts and line style; boxes where the
	// labels of every Arrows series of the picture were written.
	labels []string
	dashed bool
	boxes  *[]vg.Rectangle
	// The theme's: dashes and a marker repeated along a line (paper), a
	// line width asked for (0: the series' own), the text scale.
	dashes    []vg.Length
	marker    draw.GlyphDrawer
	width     vg.Length
	fontSize  float64
	lineIndex int // among the picture's lines
	// colorIndex is 1 + the palette colour of a labelled series (0: a
	// series of a fixed style).
	colorIndex int
}

// rasterChunk is how many points of a line a PNG strokes at once. The
// rasterizer keeps, for each pixel row, a list of the cells the path
// crosses and walks it for every new cell: a line zigzagging over the
// whole height in every column (a congestion window per round trip)
// costs rows × columns² and took 7 s at 1200×700. In pieces of a few
// dozen columns it costs a few ms. Each piece starts one point before the
// previous one ends, so that every corner is joined by one of them (the
// segment between is drawn twice: its antialiased edge a shade darker).
const rasterChunk = 128

// seriesXY adapts a series to plotter.XYer: x and y of each point as the
// graph defines them.
type seriesXY struct {
	g *analyze.Graph
	s *analyze.Series
}

func (a seriesXY) Len() int { return len(a.s.Points) }

func (a seriesXY) XY(i int) (x, y float64) { return pointXY(a.g, &a.s.Points[i]) }

// pointCount is the number of points in all of g's series (a graph Load
// packed counts once unpacked: analyze.Graph.Unpack).
func pointCount(g *analyze.Graph) int {
	n := 0
	for i := range g.Series {
		n += len(g.Series[i].Points)
	}
	return n
}

// pointXY returns the x and y values of point p of graph g, as its axes
// say: x the time in seconds from g.TimeOrigin, or V[g.XCol]; y V[g.YCol].
func pointXY(g *analyze.Graph, p *analyze.Point) (x, y float64) {
	if g.XCol < 0 {
		x = float64(p.Time-g.TimeOrigin) / 1e9
	} else {
		x = p.V[g.XCol]
	}
	return x, p.V[g.YCol]
}

// y2 is the far end of bar i.
func (a seriesXY) y2(i int) float64 { return a.s.Points[i].V[a.g.YCol+1] }

// dotCell and markCell are the cell sizes, in pixels, within which only one
// dot (or one mark of a series) is drawn.
const (
	dotCell  = 2
	markCell = 1
)

// newSeriesPlot thins series s to the pixels of pg; ty, if set, maps y
// values to the plotted ones (log10 on a log axis).
func newSeriesPlot(g *analyze.Graph, s *analyze.Series, pg pixelGrid, index int, ty func(float64) float64) *seriesPlot {
	xy := seriesXY{g, s}
	pts := make([]xyz, xy.Len())
	for i := range pts {
		x, y := xy.XY(i)
		pts[i] = xyz{x: x, y: y, y2: y}
		if s.Kind == analyze.Bars {
			pts[i].y2 = xy.y2(i)
		}
		if ty != nil {
			pts[i].y, pts[i].y2 = ty(pts[i].y), ty(pts[i].y2)
		}
	}
	if s.Palette > 0 {
		index = s.Palette - 1
	}
	sp := &seriesPlot{kind: s.Kind, style: styleOfSeries(g, s, index), labels: s.Labels, dashed: s.Dashed}
	if _, fixed := seriesStyles[s.Name]; !fixed {
		sp.colorIndex = index + 1 // a label's: its dashes in paper follow its colour
	}
	if s.Kind == analyze.Dots && sp.style.density {
		var counts []int
		sp.pts, counts = thinCellsCount(pts, pg, dotCell)
		sp.alpha = densityAlpha(counts)
		return sp
	}
	switch s.Kind {
	case analyze.Bars:
		pts = thinBars(pts, pg)
	case analyze.Steps, analyze.Lines:
		pts = thinLine(pts, pg)
	case analyze.Dots:
		pts = thinCells(pts, pg, dotCell)
	case analyze.Marks:
		pts = thinCells(pts, pg, markCell)
	case analyze.Spans:
		pts = thinSpans(pts, pg)
	}
	sp.pts = pts
	return sp
}

// minAlpha is the opacity of a dot alone in its cell, when some cell of
// its series holds at least denseCell points (below that, every dot is
// opaque).
const (
	minAlpha  = 0.35
	denseCell = 8
)

// densityAlpha maps the count of points in each dot's cell to an opacity,
// logarithmically from minAlpha (one point) to 1 (the densest cell); all
// opaque when no cell holds denseCell points.
func densityAlpha(counts []int) []float64 {
	most := 1
	for _, c := range counts {
		most = max(most, c)
	}
	if most < denseCell {
		return nil
	}
	out := make([]float64, len(counts))
	for i, c := range counts {
		out[i] = minAlpha + (1-minAlpha)*math.Log(float64(c))/math.Log(float64(most))
	}
	return out
}

func (sp *seriesPlot) lineStyle() draw.LineStyle {
	ls := draw.LineStyle{Color: sp.style.color, Width: vg.Points(float64(sp.style.width))}
	if sp.width > 0 && (sp.kind == analyze.Lines || sp.kind == analyze.Steps) {
		ls.Width = sp.width
	}
	if sp.dashed {
		ls.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	if sp.dashes != nil {
		ls.Dashes = sp.dashes
	}
	return ls
}

// markerEvery is the distance along a line between its markers (paper).
const markerEvery = 54

// markerStyle is the marker of a line (paper theme).
func (sp *seriesPlot) markerStyle() draw.GlyphStyle {
	return draw.GlyphStyle{Color: sp.style.color, Radius: vg.Points(2.6), Shape: sp.marker}
}

// plotMarkers puts the line's marker along it, every markerEvery points
// of its length (starting at an offset of its own, so that lines that
// run together keep their markers apart).
func (sp *seriesPlot) plotMarkers(c draw.Canvas, line []vg.Point, offset vg.Length) {
	gs := sp.markerStyle()
	next := offset
	var run vg.Length
	for i := 1; i < len(line); i++ {
		a, b := line[i-1], line[i]
		l := vg.Length(math.Hypot(float64(b.X-a.X), float64(b.Y-a.Y)))
		for l > 0 && run+l >= next {
			t := float64((next - run) / l)
			pt := vg.Point{X: a.X + vg.Length(t)*(b.X-a.X), Y: a.Y + vg.Length(t)*(b.Y-a.Y)}
			if c.Contains(pt) {
				c.DrawGlyph(gs, pt)
			}
			next += vg.Points(markerEvery)
		}
		run += l
	}
}

func (sp *seriesPlot) glyphStyle() draw.GlyphStyle {
	switch sp.kind {
	case analyze.Dots:
		return draw.GlyphStyle{Color: sp.style.color, Radius: vg.Points(float64(sp.style.width)), Shape: draw.CircleGlyph{}}
	}
	return draw.GlyphStyle{Color: sp.style.color, Radius: vg.Points(float64(sp.style.width)), Shape: sp.style.glyph}
}

// Plot implements plot.Plotter.
func (sp *seriesPlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	switch sp.kind {
	case analyze.Bars:
		sp.plotBars(c, trX, trY)
	case analyze.Arrows:
		sp.plotArrows(c, trX, trY)
	case analyze.Spans:
		sp.plotSpans(c, trX)
	case analyze.Steps, analyze.Lines:
		if len(sp.pts) == 1 {
			// One point draws no line: a dot shows it (a tput graph of a
			// single window's throughput drew nothing).
			q := sp.pts[0]
			c.DrawGlyph(draw.GlyphStyle{Color: sp.style.color, Radius: max(2*sp.lineStyle().Width, vg.Points(2)), Shape: draw.CircleGlyph{}}, vg.Point{X: trX(q.x), Y: trY(q.y)})
			return
		}
		line := make([]vg.Point, 0, 2*len(sp.pts))
		for i, q := range sp.pts {
			x, y := trX(q.x), trY(q.y)
			if sp.kind == analyze.Steps && i > 0 {
				line = append(line, vg.Point{X: x, Y: line[len(line)-1].Y})
			}
			line = append(line, vg.Point{X: x, Y: y})
		}
		step := len(line)
		if sp.chunk > 2 {
			step = sp.chunk
		}
		for i := 0; i < len(line); i += step - 2 {
			end := min(i+step, len(line))
			c.StrokeLines(sp.lineStyle(), c.ClipLinesXY(line[i:end])...)
			if end == len(line) {
				break
			}
		}
		if sp.marker != nil {
			sp.plotMarkers(c, line, vg.Points(10+7*float64(sp.lineIndex%6)))
		}
	default:
		gs := sp.glyphStyle()
		for i, q := range sp.pts {
			if sp.alpha != nil {
				cl := sp.style.color
				gs.Color = color.NRGBA{R: cl.R, G: cl.G, B: cl.B, A: uint8(math.Round(255 * sp.alpha[i]))}
			}
			c.DrawGlyph(gs, vg.Point{X: trX(q.x), Y: trY(q.y)})
		}
	}
}

// clipPlot marks, on the edge of the plot, the dots and marks whose y
// value lies beyond the y axis (a lone outlier left out of the automatic
// range, or points beyond --y-min/--y-max): never dropped silently.
type clipPlot struct {
	pts         []xyz // x, and y on the edge
	above       int   // points above the top (the others are below the bottom)
	n           int
	most, least float64 // the largest value above, the smallest below
}

func newClipPlot(g *analyze.Graph, pg pixelGrid, xmin, xmax, ymin, ymax float64, ty func(float64) float64) *clipPlot {
	top, bottom := ymax, ymin
	if ty != nil {
		top, bottom = ty(ymax), ty(ymin)
	}
	cp := &clipPlot{most: math.Inf(-1), least: math.Inf(1)}
	for i := range g.Series {
		s := &g.Series[i]
		if s.Kind != analyze.Dots && s.Kind != analyze.Marks {
			continue
		}
		for j := range s.Points {
			x, y := pointXY(g, &s.Points[j])
			if x < xmin || x > xmax || y >= ymin && y <= ymax || ty != nil && y <= 0 {
				continue
			}
			cp.n++
			if y > ymax {
				cp.above++
				cp.most = math.Max(cp.most, y)
				cp.pts = append(cp.pts, xyz{x: x, y: top})
			} else {
				cp.least = math.Min(cp.least, y)
				cp.pts = append(cp.pts, xyz{x: x, y: bottom})
			}
		}
	}
	if cp.n == 0 {
		return nil
	}
	cp.pts = thinCells(cp.pts, pg, markCell)
	return cp
}

// legend says how many points are on the edge, and how far beyond.
func (cp *clipPlot) legend(div float64, unit string) string {
	var parts []string
	if cp.above > 0 {
		parts = append(parts, fmt.Sprintf("%d above the y axis (up to %s %s)", cp.above, trimFloat(cp.most/div), unit))
	}
	if below := cp.n - cp.above; below > 0 {
		parts = append(parts, fmt.Sprintf("%d below it (down to %s %s)", below, trimFloat(cp.least/div), unit))
	}
	return strings.Join(parts, ", ") + ", drawn on the edge"
}

func (cp *clipPlot) glyph() draw.GlyphStyle {
	return draw.GlyphStyle{Color: black, Radius: vg.Points(3.5), Shape: draw.PyramidGlyph{}}
}

// Plot implements plot.Plotter.
func (cp *clipPlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	gs := cp.glyph()
	for _, q := range cp.pts {
		c.DrawGlyphNoClip(gs, vg.Point{X: trX(q.x), Y: trY(q.y)})
	}
}

// Thumbnail implements plot.Thumbnailer.
func (cp *clipPlot) Thumbnail(c *draw.Canvas) { c.DrawGlyphNoClip(cp.glyph(), c.Center()) }

// plotBars strokes all bars as one path. Bars shorter than a pixel are
// drawn one pixel long; when bars are few, each gets small end caps, as
// tcptrace draws them.
func (sp *seriesPlot) plotBars(c draw.Canvas, trX, trY func(float64) vg.Length) {
	const px = vg.Inch / dpi
	caps := len(sp.pts) > 0 && vg.Length(len(sp.pts))*6*px < c.Max.X-c.Min.X
	var path vg.Path
	for _, q := range sp.pts {
		x := trX(q.x)
		if !c.ContainsX(x) {
			continue
		}
		y0, y1 := trY(q.y), trY(q.y2)
		if y1 < c.Min.Y || y0 > c.Max.Y {
			continue
		}
		y0, y1 = max(y0, c.Min.Y), min(y1, c.Max.Y)
		if y1-y0 < px {
			y1 = y0 + px
		}
		path.Move(vg.Point{X: x, Y: y0})
		path.Line(vg.Point{X: x, Y: y1})
		if caps {
			path.Move(vg.Point{X: x - 2*px, Y: y0})
			path.Line(vg.Point{X: x + 2*px, Y: y0})
			path.Move(vg.Point{X: x - 2*px, Y: y1})
			path.Line(vg.Point{X: x + 2*px, Y: y1})
		}
	}
	if len(path) == 0 {
		return
	}
	c.SetLineStyle(sp.lineStyle())
	c.Stroke(path)
}

// plotArrows draws an arrow from each even point to the next, its label
// above its middle.
func (sp *seriesPlot) plotArrows(c draw.Canvas, trX, trY func(float64) vg.Length) {
	ls := sp.lineStyle()
	solid := draw.LineStyle{Color: ls.Color, Width: ls.Width}
	head := vg.Points(5)
	ts := plot.NewLegend().TextStyle
	ts.Font = font.From(plot.DefaultFont, vg.Length(8*fontScale(sp.fontSize)))
	ts.Color, ts.XAlign, ts.YAlign = color.Gray{Y: 40}, draw.XCenter, draw.YBottom
	lineH := ts.Rectangle("Xg").Size().Y
	labelled := sp.boxes
	if labelled == nil {
		labelled = new([]vg.Rectangle)
	}
	for i := 0; i+1 < len(sp.pts); i += 2 {
		a := vg.Point{X: trX(sp.pts[i].x), Y: trY(sp.pts[i].y)}
		b := vg.Point{X: trX(sp.pts[i+1].x), Y: trY(sp.pts[i+1].y)}
		c.StrokeLines(ls, c.ClipLinesXY([]vg.Point{a, b})...)
		if dx, dy := float64(b.X-a.X), float64(b.Y-a.Y); (dx != 0 || dy != 0) && c.Contains(b) {
			l := math.Hypot(dx, dy)
			ux, uy := dx/l, dy/l
			for _, side := range []float64{1, -1} {
				// The head's two strokes, 25 degrees off the line.
				cs, sn := math.Cos(25*math.Pi/180), side*math.Sin(25*math.Pi/180)
				hx, hy := -(ux*cs - uy*sn), -(uy*cs + ux*sn)
				c.StrokeLine2(solid, b.X, b.Y, b.X+vg.Length(hx)*head, b.Y+vg.Length(hy)*head)
			}
		}
		if k := i / 2; k < len(sp.labels) && sp.labels[k] != "" {
			mid := vg.Point{X: (a.X + b.X) / 2, Y: (a.Y+b.Y)/2 + vg.Points(1)}
			// In a burst, the first of the arrows whose labels would
			// overwrite each other is labelled.
			w := ts.Width(sp.labels[k])
			box := vg.Rectangle{Min: vg.Point{X: mid.X - w/2, Y: mid.Y}, Max: vg.Point{X: mid.X + w/2, Y: mid.Y + lineH}}
			free := c.Contains(mid)
			for _, r := range *labelled {
				if free && box.Min.X < r.Max.X && r.Min.X < box.Max.X && box.Min.Y < r.Max.Y && r.Min.Y < box.Max.Y {
					free = false
				}
			}
			if free {
				// On a white ground: legible over the lines it crosses.
				c.FillPolygon(color.White, c.ClipPolygonXY([]vg.Point{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}}))
				c.FillText(ts, mid, sp.labels[k])
				*labelled = append(*labelled, box)
			}
		}
	}
}

// spanLane is the height of a lane of bands, a share of the plot's
// height, at least spanLaneMin.
const (
	spanLane    = 0.025
	spanLaneMin = 4
)

// plotSpans fills each band from an even point's x to the next's, in
// the series' lane along the plot's foot, at least half a point wide.
func (sp *seriesPlot) plotSpans(c draw.Canvas, trX func(float64) vg.Length) {
	h := max(vg.Length(spanLane)*(c.Max.Y-c.Min.Y), vg.Points(spanLaneMin))
	y0 := c.Min.Y + vg.Length(sp.style.lane)*h
	for i := 0; i+1 < len(sp.pts); i += 2 {
		x0, x1 := trX(sp.pts[i].x), trX(sp.pts[i+1].x)
		if x1 < x0+vg.Points(0.5) {
			x1 = x0 + vg.Points(0.5)
		}
		x0, x1 = max(x0, c.Min.X), min(x1, c.Max.X)
		if x1 <= x0 {
			continue
		}
		c.FillPolygon(sp.style.color, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y0 + h}, {X: x0, Y: y0 + h}})
	}
}

// Thumbnail implements plot.Thumbnailer, for the legend.
func (sp *seriesPlot) Thumbnail(c *draw.Canvas) {
	mid := c.Center()
	switch sp.kind {
	case analyze.Spans:
		h := (c.Max.Y - c.Min.Y) / 3
		c.FillPolygon(sp.style.color, []vg.Point{{X: c.Min.X, Y: mid.Y - h}, {X: c.Max.X, Y: mid.Y - h}, {X: c.Max.X, Y: mid.Y + h}, {X: c.Min.X, Y: mid.Y + h}})
		return
	case analyze.Arrows:
		ls := sp.lineStyle()
		ls.Width = max(ls.Width, vg.Points(1.5))
		c.StrokeLine2(ls, c.Min.X, mid.Y, c.Max.X, mid.Y)
		return
	case analyze.Bars:
		ls := sp.lineStyle()
		ls.Width = max(ls.Width, vg.Points(1.5))
		c.StrokeLine2(ls, mid.X, c.Min.Y, mid.X, c.Max.Y)
	case analyze.Steps, analyze.Lines:
		ls := sp.lineStyle()
		ls.Width = max(ls.Width, vg.Points(1.5))
		c.StrokeLine2(ls, c.Min.X, mid.Y, c.Max.X, mid.Y)
		if sp.marker != nil {
			c.DrawGlyphNoClip(sp.markerStyle(), mid)
		}
	default:
		gs := sp.glyphStyle()
		if sp.kind == analyze.Dots {
			gs.Radius = vg.Points(2.5)
		}
		c.DrawGlyphNoClip(gs, mid)
	}
}
