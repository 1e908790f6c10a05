package charts

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot/vg/draw"

	"tcpviz/analyze"
)

// PagePointsPerPixel is how many points of one series the interactive
// report embeds per pixel column of its plot, at most: enough to zoom in
// a few times before the thinning shows. Marks (rare events) are never
// thinned.
const PagePointsPerPixel = 4

// appendGraphJSON appends the JSON the report's page draws g from: the
// axes, the range of the whole graph and every series thinned for a plot
// of w×h pixels. Frames and times (ns from g.TimeOrigin) are
// delta-encoded; strings are escaped for HTML (no "<", ">" or "&"). r is
// g's allPointsRange.
func appendGraphJSON(b []byte, g *analyze.Graph, caption, image string, w, h int, r pointsRange) []byte {
	xmin, xmax, ymin, ymax := r.xmin, r.xmax, r.ymin, r.ymax
	b = append(b, `{"title":`...)
	b = appendJSONString(b, caption)
	b = append(b, `,"image":`...)
	b = appendJSONString(b, image)
	b = append(b, `,"x":`...)
	b = appendAxisJSON(b, g.X)
	b = append(b, `,"y":`...)
	b = appendAxisJSON(b, g.Y)
	b = append(b, `,"cols":[`...)
	for k, c := range g.Columns {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, c)
	}
	b = append(b, `],"xcol":`...)
	b = strconv.AppendInt(b, int64(g.XCol), 10)
	b = append(b, `,"ycol":`...)
	b = strconv.AppendInt(b, int64(g.YCol), 10)
	b = append(b, `,"range":[`...)
	for k, v := range []float64{xmin, xmax, ymin, ymax} {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendNum(b, v)
	}
	b = append(b, `],"notes":[`...)
	for k, n := range g.Notes {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, WarningText(n))
	}
	b = append(b, `],"series":[`...)
	colors := colorIndexes(g)
	for i := range g.Series {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendSeriesJSON(b, g, &g.Series[i], colors[i], xmin, xmax, ymin, ymax, w, h)
	}
	return append(b, "]}"...)
}

func appendAxisJSON(b []byte, a analyze.Axis) []byte {
	b = append(b, `{"label":`...)
	b = appendJSONString(b, a.Label)
	b = append(b, `,"unit":`...)
	b = appendJSONString(b, a.Unit)
	b = append(b, `,"time":`...)
	b = strconv.AppendBool(b, a.Time)
	return append(b, '}')
}

