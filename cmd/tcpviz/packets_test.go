package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"tcpviz/charts"
	"testing"

	"tcpviz/internal/golden"
)

// TestPacketsMatchTshark: tcpviz packets equals tshark frame by frame on
// every capture with a tshark golden that is here (the bundled ones on a
// fresh clone): relative numbers, length, every analysis flag, the
// duplicate ACK number, bytes in flight and ack RTT, but on the frames
// the analysis's own tshark test lists as known differences (at most as
// many), and the frames whose TCP header tshark stopped dissecting in a
// snap-length-cut SACK option. Segments quoted in ICMP errors, which tshark counts and no
// analysis reads, are not rows.
func TestPacketsMatchTshark(t *testing.T) {
	files, err := golden.All()
	if err != nil {
		t.Fatal(err)
	}
	checked, frames := 0, 0
	for _, g := range files {
		if _, err := os.Stat(g.Capture); err != nil || strings.Contains(g.Name, "icmp") {
			continue
		}
		if _, unread := golden.Unread[g.Name]; unread {
			continue // not read as tshark reads it yet (the stream test bounds it)
		}
		out, stderr, code := tcpviz(t, nil, "packets", "-f", "csv", g.Capture)
		if code != 0 && !strings.Contains(g.Name, "adversarial") && !strings.Contains(g.Name, "malformed") {
			t.Errorf("%s: exit %d: %s", g.Name, code, stderr)
			continue
		}
		rows := map[string]map[string]string{}
		for _, r := range sweepCSV(t, out) {
			rows[r["frame"]] = r
		}
		bools := map[string]string{"retrans": "retransmission", "fast_retrans": "fast_retransmission", "spurious": "spurious_retransmission",
			"ooo": "out_of_order", "lost": "lost_segment", "dupack": "duplicate_ack", "zero_win": "zero_window", "zwp": "zero_window_probe",
			"win_full": "window_full", "keepalive": "keep_alive", "win_update": "window_update", "ack_unseen": "ack_lost_segment"}
		problems := map[string]string{} // frame: the first difference
		bad := 0
		note := func(frame, what string) {
			if _, seen := problems[frame]; !seen {
				problems[frame] = what
			}
		}
		for _, f := range g.Frames() {
			if f.Str("stream") == "" {
				continue
			}
			r := rows[f.Str("frame")]
			if r == nil {
				if code == 0 {
					note(f.Str("frame"), "no row")
				}
				continue
			}
			if r["stream"] != f.Str("stream") {
				continue // numbered otherwise: the reassembly tests cover what is seen where
			}
			frames++
			if f.CutAtSACK() {
				continue // tshark shows no analysis of it (golden.Frame.CutAtSACK)
			}
			for tf, col := range bools {
				if (r[col] == "true") != f.Flag(tf) {
					note(f.Str("frame"), col+" "+r[col]+", tshark "+f.Str(tf))
				}
			}
			for tf, col := range map[string]string{"seq": "seq_rel", "len": "len", "dupack_num": "duplicate_ack_num", "bif": "bytes_in_flight"} {
				if r[col] != f.Str(tf) {
					note(f.Str("frame"), col+" "+r[col]+", tshark "+f.Str(tf))
				}
			}
			want, okw := f.Float("ack_rtt")
			got, errg := strconv.ParseFloat(r["ack_rtt_ms"], 64)
			if okw != (errg == nil) || okw && math.Abs(got/1e3-want) > 1e-6 {
				note(f.Str("frame"), "ack_rtt_ms "+r["ack_rtt_ms"]+", tshark "+f.Str("ack_rtt")+" s")
			}
		}
		if len(problems) > 0 {
			k, ok := golden.KnownAnalysisDifferences[g.Name]
			for frame, what := range problems {
				if !ok || len(problems) > k.Frames {
					bad++
					if bad < 4 {
						t.Errorf("%s: %d frames differ (%d known), e.g. frame %s: %s", g.Name, len(problems), k.Frames, frame, what)
					}
				}
				break
			}
		}
		checked++
	}
	if checked == 0 || frames == 0 {
		t.Fatal("no capture checked")
	}
	t.Logf("%d captures, %d frames equal to tshark's", checked, frames)
}

// TestPacketsFastCSV: the packets table's own fast path (charts.
// packetCells) writes what the schema's cells write, byte for byte, as
// CSV in both the default and the spreadsheet forms and as Parquet, on
// captures with retransmissions, SACK, duplicate ACKs and zero windows.
func TestPacketsFastCSV(t *testing.T) {
	var names []string
	for _, c := range charts.PacketsColumns {
		names = append(names, c.Name)
	}
	all := strings.Join(names, ",") // naming the columns takes the schema's path
	for _, f := range []string{demoCapture, "../../testdata/lossy_sll2.pcap", "../../testdata/geo_pep_short.pcap", "../../testdata/truth-jitter/gt_j10_loss1.tx.pcap.gz"} {
		for _, tf := range []string{"rfc3339", "spreadsheet"} {
			fast, _, c1 := tcpviz(t, nil, "packets", "-f", "csv", "--time-format", tf, f)
			slow, _, c2 := tcpviz(t, nil, "packets", "-f", "csv", "--time-format", tf, "--fields", all, f)
			if c1 != 0 || c2 != 0 || fast != slow || strings.Count(fast, "\n") < 10 {
				t.Errorf("%s (%s): the fast CSV (%d bytes) differs from the schema's (%d bytes)", f, tf, len(fast), len(slow))
			}
		}
		dir := t.TempDir()
		fastPQ, slowPQ := filepath.Join(dir, "fast.parquet"), filepath.Join(dir, "slow.parquet")
		_, _, c1 := tcpviz(t, nil, "packets", "-o", fastPQ, f)
		_, _, c2 := tcpviz(t, nil, "packets", "-o", slowPQ, "--fields", all, f)
		a, _ := os.ReadFile(fastPQ)
		b, _ := os.ReadFile(slowPQ)
		if c1 != 0 || c2 != 0 || len(a) < 1000 || !bytes.Equal(a, b) {
			t.Errorf("%s: the fast Parquet (%d bytes) differs from the schema's (%d bytes)", f, len(a), len(b))
		}
	}
}

