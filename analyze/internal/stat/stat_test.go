package stat

import "testing"

func TestMedianAndQuantile(t *testing.T) {
	if m, ok := Median([]int64{5, 1, 3}); !ok || m != 3 {
		t.Errorf("median of 5 1 3 = %d %v, want 3", m, ok)
	}
	if m, ok := Median([]int64{4, 1, 3, 2}); !ok || m != 2 {
		t.Errorf("median of 4 1 3 2 = %d %v, want (2+3)/2 = 2", m, ok)
	}
	if _, ok := Median(nil); ok {
		t.Error("median of nothing said ok")
	}
	v := make([]int64, 100)
	for i := range v {
		v[i] = int64(i + 1)
	}
	for _, c := range []struct {
		q    float64
		want int64
	}{{0, 1}, {0.5, 50}, {0.95, 95}, {0.951, 96}, {1, 100}} {
		if got := Quantile(v, c.q); got != c.want {
			t.Errorf("quantile %v of 1..100 = %d, want %d", c.q, got, c.want)
		}
	}
	if Quantile(nil, 0.5) != 0 {
		t.Error("quantile of nothing is not 0")
	}
}
