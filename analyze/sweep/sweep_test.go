package sweep

import (
	"fmt"
	"math"
	"testing"
)

func TestSummarise(t *testing.T) {
	c := summarise([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	// mean 5, sample sd sqrt(32/7), t(7) = 2.365 (the tables' three
	// decimals).
	sd := math.Sqrt(32.0 / 7)
	if c.N != 8 || c.Mean != 5 || math.Abs(c.SD-sd) > 1e-12 || math.Abs(c.CI95/(2.365*sd/math.Sqrt(8))-1) > 3e-4 {
		t.Errorf("got %+v", c)
	}
	if one := summarise([]float64{3}); one.Mean != 3 || !math.IsNaN(one.SD) || !math.IsNaN(one.CI95) || one.N != 1 {
		t.Errorf("one run: %+v", one)
	}
	if two := summarise([]float64{1, 3}); math.Abs(two.CI95/12.706-1) > 1e-4 { // t(1) = 12.706, sd √2, n 2
		t.Errorf("two runs: %+v", two)
	}
}

func TestPivot(t *testing.T) {
	p, err := parseParam(`rtt=(\d+)ms`)
	if err != nil {
		t.Fatal(err)
	}
	if p.Unit != "ms" {
		t.Errorf("unit %q of rtt=(\\d+)ms, want ms", p.Unit)
	}
	k, _ := parseParam(`kind=(fixed|jitter)`)
	if k.Unit != "" {
		t.Errorf("unit %q of kind=(fixed|jitter)", k.Unit)
	}
	var runs []Run
	for _, f := range []struct {
		name string
		v    float64
	}{{"s_100ms_fixed_r1", 1}, {"s_100ms_fixed_r2", 3}, {"s_10ms_fixed_r1", 10}, {"s_50ms_jitter_r1", 7}, {"s_50ms_fixed_r1", 5}, {"other", 99}} {
		r := Run{File: f.name, Params: map[string]string{}, Value: f.v, OK: true}
		for _, q := range []param{p, k} {
			if v, ok := q.value(f.name); ok {
				r.Params[q.Name] = v
			}
		}
		runs = append(runs, r)
	}
	pv, skipped := makePivot(runs, "rtt", []string{"kind"})
	if skipped != 1 {
		t.Errorf("skipped %d, want 1 (no rtt in its name)", skipped)
	}
	if len(pv.Rows) != 3 || pv.Rows[0] != "10" || pv.Rows[1] != "50" || pv.Rows[2] != "100" {
		t.Errorf("rows %q: want 10, 50, 100 in numeric order", pv.Rows)
	}
	if len(pv.Cols) != 2 || pv.Cols[0] != "fixed" || pv.Cols[1] != "jitter" {
		t.Errorf("cols %q", pv.Cols)
	}
	if c := pv.Cells[2][0]; c.N != 2 || c.Mean != 2 {
		t.Errorf("100 ms fixed: %+v", c)
	}
	if c := pv.Cells[0][1]; c.N != 0 || !math.IsNaN(c.Mean) {
		t.Errorf("10 ms jitter (no run): %+v", c)
	}
	if c, err := parseParam("rtt"); err != nil || !c.commented() || c.Name != "rtt" {
		t.Errorf("parseParam(rtt): %+v, %v; want a parameter of the comments", c, err)
	}
	if v := commentValues([]string{"Delay=10ms, rate=2M;x", "delay=20ms\nkind=fixed ="}); fmt.Sprint(v) != "map[delay:10ms kind:fixed rate:2M]" {
		t.Errorf("commentValues: %v", v)
	}
	for _, bad := range []string{"rtt=", "=x", "Rtt=(x)", "a=(x)(y)", "a=("} {
		if _, err := parseParam(bad); err == nil {
			t.Errorf("parseParam(%q) accepted", bad)
		}
	}
	if columnName([]string{"Fixed", "TCP/IP"}) != "fixed_tcp_ip" {
		t.Error(columnName([]string{"Fixed", "TCP/IP"}))
	}
}

// TestUnits: values with units are read in their family's base unit where
// they differ, as written where they share one, and ordered by what they
// mean (500ms before 1s, 2Mbit/s before 1Gbit/s).
func TestUnits(t *testing.T) {
	for _, c := range []struct {
		in   string
		v    float64
		unit string
	}{{"500ms", 0.5, "s"}, {"20Mbit/s", 2e7, "bit/s"}, {"20mbit", 2e7, "bit/s"}, {"64KiB", 65536, "B"}, {"1.5 %", 1.5, "%"},
		{"2M", 2e6, ""}, {"7", 7, ""}, {"3 furlongs", 3, "furlongs"}} {
		v, u, ok := inBaseUnit(c.in)
		if !ok || math.Abs(v-c.v) > 1e-9*c.v || u != c.unit {
			t.Errorf("inBaseUnit(%q) = %v %q %v, want %v %q", c.in, v, u, ok, c.v, c.unit)
		}
	}
	if _, _, ok := inBaseUnit("fixed"); ok {
		t.Error("inBaseUnit(fixed) is a number")
	}
	xs, unit, ok := scale([]string{"10", "50", "100"}, "ms")
	if unit != "ms" || xs[2] != 100 || !ok[0] {
		t.Errorf("plain numbers: %v %q", xs, unit)
	}
	xs, unit, _ = scale([]string{"10ms", "50ms"}, "")
	if unit != "ms" || xs[1] != 50 {
		t.Errorf("one unit: %v %q", xs, unit)
	}
	xs, unit, _ = scale([]string{"500ms", "1s", "1500ms"}, "")
	if unit != "s" || xs[0] != 0.5 || xs[1] != 1 || xs[2] != 1.5 {
		t.Errorf("mixed times: %v %q", xs, unit)
	}
	xs, unit, _ = scale([]string{"500ms", "2Mbit/s"}, "")
	if unit != "" || xs[0] != 0.5 || xs[1] != 2e6 {
		t.Errorf("two families: %v %q", xs, unit)
	}
	vs := []string{"1s", "fixed", "2Mbit/s", "500ms", "1Gbit/s", "900ms"}
	for _, c := range [][2]string{{"500ms", "1s"}, {"900ms", "1s"}, {"2Mbit/s", "1Gbit/s"}, {"1s", "fixed"}} {
		if compareValues(c[0], c[1]) >= 0 || compareValues(c[1], c[0]) <= 0 {
			t.Errorf("%s is not before %s (%v)", c[0], c[1], vs)
		}
	}
}
