package reassembly

import "testing"

// TestSACKOptionCut: a SACK option the snapshot length cut (IPv6 with
// timestamps at 96 bytes keeps 6 of its first block's 8) is told as cut,
// its whole blocks read and the bytes of the next kept (its left edge, the
// right's leading bytes); a whole one is read and not cut; a truncated
// option of another kind is no cut SACK, nor is a SACK option that runs
// past a header captured whole (malformed).
func TestSACKOptionCut(t *testing.T) {
	ts := []byte{1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2}
	whole := append(append([]byte{}, ts...), 1, 1, 5, 10, 0, 0, 0x10, 0, 0, 0, 0x20, 0)
	var o Options
	parseOptions(&o, whole, false)
	if o.SACKCut || o.NSACK != 1 || o.SACK[0] != (SACKBlock{0x1000, 0x2000}) || !o.HasTimestamp {
		t.Errorf("whole SACK option: %+v, want one block [0x1000, 0x2000), not cut", o)
	}
	parseOptions(&o, whole[:len(whole)-2], true)
	if !o.SACKCut || o.NSACK != 0 || !o.HasTimestamp {
		t.Errorf("cut SACK option: %+v, want cut, no block, the timestamps kept", o)
	}
	if o.SACKPart != 6 || o.SACK[0] != (SACKBlock{0x1000, 0}) {
		t.Errorf("cut SACK option: part %d, block %x, want 6 bytes: the left edge 0x1000 and the right's leading 0x0000", o.SACKPart, o.SACK[0])
	}
	two := append(append([]byte{}, ts...), 1, 1, 5, 18, 0, 0, 0x10, 0, 0, 0, 0x20, 0, 0, 1, 0x23, 0x45, 0, 1, 0x67, 0x89)
	parseOptions(&o, two[:len(two)-3], true)
	if !o.SACKCut || o.NSACK != 1 || o.SACK[0] != (SACKBlock{0x1000, 0x2000}) || o.SACKPart != 5 || o.SACK[1] != (SACKBlock{0x12345, 0x00000000}) {
		t.Errorf("a second block cut after 5 bytes: %+v, want the first whole, the second's left edge and 5 bytes", o)
	}
	parseOptions(&o, two[:len(two)-1], true)
	if o.SACKPart != 7 || o.SACK[1] != (SACKBlock{0x12345, 0x00016700}) {
		t.Errorf("a second block cut after 7 bytes: part %d, block %x, want 7 and the right's leading bytes 0x000167", o.SACKPart, o.SACK[1])
	}
	parseOptions(&o, whole[:len(whole)-2], false)
	if o.SACKCut || o.NSACK != 0 || o.SACKPart != 0 {
		t.Errorf("a SACK option running past a header captured whole (malformed, not cut): %+v, want no cut and no block", o)
	}
	parseOptions(&o, append(append([]byte{}, ts[:4]...), 0, 0), true)
	if o.SACKCut {
		t.Errorf("a cut timestamps option: %+v, want no cut SACK", o)
	}
}
