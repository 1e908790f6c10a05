package batch

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// TestInOrder: results come in item order whatever order the work ends
// in, at most jobs at once; a work that panics gives recovered's result
// and the others are kept.
func TestInOrder(t *testing.T) {
	var running, most atomic.Int32
	var got []string
	InOrder(20, 3, func(i int) string {
		if n := running.Add(1); n > most.Load() {
			most.Store(n)
		}
		defer running.Add(-1)
		time.Sleep(time.Duration(20-i) * 100 * time.Microsecond) // the later ones end first
		if i == 7 {
			panic("seven")
		}
		return fmt.Sprint(i)
	}, func(i int, r any) string { return fmt.Sprintf("%d: %v", i, r) }, func(i int, r string) {
		got = append(got, r)
	})
	if want := "[0 1 2 3 4 5 6 7: seven 8 9 10 11 12 13 14 15 16 17 18 19]"; fmt.Sprint(got) != want {
		t.Errorf("%v, want %s", got, want)
	}
	if most.Load() > 3 {
		t.Errorf("%d at once, want at most 3", most.Load())
	}
}
