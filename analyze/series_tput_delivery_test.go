package analyze

import "testing"

// TestDeliveryCountsEachByteOnce: SACK blocks count their bytes when they
// report them; the cumulative ACK that later jumps over them counts only
// the repaired hole; a D-SACK and a block reported again count nothing.
func TestDeliveryCountsEachByteOnce(t *testing.T) {
	b := &tputBuilder{}
	steps := []struct {
		prev     int64
		advanced bool
		ack      int64
		blocks   [][2]int64
		want     int64
	}{
		{0, true, 1000, nil, 1000},                                        // in order
		{1000, false, 1000, [][2]int64{{2000, 3000}}, 1000},               // 1000–2000 lost, 2000–3000 SACKed
		{1000, false, 1000, [][2]int64{{2000, 4000}}, 1000},               // the block grows by 1000
		{1000, false, 1000, [][2]int64{{2000, 4000}}, 0},                  // reported again
		{1000, true, 4000, nil, 1000},                                     // the repair: only the hole is new
		{4000, false, 4000, [][2]int64{{1000, 2000}}, 0},                  // a D-SACK below the ACK
		{4000, false, 4000, [][2]int64{{5000, 6000}, {7000, 8000}}, 2000}, // two holes
		{4000, true, 5500, nil, 1500},                                     // 4000–5000 and half a hole's block already counted: 1000 + 0
	}
	steps[len(steps)-1].want = 1000 // 4000–5000 new; 5000–5500 was SACKed
	var total int64
	for i, s := range steps {
		got := b.deliver(s.prev, s.advanced, s.ack, s.blocks)
		if got != s.want {
			t.Errorf("step %d: delivered %d, want %d (SACKed %v)", i, got, s.want, b.sacked)
		}
		total += got
	}
	// Every byte up to 5500 once, and 5500–6000 and 7000–8000 SACKed.
	if want := int64(5500 + 500 + 1000); total != want {
		t.Errorf("delivered %d in all, want %d", total, want)
	}
}
