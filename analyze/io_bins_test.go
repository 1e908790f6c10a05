package analyze

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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
	// Eighteen days of seconds are refused as well: the table would have
	// a row for each flow and second (1.36 GB of CSV from a 2.6 KB
	// capture, found by a tester).
	binary.LittleEndian.PutUint32(data[len(data)-len(rec):], binary.LittleEndian.Uint32(data[24:])+1_600_000)
	if _, err := read(1e9); err == nil || !strings.Contains(err.Error(), "clock step") {
		t.Fatalf("an 18-day step at 1 s: error %v, want the step refused", err)
	}
	binary.LittleEndian.PutUint32(data[len(data)-len(rec):], binary.LittleEndian.Uint32(rec))
	_, err = read(1e6)
	if err == nil || !strings.Contains(err.Error(), "clock step") || !strings.Contains(err.Error(), "--interval of") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("error %v, want one line saying a clock step and an interval that fits", err)
	}
	// A short capture at 1 ns is too many intervals as well, but its
	// clock did not step: not asked (found by a tester).
	plain, perr := reassembly.NewReader(bytes.NewReader(data[:len(data)-len(rec)]))
	if perr != nil {
		t.Fatal(perr)
	}
	if _, err := IO(plain, IOOptions{Interval: 1}); err == nil || strings.Contains(err.Error(), "clock step") || !strings.Contains(err.Error(), "--interval of") {
		t.Errorf("the capture without its step at 1 ns: error %v, want too many intervals without a clock step", err)
	}
	// The interval it names fits.
	m := regexp.MustCompile(`an --interval of ([0-9.]+) s or more fits`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("no interval in seconds named: %v", err)
	}
	sec, _ := strconv.ParseFloat(m[1], 64)
	res, err := read(int64(math.Ceil(sec * 1e9)))
	if err != nil || len(res.Bins) == 0 || len(res.Bins) > maxIOBins {
		t.Fatalf("at the interval named: %v", err)
	}
}
