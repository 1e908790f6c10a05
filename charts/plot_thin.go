package charts

import (
	"math"
	"sort"
)

// xyz is one point ready to draw, in data units: x, y, and for bars the
// other end y2; i is free for the caller (the page keeps the index of the
// point in its series there).
type xyz struct {
	x, y, y2 float64
	i        int
}

// pixelGrid maps data units to pixel columns and rows of the plot area.
type pixelGrid struct {
	x0, y0     float64 // data value at column 0 and row 0
	sx, sy     float64 // pixels per data unit
	cols, rows int
}

func newPixelGrid(xmin, xmax, ymin, ymax float64, cols, rows int) pixelGrid {
	g := pixelGrid{x0: xmin, y0: ymin, cols: cols, rows: rows}
	if xmax > xmin {
		g.sx = float64(cols) / (xmax - xmin)
	}
	if ymax > ymin {
		g.sy = float64(rows) / (ymax - ymin)
	}
	return g
}

// col returns the pixel column of x (clamped far outside the area, so
// that points outside it still group together).
func (g pixelGrid) col(x float64) int64 { return clampPixel((x - g.x0) * g.sx) }
func (g pixelGrid) row(y float64) int64 { return clampPixel((y - g.y0) * g.sy) }

func clampPixel(v float64) int64 {
	const lim = 1 << 40
	switch {
	case v < -lim:
		return -lim
	case v > lim:
		return lim
	}
	i := int64(v) // toward zero: math.Floor's for |v| ≤ 2^40, without its call
	if float64(i) > v {
		i--
	}
	return i
}

// thinLine keeps, of each run of points in one pixel column, the first,
// the lowest, the highest and the last, in their order: a line or step
// line through them covers the same pixels as through all points.
func thinLine(pts []xyz, g pixelGrid) []xyz {
	if len(pts) <= 4 {
		return pts
	}
	out := make([]xyz, 0, min(len(pts), 4*g.cols+8))
	for i := 0; i < len(pts); {
		c := g.col(pts[i].x)
		j, lo, hi := i, i, i
		for j < len(pts) && g.col(pts[j].x) == c {
			if pts[j].y < pts[lo].y {
				lo = j
			}
			if pts[j].y > pts[hi].y {
				hi = j
			}
			j++
		}
		last := j - 1
		keep := [4]int{i, lo, hi, last}
		sort.Ints(keep[:])
		prev := -1
		for _, k := range keep {
			if k != prev {
				out = append(out, pts[k])
				prev = k
			}
		}
		i = j
	}
	return out
}

// thinBars merges, within each run of bars in one pixel column, bars whose
// pixel rows touch or overlap: the merged bars cover exactly the pixels
// the originals covered.
func thinBars(pts []xyz, g pixelGrid) []xyz {
	if len(pts) <= 2 {
		return pts
	}
	out := make([]xyz, 0, 64)
	var run []xyz
	for i := 0; i < len(pts); {
		c := g.col(pts[i].x)
		j := i
		for j < len(pts) && g.col(pts[j].x) == c {
			j++
		}
		run = append(run[:0], pts[i:j]...)
		sort.Slice(run, func(a, b int) bool { return run[a].y < run[b].y })
		cur := run[0]
		for _, b := range run[1:] {
			if g.row(b.y) <= g.row(cur.y2)+1 {
				cur.y2 = math.Max(cur.y2, b.y2)
				continue
			}
			out = append(out, cur)
			cur = b
		}
		out = append(out, cur)
		i = j
	}
	return out
}

// thinCells keeps the first point of each cell of size×size pixels.
func thinCells(pts []xyz, g pixelGrid, size int64) []xyz {
	out, _ := thinCellsBy(pts, g, size, false)
	return out
}

// thinCellsCount is thinCells, also counting the points of each kept
// point's cell.
func thinCellsCount(pts []xyz, g pixelGrid, size int64) ([]xyz, []int) {
	return thinCellsBy(pts, g, size, true)
}

// denseCells is the most cells of the area thinCellsBy marks in a table
// of its own (a bit each, or an index each when it counts): 8 MB.
const denseCells = 1 << 26

// thinCellsBy is thinCells, with the counts when count is set. The cells
// of the area (and one more column and row: x == xmax is column cols) are
// marked in a bitmap, or an index table when counting, where the points
// are many enough to pay for it; the others (points outside the area, or
// every point of a few) are looked up in a map. Either way the first
// point of each cell is kept, in order.
func thinCellsBy(pts []xyz, g pixelGrid, size int64, count bool) ([]xyz, []int) {
	if len(pts) <= 1 {
		return pts, []int{len(pts)}[:len(pts)]
	}
	nc, nr := int64(g.cols)/size+1, int64(g.rows)/size+1
	var bits []uint64
	var index []int32 // 1 + the index in out of the cell's point, 0: none yet
	cells := int64(-1)
	if nc > 0 && nr > 0 && nc <= denseCells && nr <= denseCells { // no overflow
		cells = nc * nr
	}
	switch {
	case cells < 0:
		nc, nr = 0, 0 // no table: every cell in the maps
	case count && cells <= denseCells/32 && cells <= 4*int64(len(pts)):
		index = make([]int32, cells)
	case !count && cells <= denseCells && cells/64 <= 4*int64(len(pts)):
		bits = make([]uint64, (cells+63)/64)
	default:
		nc, nr = 0, 0
	}
	// A cell is a column and a row; both within 2^31 (all but points
	// clamped far outside the area), they make one int64 key, which a
	// map looks up faster than a pair.
	type cell struct{ c, r int64 }
	var seen map[int64]int
	var far map[cell]int
	out := make([]xyz, 0, min(len(pts), 1<<16))
	var counts []int
	for _, p := range pts {
		c, r := g.col(p.x), g.row(p.y)
		if size != 1 {
			c, r = floorDiv(c, size), floorDiv(r, size)
		}
		switch {
		case uint64(c) < uint64(nc) && uint64(r) < uint64(nr):
			k := c*nr + r
			if index != nil {
				if i := index[k]; i != 0 {
					counts[i-1]++
					continue
				}
				index[k] = int32(len(out) + 1)
			} else {
				if bits[k/64]&(1<<(k%64)) != 0 {
					continue
				}
				bits[k/64] |= 1 << (k % 64)
			}
		case c == int64(int32(c)) && r == int64(int32(r)):
			if seen == nil {
				seen = make(map[int64]int, min(len(pts), 1<<16))
			}
			k := c<<32 | int64(uint32(r))
			if i, ok := seen[k]; ok {
				if count {
					counts[i]++
				}
				continue
			}
			seen[k] = len(out)
		default:
			if far == nil {
				far = map[cell]int{}
			}
			k := cell{c, r}
			if i, ok := far[k]; ok {
				if count {
					counts[i]++
				}
				continue
			}
			far[k] = len(out)
		}
		out = append(out, p)
		if count {
			counts = append(counts, 1)
		}
	}
	return out, counts
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// thinSpans merges the bands of a Spans series (each even point to the
// next) that the gap between falls within one pixel column of g: a band
// per pixel at most, each band's extent kept.
func thinSpans(pts []xyz, g pixelGrid) []xyz {
	if len(pts) <= 2 {
		return pts
	}
	out := make([]xyz, 0, 64)
	for i := 0; i+1 < len(pts); i += 2 {
		if n := len(out); n > 0 && g.col(pts[i].x) <= g.col(out[n-1].x) {
			out[n-1] = pts[i+1] // within the last band's end pixel: one band
			continue
		}
		out = append(out, pts[i], pts[i+1])
	}
	return out
}
