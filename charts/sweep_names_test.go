package charts

import (
	"fmt"
	"strings"
	"testing"
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
