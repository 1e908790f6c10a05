package analyze

import (
	"cmp"
	"slices"
)

// thinning lets a graph drawn for a picture keep, of a long series, only
// what the picture can show, so that its memory follows the picture's
// size, not the connection's length: time is cut into Cols columns from
// From to To (ns since the epoch; a picture's pixel columns, a few times
// over), and once a series holds thinAfter points, each column keeps of
// a line its first, lowest, highest and last points (a line through them
// covers the pixels the whole line covers), of bars their union (bars
// that overlap or touch become one), and of dots and marks one per value.
// The renderers thin again on their pixels, so the picture is the same.
// Zero Cols keeps every point (the points exports).
type thinning struct {
	From, To int64
	Cols     int
	// pack, without Cols, keeps every point of long series packed
	// (LoadOptions.Pack).
	pack bool
}

// thinAfter is how many points a series holds before it is thinned: the
// graphs of short connections keep every point.
const thinAfter = 1 << 16

// maxPerColumn bounds the bars, dots or marks one column keeps (values
// beyond it, in a column already that full, are not drawn apart anyway).
const maxPerColumn = 256

// col is the column of time t: -1 before From, Cols after To.
func (t *thinning) col(time int64) int {
	switch {
	case time < t.From:
		return -1
	case time > t.To || t.To <= t.From:
		return t.Cols
	}
	return min(int(float64(time-t.From)/float64(t.To-t.From)*float64(t.Cols)), t.Cols-1)
}

// thinSeries is a series being thinned: its points by column (index 0 is
// the column before From).
type thinSeries struct {
	cols [][]thinPoint
	n    int64 // points added, for their order
	// The points that set the axes are kept as they are: the earliest,
	// the latest and the highest few (a lone outlier is judged against
	// the next highest).
	first, last thinPoint
	top         []thinPoint // highest first
}

// keptTops is how many of the highest points a thinned series keeps.
const keptTops = 4

// thinPoint is a point kept, with its order of arrival.
type thinPoint struct {
	p   Point
	ord int64
}

// add puts p, of a series of kind k whose y is V[y], in its column.
func (ts *thinSeries) add(t *thinning, k SeriesKind, y int, p Point) {
	ts.n++
	c := &ts.cols[t.col(p.Time)+1]
	tp := thinPoint{p, ts.n}
	if ts.n == 1 || p.Time < ts.first.p.Time {
		ts.first = tp
	}
	if ts.n == 1 || p.Time > ts.last.p.Time {
		ts.last = tp
	}
	if top := topOf(k, y, p); len(ts.top) < keptTops || top > topOf(k, y, ts.top[len(ts.top)-1].p) {
		i := 0
		for i < len(ts.top) && topOf(k, y, ts.top[i].p) >= top {
			i++
		}
		ts.top = slices.Insert(ts.top, i, tp)
		ts.top = ts.top[:min(len(ts.top), keptTops)]
	}
	switch k {
	case Steps, Lines:
		// first, lowest, highest, last (in order of arrival)
		if len(*c) < 4 {
			*c = append(*c, tp)
			return
		}
		// The former last joins the middle ones: of the three, keep the
		// lowest and the highest.
		pts := *c
		mid := [3]thinPoint{pts[1], pts[2], pts[3]}
		lo, hi := 0, 0
		for i := range mid {
			if mid[i].p.V[y] < mid[lo].p.V[y] {
				lo = i
			}
			if mid[i].p.V[y] > mid[hi].p.V[y] {
				hi = i
			}
		}
		if lo == hi { // all equal
			hi = (lo + 1) % 3
		}
		a, b := mid[lo], mid[hi]
		if a.ord > b.ord {
			a, b = b, a
		}
		pts[1], pts[2], pts[3] = a, b, tp
	case Bars:
		lo, hi := p.V[y], p.V[y+1]
		pts := *c
		// The bars kept are disjoint, ordered by their bottom.
		i := 0
		for i < len(pts) && pts[i].p.V[y+1] < lo {
			i++
		}
		j := i
		for j < len(pts) && pts[j].p.V[y] <= hi {
			lo, hi = min(lo, pts[j].p.V[y]), max(hi, pts[j].p.V[y+1])
			j++
		}
		if j > i {
			// Merged into the first bar it meets, which keeps its frame.
			m := pts[i]
			m.p.V[y], m.p.V[y+1] = lo, hi
			*c = slices.Replace(pts, i, j, m)
			return
		}
		if len(pts) >= maxPerColumn {
			return
		}
		*c = slices.Insert(pts, i, tp)
	default:
		for _, q := range *c {
			if q.p.V[y] == p.V[y] {
				return
			}
		}
		if len(*c) < maxPerColumn {
			*c = append(*c, tp)
		}
	}
}

// topOf is the highest value of point p of a series of kind k.
func topOf(k SeriesKind, y int, p Point) float64 {
	if k == Bars {
		return max(p.V[y], p.V[y+1])
	}
	return p.V[y]
}

// points returns the points kept, column by column (in each, lines and
// dots in order of arrival, bars from the bottom, the points that set the
// axes after them).
func (ts *thinSeries) points(t *thinning, k SeriesKind) []Point {
	in := map[int64]bool{}
	for _, c := range ts.cols {
		for _, q := range c {
			in[q.ord] = true
		}
	}
	for _, q := range append([]thinPoint{ts.first, ts.last}, ts.top...) {
		if !in[q.ord] {
			in[q.ord] = true
			c := &ts.cols[t.col(q.p.Time)+1]
			*c = append(*c, q)
		}
	}
	var out []Point
	for _, c := range ts.cols {
		if k != Bars {
			slices.SortFunc(c, func(a, b thinPoint) int { return cmp.Compare(a.ord, b.ord) })
		}
		for _, q := range c {
			out = append(out, q.p)
		}
	}
	return out
}
