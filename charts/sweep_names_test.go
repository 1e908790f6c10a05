package charts

import (
	"fmt"
	"strings"
	"testing"

	"tcpviz/reassembly"
)

// TestCheckSweepNames: a sweep's --fields, --cols and --rows names are
// refused, before any capture is read, when no table of the sweep can
// have them.
func TestCheckSweepNames(t *testing.T) {
	params := []string{"rtt", "kind"}
	for _, c := range []struct {
		params, fields, cols []string
		row, want            string
	}{
		{params: params, fields: []string{"rtt", "throughput_bps_mean", "all", "rtt_*"}, row: "rtt"},
		{params: params, fields: []string{"tcp_throughput_bps_ci95"}, cols: []string{"proto"}, row: "rtt"},
		{params: []string{"proto"}, row: "proto", want: "a parameter named proto"},
		{params: params, fields: []string{"throughput_bps_max"}, row: "rtt", want: `--fields "throughput_bps_max": no such column (want the --rows parameter (proto, rtt or kind) or the metric's mean, sd, n, ci95: throughput_bps_mean)`},
		{params: params, fields: []string{"throughput_bps_mean"}, cols: []string{"kind"}, row: "rtt", want: "with --cols, a column's: VALUE_throughput_bps_mean (tcp_throughput_bps_mean)"},
		{params: params, cols: []string{"delay"}, row: "rtt", want: `--cols "delay": no such parameter (want proto, rtt or kind;`},
		{params: params, want: "--rows: name the parameter of the rows (proto, rtt or kind)"},
		{params: params, row: "delay", want: `--rows "delay": no such parameter`},
		{params: params, cols: []string{"kind", "proto", "kind"}, row: "rtt", want: `sweep: --cols "kind" named twice: each parameter once`},
		{params: params, cols: []string{"kind", "proto"}, row: "rtt"},
	} {
		err := CheckSweepNames(c.params, "throughput_bps", c.fields, c.cols, c.row)
		if got := fmt.Sprint(err); c.want == "" && err != nil || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%+v: %v, want %q", c, err, c.want)
		}
	}
}

// TestSweepLeftOut: the captures left out are said, each reason once;
// --filter matching in none of them ends the run.
func TestSweepLeftOut(t *testing.T) {
	ws, err := SweepLeftOut(3, 1, 2, "port 80", "", "rtt", "throughput_bps")
	want := []string{`sweep: 1 capture left out (no flow --filter "port 80" matches)`, "sweep: 2 captures left out (no rtt parameter, or throughput_bps not measurable)"}
	if err != nil || fmt.Sprint(ws) != fmt.Sprint(want) {
		t.Errorf("%q, %v; want %q", ws, err, want)
	}
	if _, err := SweepLeftOut(2, 2, 0, "port 80", "udp", "rtt", "throughput_bps"); fmt.Sprint(err) != `sweep: --filter "port 80" matches no UDP flow in 2 captures` {
		t.Errorf("none matched: %v", err)
	}
	if ws, err := SweepLeftOut(2, 0, 0, "", "", "rtt", "throughput_bps"); ws != nil || err != nil || Transports("") != "TCP or UDP" {
		t.Errorf("none left out: %q, %v", ws, err)
	}
}

// TestSweepPick: CAPTURE#N's run is connection N (UDP flow N under
// --proto udp), CAPTURE#udpN's UDP flow N, each among those --filter
// keeps; when there is none, the error names the input as given, and a
// whole capture --filter matched nothing of is left out (nil).
func TestSweepPick(t *testing.T) {
	tcp2, udp3 := Named{Name: "x.pcap", Path: "x.pcap", Stream: 2, HasStream: true}, Named{Name: "x.pcap#udp3", Path: "x.pcap", UDP: true, UDPFlow: 3}
	odd := func(v *reassembly.FlowView) bool { return v.Stream%2 == 1 }
	for _, c := range []struct {
		in     Named
		proto  string
		keep   func(*reassembly.FlowView) bool
		picks  []reassembly.FlowView
		misses []reassembly.FlowView
	}{
		{tcp2, "", nil, []reassembly.FlowView{{Proto: "tcp", Stream: 2}}, []reassembly.FlowView{{Proto: "udp", Stream: 2}, {Proto: "tcp", Stream: 3}}},
		{tcp2, "udp", nil, []reassembly.FlowView{{Proto: "udp", Stream: 2}}, []reassembly.FlowView{{Proto: "udp", Stream: 1}}},
		{tcp2, "", odd, nil, []reassembly.FlowView{{Proto: "tcp", Stream: 2}}},
		{udp3, "udp", odd, []reassembly.FlowView{{Proto: "udp", Stream: 3}}, []reassembly.FlowView{{Proto: "udp", Stream: 2}}},
		{Named{Name: "x"}, "", odd, []reassembly.FlowView{{Proto: "udp", Stream: 1}}, []reassembly.FlowView{{Proto: "tcp", Stream: 2}}},
	} {
		pick := SweepPick(c.in, c.proto, c.keep)
		for _, v := range c.picks {
			if !pick(&v) {
				t.Errorf("%s (proto %q): %+v not picked", c.in.Given(), c.proto, v)
			}
		}
		for _, v := range c.misses {
			if pick(&v) {
				t.Errorf("%s (proto %q): %+v picked", c.in.Given(), c.proto, v)
			}
		}
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{SweepNoFlow(tcp2, "", false), "x.pcap#2: no such connection"},
		{SweepNoFlow(udp3, "udp", true), "x.pcap#udp3: no such UDP flow that --filter matches"},
		{SweepNoFlow(Named{Name: "x", Path: "x"}, "tcp", false), "x: no TCP flow"},
		{SweepNoFlow(Named{Name: "x", Path: "x"}, "", true), "<nil>"},
	} {
		if fmt.Sprint(c.err) != c.want {
			t.Errorf("%v, want %s", c.err, c.want)
		}
	}
}
