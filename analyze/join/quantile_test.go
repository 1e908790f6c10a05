package join

import "testing"

func TestQuantile(t *testing.T) {
	v := make([]int64, 100)
	for i := range v {
		v[i] = int64(i + 1)
	}
	for _, c := range []struct {
		q    float64
		want int64
	}{{0, 1}, {0.5, 50}, {0.95, 95}, {0.951, 96}, {1, 100}} {
		if got := quantile(v, c.q); got != c.want {
			t.Errorf("quantile %v of 1..100 = %d, want %d", c.q, got, c.want)
		}
	}
	if quantile(nil, 0.5) != 0 {
		t.Error("quantile of nothing is not 0")
	}
}
