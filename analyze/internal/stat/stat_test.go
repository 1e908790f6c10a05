package stat

import "testing"

func TestMedian(t *testing.T) {
	if m, ok := Median([]int64{5, 1, 3}); !ok || m != 3 {
		t.Errorf("median of 5 1 3 = %d %v, want 3", m, ok)
	}
	if m, ok := Median([]int64{4, 1, 3, 2}); !ok || m != 2 {
		t.Errorf("median of 4 1 3 2 = %d %v, want (2+3)/2 = 2", m, ok)
	}
	if _, ok := Median(nil); ok {
		t.Error("median of nothing said ok")
	}
}
