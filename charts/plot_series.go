package charts

import (
	"gonum.org/v1/plot"
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
}

// seriesXY adapts a series to plotter.XYer: x and y of each point as the
// graph defines them.
type seriesXY struct {
	g *analyze.Graph
	s *analyze.Series
}

func (a seriesXY) Len() int { return len(a.s.Points) }

func (a seriesXY) XY(i int) (x, y float64) { return a.g.XY(&a.s.Points[i]) }

// y2 is the far end of bar i.
func (a seriesXY) y2(i int) float64 { return a.s.Points[i].V[a.g.YCol+1] }

// dotCell and markCell are the cell sizes, in pixels, within which only one
// dot (or one mark of a series) is drawn.
const (
	dotCell  = 2
	markCell = 1
)

func newSeriesPlot(g *analyze.Graph, s *analyze.Series, pg pixelGrid, index int) *seriesPlot {
	xy := seriesXY{g, s}
	pts := make([]xyz, xy.Len())
	for i := range pts {
		x, y := xy.XY(i)
		pts[i] = xyz{x: x, y: y, y2: y}
		if s.Kind == analyze.Bars {
			pts[i].y2 = xy.y2(i)
		}
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
	}
	return &seriesPlot{kind: s.Kind, style: styleOf(s.Name, index), pts: pts}
}

func (sp *seriesPlot) lineStyle() draw.LineStyle {
	return draw.LineStyle{Color: sp.style.color, Width: vg.Points(float64(sp.style.width))}
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
	case analyze.Steps, analyze.Lines:
		line := make([]vg.Point, 0, 2*len(sp.pts))
		for i, q := range sp.pts {
			x, y := trX(q.x), trY(q.y)
			if sp.kind == analyze.Steps && i > 0 {
				line = append(line, vg.Point{X: x, Y: line[len(line)-1].Y})
			}
			line = append(line, vg.Point{X: x, Y: y})
		}
		if len(line) > 0 {
			c.StrokeLines(sp.lineStyle(), c.ClipLinesXY(line)...)
		}
	default:
		gs := sp.glyphStyle()
		for _, q := range sp.pts {
			c.DrawGlyph(gs, vg.Point{X: trX(q.x), Y: trY(q.y)})
		}
	}
}

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

// Thumbnail implements plot.Thumbnailer, for the legend.
func (sp *seriesPlot) Thumbnail(c *draw.Canvas) {
	mid := c.Center()
	switch sp.kind {
	case analyze.Bars:
		ls := sp.lineStyle()
		ls.Width = max(ls.Width, vg.Points(1.5))
		c.StrokeLine2(ls, mid.X, c.Min.Y, mid.X, c.Max.Y)
	case analyze.Steps, analyze.Lines:
		ls := sp.lineStyle()
		ls.Width = max(ls.Width, vg.Points(1.5))
		c.StrokeLine2(ls, c.Min.X, mid.Y, c.Max.X, mid.Y)
	default:
		gs := sp.glyphStyle()
		if sp.kind == analyze.Dots {
			gs.Radius = vg.Points(2.5)
		}
		c.DrawGlyphNoClip(gs, mid)
	}
}