// TestPacketsVerdictsAgreeWithSummary: the packets table's path_verdict,
// counted per capture and direction, gives the summary's path columns —
// every resend one of loss_repair, lost_upstream_repair or spurious
// (retransmitted_packets), the spurious ones those the summary proved
// (spurious_retransmitted_packets: a D-SACK, an echo or a late original
// after the resend moves its row), the reordered ones reordered_packets —
// on the bundled captures of both ends and the middle of a path, and on
// the corpus's truth captures when ../shared is there.
func TestPacketsVerdictsAgreeWithSummary(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/truth-mid/*.pcap.gz")
	more, _ := filepath.Glob("../../testdata/labelled/*.pcap.gz")
	files = append(append(files, more...), "../../testdata/lossy_sll2.pcap", "../../testdata/truth-jitter/gt_j10_loss1.tx.pcap.gz")
	if shared, _ := filepath.Glob(filepath.Join(golden.SharedCaptures(), "truth", "*.pcap*")); len(shared) > 0 {
		files = append(files, shared...)
	} else {
		t.Log("no ../shared/captures/truth: the bundled captures only")
	}
	var spurious, proven int
	for _, f := range files {
		pk, stderr, code := tcpviz(t, nil, "packets", "-f", "csv", "--fields", "direction,path_verdict", f)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, stderr)
		}
		count := map[string]map[string]int{}
		for _, r := range flowsCSV(t, pk) {
			if count[r["direction"]] == nil {
				count[r["direction"]] = map[string]int{}
			}
			count[r["direction"]][r["path_verdict"]]++
		}
		sum, stderr, code := tcpviz(t, nil, "summary", "-f", "csv", "--fields", "direction,retransmitted_packets,spurious_retransmitted_packets,reordered_packets", f)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, stderr)
		}
		want := map[string][3]int{}
		for _, r := range flowsCSV(t, sum) {
			var w [3]int
			for i, k := range []string{"retransmitted_packets", "spurious_retransmitted_packets", "reordered_packets"} {
				n, _ := strconv.Atoi(r[k])
				w[i] = n
			}
			x := want[r["direction"]]
			want[r["direction"]] = [3]int{x[0] + w[0], x[1] + w[1], x[2] + w[2]}
		}
		for dir, w := range want {
			c := count[dir]
			got := [3]int{c["loss_repair"] + c["lost_upstream_repair"] + c["spurious"], c["spurious"], c["reordered"]}
			if got != w {
				t.Errorf("%s %s: packets give resends, spurious, reordered %v; summary %v", filepath.Base(f), dir, got, w)
			}
			spurious += c["spurious"]
			proven += c["spurious"]
		}
	}
	if spurious == 0 {
		t.Fatal("no spurious resend in the captures: the test proves nothing")
	}
	t.Logf("%d captures; %d spurious resends as the summary counts them", len(files), proven)
}

// TestPacketsAtEpochZero: a capture whose first packet is stamped 0 (the
// epoch) counts time_rel_s from it, not from the second packet.
func TestPacketsAtEpochZero(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/lossy_sll2.pcap")
	if err != nil {
		t.Fatal(err)
	}
	if binary.LittleEndian.Uint32(raw) != 0xa1b2c3d4 {
		t.Fatal("not a little-endian microsecond pcap")
	}
	// Shift every record's time so that the first is 0.
	first := -1
	for off := 24; off+16 <= len(raw); {
		sec := binary.LittleEndian.Uint32(raw[off:])
		if first < 0 {
			first = int(sec)
			binary.LittleEndian.PutUint32(raw[off+4:], 0) // the first at 0.000000
		}
		binary.LittleEndian.PutUint32(raw[off:], sec-uint32(first))
		off += 16 + int(binary.LittleEndian.Uint32(raw[off+8:]))
	}
	path := filepath.Join(t.TempDir(), "epoch0.pcap")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := tcpviz(t, nil, "packets", "-f", "csv", "--fields", "time_epoch,time_rel_s", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := flowsCSV(t, out)
	if len(rows) < 10 || !strings.HasPrefix(rows[0]["time_epoch"], "0.") {
		t.Fatalf("the first packet is not at the epoch: %v", rows[:min(len(rows), 2)])
	}
	for _, r := range rows[:10] {
		if r["time_rel_s"] != r["time_epoch"] {
			t.Fatalf("time_rel_s %s at time_epoch %s: not counted from the first packet", r["time_rel_s"], r["time_epoch"])
		}
	}
}
