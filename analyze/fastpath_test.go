package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// TestSortedFastPathEqualsLoops: the sorted-list shortcuts for ACKs and
// bytes in flight give, on every packet of every capture at hand, the
// analysis Wireshark's loops give.
func TestSortedFastPathEqualsLoops(t *testing.T) {
	var paths []string
	for _, pattern := range []string{
		filepath.Join("..", "testdata", "*.pcap*"), filepath.Join("..", "testdata", "truth-extra", "*.pcap"),
		filepath.Join(golden.SharedCaptures(), "*", "*.pcap*"), filepath.Join(golden.SharedCaptures(), "*", "*.dmp.gz"),
		filepath.Join(golden.SharedCaptures(), "*", "*.snoop.gz"),
	} {
		m, _ := filepath.Glob(pattern)
		paths = append(paths, m...)
	}
	frames := 0
	for _, path := range paths {
		if st, err := os.Stat(path); err != nil || st.Size() > 64<<20 {
			continue
		}
		if f, err := os.Open(path); err != nil {
			continue
		} else {
			_, err := reassembly.NewReader(f)
			f.Close()
			if err != nil {
				continue // not a capture this package reads
			}
		}
		infos := func(loops bool) []PacketInfo {
			a := New()
			a.loopsOnly = loops
			var out []PacketInfo
			sc := reassembly.NewScanner(capturetest.Reader(t, path))
			for sc.Scan() {
				out = append(out, a.Add(sc.Conn(), sc.Segment()))
			}
			return out
		}
		fast, slow := infos(false), infos(true)
		for i := range fast {
			if fast[i] != slow[i] {
				t.Fatalf("%s: segment %d: fast path %+v, loops %+v", filepath.Base(path), i, fast[i], slow[i])
			}
		}
		frames += len(fast)
	}
	if frames < 10000 {
		t.Fatalf("only %d segments compared", frames)
	}
	t.Logf("%d segments of %d captures", frames, len(paths))
}

// TestRunScanModesAgree: Run gives every connection the same result (the
// tracker's view and every statistic), in the same order, whether it scans
// in one goroutine, with reading and decoding ahead, or with the tracker
// ahead too (what summary and streams use on more than one core).
func TestRunScanModesAgree(t *testing.T) {
	var paths []string
	for _, pattern := range []string{
		filepath.Join("..", "testdata", "*.pcap*"), filepath.Join("..", "testdata", "truth-extra", "*.pcap"),
		filepath.Join(golden.SharedCaptures(), "*", "*.pcap*"), filepath.Join(golden.SharedCaptures(), "*", "*.dmp.gz"),
		filepath.Join(golden.SharedCaptures(), "*", "*.snoop.gz"),
	} {
		m, _ := filepath.Glob(pattern)
		paths = append(paths, m...)
	}
	if raceEnabled {
		paths = paths[:min(len(paths), 40)]
	}
	conns := 0
	for _, path := range paths {
		if st, err := os.Stat(path); err != nil || st.Size() > 64<<20 {
			continue
		}
		if f, err := os.Open(path); err != nil {
			continue
		} else {
			_, err := reassembly.NewReader(f)
			f.Close()
			if err != nil {
				continue
			}
		}
		run := func(mode scanMode, analyse bool) string {
			var out []string
			res, err := Run(capturetest.Reader(t, path), RunOptions{Analyze: analyse, Keep: -1, scan: mode,
				OnConn: func(cr *ConnResult) { out = append(out, fmt.Sprintf("%+v", *cr)) }})
			res.Warnings = append(res.Warnings, fmt.Sprint(err))
			return fmt.Sprintf("%+v\n%s", *res, strings.Join(out, "\n"))
		}
		for _, analyse := range []bool{true, false} {
			plain := run(scanPlain, analyse)
			for _, mode := range []scanMode{scanPipe, scanPipeTrack} {
				if got := run(mode, analyse); got != plain {
					t.Fatalf("%s (analyse %v): scan mode %d differs from the plain scan:\n%s\nplain:\n%s",
						filepath.Base(path), analyse, mode, got, plain)
				}
			}
		}
		conns += strings.Count(run(scanPlain, false), "\n")
	}
	if _, err := os.Stat(golden.SharedCaptures()); conns < 50 && err == nil {
		t.Fatalf("only %d connections compared", conns)
	}
	if conns == 0 {
		t.Fatal("no connection compared")
	}
}