func appendSeriesJSON(b []byte, g *analyze.Graph, s *analyze.Series, index int, xmin, xmax, ymin, ymax float64, w, h int) []byte {
	st := styleOfSeries(g, s, index)
	pts := pagePoints(g, s, xmin, xmax, ymin, ymax, w, h)
	b = append(b, `{"name":`...)
	b = appendJSONString(b, s.Name)
	b = append(b, `,"legend":`...)
	b = appendJSONString(b, st.legend)
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, kindName(s.Kind))
	b = append(b, `,"color":`...)
	b = appendJSONString(b, fmt.Sprintf("#%02x%02x%02x", st.color.R, st.color.G, st.color.B))
	b = append(b, `,"width":`...)
	b = appendNum(b, float64(st.width))
	b = append(b, `,"glyph":`...)
	b = appendJSONString(b, glyphName(st.glyph))
	if s.Kind == analyze.Spans {
		b = append(b, `,"lane":`...)
		b = strconv.AppendInt(b, int64(st.lane), 10)
	}
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(max(len(s.Points), s.Unthinned)), 10)
	n := valueCount(g, s)
	b = append(b, `,"n":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	// Frames and times, delta-encoded.
	b = append(b, `,"f":[`...)
	var prev int64
	for k, p := range pts {
		if k > 0 {
			b = append(b, ',')
		}
		f := s.Points[p.i].Frame
		b = strconv.AppendInt(b, f-prev, 10)
		prev = f
	}
	b = append(b, `],"t":[`...)
	prev = 0
	for k, p := range pts {
		if k > 0 {
			b = append(b, ',')
		}
		t := s.Points[p.i].Time - g.TimeOrigin
		b = strconv.AppendInt(b, t-prev, 10)
		prev = t
	}
	b = append(b, `],"v":[`...)
	for c := 0; c < n; c++ {
		if c > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for k, p := range pts {
			if k > 0 {
				b = append(b, ',')
			}
			v := s.Points[p.i].V[c]
			if s.Kind == analyze.Bars && c == g.YCol+1 {
				v = p.y2 // the far end of merged bars
			}
			b = appendNum(b, v)
		}
		b = append(b, ']')
	}
	return append(b, "]}"...)
}

// pagePoints thins the points of s for a plot of w×h pixels showing
// [xmin, xmax]×[ymin, ymax]: at most PagePointsPerPixel×w points, at the
// finest resolution (up to 4× the plot's) that fits, with the same
// per-pixel rules as the pictures (bars merged, lines' extremes kept, one
// dot per cell). Marks and series within the budget are kept whole. The
// index of each point in s is in xyz.i.
func pagePoints(g *analyze.Graph, s *analyze.Series, xmin, xmax, ymin, ymax float64, w, h int) []xyz {
	pts := make([]xyz, len(s.Points))
	for i := range s.Points {
		x, y := pointXY(g, &s.Points[i])
		pts[i] = xyz{x: x, y: y, y2: y, i: i}
		if s.Kind == analyze.Bars {
			pts[i].y2 = s.Points[i].V[g.YCol+1]
		}
	}
	budget := PagePointsPerPixel * w
	if s.Kind == analyze.Spans { // bands a pixel apart merged, at the finest resolution
		return thinSpans(pts, newPixelGrid(xmin, xmax, ymin, ymax, 4*w, h))
	}
	if s.Kind == analyze.Marks || len(pts) <= budget {
		return pts
	}
	// Each coarser grid's cells are unions of the finer one's, so thinning
	// what the finer grid kept gives (nearly) what thinning everything would.
	for k := 4.0; ; k /= 2 {
		cols, rows := max(int(k*float64(w)), 1), max(int(k*float64(h)), 1)
		pg := newPixelGrid(xmin, xmax, ymin, ymax, cols, rows)
		switch s.Kind {
		case analyze.Bars:
			pts = thinBars(pts, pg)
		case analyze.Steps, analyze.Lines:
			pts = thinLine(pts, pg)
		default:
			pts = thinCells(pts, pg, 1)
		}
		if len(pts) <= budget || cols == 1 && rows == 1 {
			return pts
		}
	}
}

func kindName(k analyze.SeriesKind) string {
	switch k {
	case analyze.Bars:
		return "bars"
	case analyze.Steps:
		return "steps"
	case analyze.Lines:
		return "lines"
	case analyze.Dots:
		return "dots"
	case analyze.Spans:
		return "spans"
	}
	return "marks"
}

func glyphName(gd draw.GlyphDrawer) string {
	switch gd.(type) {
	case draw.RingGlyph:
		return "ring"
	case tickGlyph:
		return "tick"
	case draw.BoxGlyph: // filled
		return "box"
	case draw.SquareGlyph: // hollow
		return "square"
	case draw.TriangleGlyph: // hollow
		return "triangle"
	case draw.PyramidGlyph: // filled
		return "pyramid"
	case draw.CrossGlyph:
		return "cross"
	case draw.PlusGlyph:
		return "plus"
	case diamondGlyph:
		return "diamond"
	}
	return "circle"
}

// appendNum appends v as a JSON number: integers exactly, other values
// with 7 significant digits (finer than any zoom of the page shows).
func appendNum(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, '0')
	}
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'g', 7, 64)
}

// appendJSONString appends s as a JSON string, with <, > and & escaped
// (encoding/json's default), so that it is safe inside a <script>.
func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}
