package analyze

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tcpviz/reassembly"
)

// TestIOClockStepRefused: a packet ten years after the others (a clock
// step) would make 315 billion intervals of a millisecond: IO refuses
// with one line naming an interval that fits, instead of running out of
// memory; at that interval it draws.
func TestIOClockStepRefused(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "lossy_sll2.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	if binary.LittleEndian.Uint32(data) != 0xa1b2c3d4 {
		t.Skip("not a little-endian microsecond pcap")
	}
	// The first record again, ten years later, at the end.
	n := int(binary.LittleEndian.Uint32(data[24+8:]))
	rec := bytes.Clone(data[24 : 24+16+n])
	binary.LittleEndian.PutUint32(rec, binary.LittleEndian.Uint32(rec)+10*365*86400)
	data = append(bytes.Clone(data), rec...)
	read := func(interval int64) (*IOResult, error) {
		r, err := reassembly.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		return IO(r, IOOptions{Interval: interval})
	}
	_, err = read(1e6)
	if err == nil || !strings.Contains(err.Error(), "clock step") || !strings.Contains(err.Error(), "--interval of") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("error %v, want one line saying a clock step and an interval that fits", err)
	}
	res, err := read(int64(4000 * 86400 * 1e9 / (1 << 20)))
	if err != nil || len(res.Bins) == 0 {
		t.Fatalf("a longer interval: %v", err)
	}
}
