package charts

import (
	"math/rand"
	"slices"
	"testing"
)

// BenchmarkThinCellsCount thins a dense series of 400,000 points on the
// grid of the report's finest pass (4000×2400 cells of one pixel, not
// counting), and on a picture's (1200×700 pixels in cells of two,
// counting).
func BenchmarkThinCellsCount(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	pts := make([]xyz, 400000)
	y := 0.0
	for i := range pts {
		y += rng.Float64()
		pts[i] = xyz{x: float64(i), y: y + rng.Float64()*1000}
	}
	b.Run("page", func(b *testing.B) {
		g := newPixelGrid(0, 400000, 0, y+1000, 4000, 2400)
		b.ReportAllocs()
		for range b.N {
			thinCells(pts, g, 1)
		}
	})
	b.Run("picture", func(b *testing.B) {
		g := newPixelGrid(0, 400000, 0, y+1000, 1200, 700)
		b.ReportAllocs()
		for range b.N {
			thinCellsCount(pts, g, dotCell)
		}
	})
}

// TestThinCellsCountSameAsPairs: keying cells by one int64, or marking
// those of the area in a table (a bitmap without counts), keeps and
// counts the same points as keying them by (column, row), also for points
// far outside the area (clamped beyond 2^31 pixels) and negative ones,
// and on grids too fine for a table of their cells to pay or to be made.
func TestThinCellsCountSameAsPairs(t *testing.T) {
	for _, g := range []pixelGrid{newPixelGrid(0, 100, 0, 100, 50, 40), newPixelGrid(0, 100, 0, 100, 5000, 4000),
		newPixelGrid(0, 100, 0, 100, 1<<40, 1<<40)} {
		testThinCellsSameAsPairs(t, g)
	}
}

func testThinCellsSameAsPairs(t *testing.T, g pixelGrid) {
	rng := rand.New(rand.NewSource(2))
	var pts []xyz
	for range 20000 {
		p := xyz{x: rng.Float64()*120 - 10, y: rng.Float64()*120 - 10}
		switch rng.Intn(20) {
		case 0:
			p.x *= 1e12 // clamped: 2^40 pixels
		case 1:
			p.y = -p.y * 1e12
		}
		pts = append(pts, p)
	}
	for _, size := range []int64{1, 3} {
		type cell struct{ c, r int64 }
		seen := map[cell]int{}
		var want []xyz
		var wantCounts []int
		for _, p := range pts {
			k := cell{floorDiv(g.col(p.x), size), floorDiv(g.row(p.y), size)}
			if i, ok := seen[k]; ok {
				wantCounts[i]++
				continue
			}
			seen[k] = len(want)
			want = append(want, p)
			wantCounts = append(wantCounts, 1)
		}
		got, counts := thinCellsCount(pts, g, size)
		if !slices.Equal(got, want) || !slices.Equal(counts, wantCounts) {
			t.Fatalf("%d columns, size %d: %d points kept, want %d", g.cols, size, len(got), len(want))
		}
		if got := thinCells(pts, g, size); !slices.Equal(got, want) {
			t.Fatalf("%d columns, size %d, not counting: %d points kept, want %d", g.cols, size, len(got), len(want))
		}
		if len(want) < 100 {
			t.Fatalf("size %d: only %d cells", size, len(want))
		}
	}
}
