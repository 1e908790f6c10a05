package main

import (
	"encoding/csv"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tcpviz/internal/golden"
	"tcpviz/internal/udpbuild"
)

func flowsCSV(t *testing.T, s string) []map[string]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, name := range recs[0] {
			m[name] = r[i]
		}
		out = append(out, m)
	}
	return out
}

// TestFlowsAgreeWithStreams: on the lab and real captures, flows has one
// tcp row per row of streams, with the same packets, bytes, start and
// duration; and the iperf3 receiver capture's UDP flow carries iperf3's
// numbers.
func TestFlowsAgreeWithStreams(t *testing.T) {
	shared := golden.SharedCaptures()
	dirs := []string{filepath.Join(shared, "lab"), filepath.Join(shared, "real"), filepath.Join(shared, "udp")}
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			t.Skip(err)
		}
	}
	fout, ferr, code := tcpviz(t, nil, append([]string{"flows", "--format", "csv"}, dirs...)...)
	if code != 0 {
		t.Fatalf("flows: exit %d: %s", code, ferr)
	}
	sout, _, code := tcpviz(t, nil, append([]string{"streams", "--format", "csv"}, dirs...)...)
	if code != 0 {
		t.Fatalf("streams: exit %d", code)
	}
	type key struct{ file, stream string }
	streams := map[key]map[string]string{}
	for _, r := range flowsCSV(t, sout) {
		streams[key{r["file"], r["stream"]}] = r
	}
	tcp := 0
	var iperf []map[string]string
	for _, f := range flowsCSV(t, fout) {
		switch f["proto"] {
		case "tcp":
		case "udp":
			if f["app"] == "iperf3" {
				iperf = append(iperf, f)
			}
			continue
		default:
			continue
		}
		tcp++
		s := streams[key{f["file"], f["flow"]}]
		if s == nil {
			t.Errorf("%s: tcp flow %s is not a stream", f["file"], f["flow"])
			continue
		}
		add := func(a, b string) string { return itoa(atoi(t, s[a]) + atoi(t, s[b])) }
		if f["packets"] != add("c2s_packets", "s2c_packets") || f["bytes"] != add("c2s_bytes", "s2c_bytes") ||
			f["first_time"] != s["first_time"] || f["duration_s"] != s["duration_s"] {
			t.Errorf("%s: tcp flow %s differs from its stream:\n%v\n%v", f["file"], f["flow"], f, s)
		}
	}
	if tcp != len(streams) {
		t.Errorf("%d tcp flows, %d streams", tcp, len(streams))
	}
	if len(iperf) != 2 {
		t.Fatalf("%d iperf3 flows, want 2 (rx and tx)", len(iperf))
	}
	for _, f := range iperf {
		want := "0"
		if strings.HasSuffix(f["file"], ".rx.pcap") {
			want = "113"
		}
		if f["app_lost_packets"] != want || f["app_packets"] != "12948" {
			t.Errorf("%s: %s/%s lost, want %s/12948", f["file"], f["app_lost_packets"], f["app_packets"], want)
		}
	}
}

// TestFlowsWarnsIncompleteFragments: a datagram missing a fragment is
// one warning line; the rest of the capture is listed.
func TestFlowsWarnsIncompleteFragments(t *testing.T) {
	d := udpbuild.Datagram{Src: mustAddrPort("10.0.0.1:4000"), Dst: mustAddrPort("10.0.0.2:53"), Payload: make([]byte, 3000), ID: 1}
	frags := d.Fragments(1480)
	whole := udpbuild.Datagram{Src: mustAddrPort("10.0.0.1:4000"), Dst: mustAddrPort("10.0.0.2:53"), Payload: []byte("ok"), ID: 2}
	capture := udpbuild.Pcap([]udpbuild.Frame{{T: 1, Data: frags[0]}, {T: 2, Data: frags[2]}, {T: 3, Data: whole.Packet()}})
	out, errs, code := tcpviz(t, capture, "flows", "--format", "csv", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows := flowsCSV(t, out)
	if len(rows) != 1 || rows[0]["proto"] != "udp" || rows[0]["packets"] != "1" || rows[0]["bytes"] != "2" {
		t.Errorf("rows %v, want the one whole datagram", rows)
	}
	if !strings.Contains(errs, "1 fragmented datagram whose fragments did not all arrive (first fragment: packet 1)") || strings.Count(errs, "\n") != 1 {
		t.Errorf("stderr %q, want one warning about the incomplete datagram", errs)
	}
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func mustAddrPort(s string) netip.AddrPort { return netip.MustParseAddrPort(s) }
