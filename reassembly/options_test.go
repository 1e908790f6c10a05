package reassembly

import "testing"

// TestSACKOptionCut: a SACK option the snapshot length cut (IPv6 with
// timestamps at 96 bytes keeps 6 of its first block's 8) is told as cut,
// its blocks unread; a whole one is read and not cut; a truncated option
// of another kind is no cut SACK.
func TestSACKOptionCut(t *testing.T) {
	ts := []byte{1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2}
	whole := append(append([]byte{}, ts...), 1, 1, 5, 10, 0, 0, 0x10, 0, 0, 0, 0x20, 0)
	var o Options
	parseOptions(&o, whole)
	if o.SACKCut || o.NSACK != 1 || o.SACK[0] != (SACKBlock{0x1000, 0x2000}) || !o.HasTimestamp {
		t.Errorf("whole SACK option: %+v, want one block [0x1000, 0x2000), not cut", o)
	}
	parseOptions(&o, whole[:len(whole)-2])
	if !o.SACKCut || o.NSACK != 0 || !o.HasTimestamp {
		t.Errorf("cut SACK option: %+v, want cut, no block, the timestamps kept", o)
	}
	parseOptions(&o, append(append([]byte{}, ts[:4]...), 0, 0))
	if o.SACKCut {
		t.Errorf("a cut timestamps option: %+v, want no cut SACK", o)
	}
}
