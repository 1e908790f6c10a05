package sweep

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// param is a parameter read from file names: NAME=REGEX, the value the
// regular expression's first group (or whole match); or, NAME alone,
// from the capture's own comments (Comment).
type param struct {
	Name string
	Re   *regexp.Regexp // nil for a parameter of the comments
	// Unit is what the pattern writes right after the value's group
	// (ms of sweep_(\d+)ms), "" when nothing does.
	Unit string
}

// parseParam reads NAME=REGEX, or NAME (a parameter of the comments).
func parseParam(s string) (param, error) {
	name, re, ok := strings.Cut(s, "=")
	if name == "" || ok && re == "" {
		return param{}, fmt.Errorf("%q: want NAME=REGEX (delay=(\\d+)ms), or NAME for the captures' comments", s)
	}
	if strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
		return param{}, fmt.Errorf("%q: a parameter's name is lower-case letters, digits and _", name)
	}
	if !ok {
		return param{Name: name}, nil
	}
	r, err := regexp.Compile(re)
	if err != nil {
		return param{}, fmt.Errorf("%q: %v", re, err)
	}
	if r.NumSubexp() > 1 {
		return param{}, fmt.Errorf("%q: one group at most (the value)", re)
	}
	p := param{Name: name, Re: r}
	if i := strings.LastIndex(re, ")"); r.NumSubexp() == 1 && i >= 0 {
		rest := re[i+1:]
		n := 0
		for n < len(rest) && (rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] == '/') {
			n++
		}
		p.Unit = rest[:n]
	}
	return p, nil
}

// commented is set for a parameter of the captures' comments.
func (p param) commented() bool { return p.Re == nil }

// commentValues are the key=value pairs of comments (a pcapng section
// header's: "delay=50ms rate=20Mbit/s", pairs apart by spaces, lines,
// commas or semicolons), keys lower-cased; the first of a key counts.
func commentValues(comments []string) map[string]string {
	out := map[string]string{}
	for _, c := range comments {
		for _, f := range strings.FieldsFunc(c, func(r rune) bool {
			return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == ';' || r == ','
		}) {
			k, v, ok := strings.Cut(f, "=")
			if k = strings.ToLower(k); ok && k != "" && v != "" {
				if _, seen := out[k]; !seen {
					out[k] = v
				}
			}
		}
	}
	return out
}

// value is the parameter's value in a file name, ok false when it does
// not match (or the parameter is of the comments).
func (p param) value(name string) (string, bool) {
	if p.Re == nil {
		return "", false
	}
	m := p.Re.FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	return m[len(m)-1], true
}

// Run is one capture of an experiment: its parameters and its metric.
type Run struct {
	File   string
	Params map[string]string
	Value  float64
	OK     bool // the metric was measurable
}

// cell summarises the runs of one group: their mean, sample standard
// deviation, count and the half-width of the 95% confidence interval of
// the mean (Student's t), SD and CI95 NaN when N < 2.
type cell struct {
	Mean, SD, CI95 float64
	N              int
}

// summarise makes the cell of values.
func summarise(v []float64) cell {
	c := cell{N: len(v), SD: math.NaN(), CI95: math.NaN(), Mean: math.NaN()}
	if c.N == 0 {
		return c
	}
	var sum float64
	for _, x := range v {
		sum += x
	}
	c.Mean = sum / float64(c.N)
	if c.N < 2 {
		return c
	}
	var ss float64
	for _, x := range v {
		ss += (x - c.Mean) * (x - c.Mean)
	}
	c.SD = math.Sqrt(ss / float64(c.N-1))
	c.CI95 = tQuantile975(c.N-1) * c.SD / math.Sqrt(float64(c.N))
	return c
}

// tQuantile975 is Student's t distribution's 0.975 quantile for df
// degrees of freedom (the two-sided 95% interval's factor).
func tQuantile975(df int) float64 {
	if df < 1 {
		return math.NaN()
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
}

// Pivot is a table of cells: one row per value of the row parameter, one
// column per combination of the column parameters' values.
type Pivot struct {
	Rows []string // the row parameter's values, in numeric order where they are numbers
	// X are the rows as numbers for an axis: in the unit their values
	// share, or, when their units differ but are of one family (500ms
	// and 1s), in the family's base unit; with no unit, in the one the
	// parameter's pattern writes after its value. XUnit is that unit;
	// XOK[i] is false for a row that is no number.
	X     []float64
	XUnit string
	XOK   []bool
	Cols  []string // the column combinations, joined by "_", lower-cased
	// Cells[i][j] summarises the runs of Rows[i] and Cols[j].
	Cells [][]cell
}

// Pivot groups runs by the row parameter and the column parameters
// (none: one column, ""). Runs without the row parameter, or whose metric
// was not measurable, are left out (skipped counts them).
func (ps *Params) Pivot(runs []Run, row string, cols []string) (p Pivot, skipped int) {
	p, skipped = makePivot(runs, row, cols)
	p.X, p.XUnit, p.XOK = scale(p.Rows, ps.unit(row))
	return p, skipped
}

// makePivot is Pivot without the rows' numbers.
func makePivot(runs []Run, row string, cols []string) (p Pivot, skipped int) {
	groups := map[[2]string][]float64{}
	rowSet, colSet := map[string]bool{}, map[string]bool{}
	for _, r := range runs {
		rv, ok := r.Params[row]
		if !ok || !r.OK {
			skipped++
			continue
		}
		var parts []string
		for _, c := range cols {
			parts = append(parts, r.Params[c])
		}
		cv := columnName(parts)
		rowSet[rv], colSet[cv] = true, true
		groups[[2]string{rv, cv}] = append(groups[[2]string{rv, cv}], r.Value)
	}
	for v := range rowSet {
		p.Rows = append(p.Rows, v)
	}
	for v := range colSet {
		p.Cols = append(p.Cols, v)
	}
	slices.SortFunc(p.Rows, compareValues)
	slices.SortFunc(p.Cols, compareValues)
	p.Cells = make([][]cell, len(p.Rows))
	for i, rv := range p.Rows {
		p.Cells[i] = make([]cell, len(p.Cols))
		for j, cv := range p.Cols {
			p.Cells[i][j] = summarise(groups[[2]string{rv, cv}])
		}
	}
	return p, skipped
}

// columnName joins column parameter values as a column name's prefix:
// by "_", lower-cased, other characters than letters and digits as "_".
func columnName(parts []string) string {
	s := strings.ToLower(strings.Join(parts, "_"))
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

// number reads a parameter's value as a number: its leading decimal
// number (10 of "10ms", 1.5 of "1.5M"), ok false when it has none.
func number(s string) (float64, bool) {
	v, _, ok := quantity(s)
	return v, ok
}

// quantity splits a value into its leading decimal number and what
// follows (10 and "ms" of "10ms", 1.5 and "Mbit/s" of "1.5 Mbit/s").
func quantity(s string) (v float64, unit string, ok bool) {
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.' || end == 0 && (s[end] == '-' || s[end] == '+')) {
		end++
	}
	v, err := strconv.ParseFloat(s[:end], 64)
	return v, strings.TrimSpace(s[end:]), err == nil
}

// A unit family: the units of one dimension and what each is worth in
// the first, the family's base.
type family struct {
	base  string
	units map[string]float64
}

// families are the units a parameter's value may carry, lower-cased:
// times, bit rates (bps, Mbit/s, tc's mbit), sizes in bytes (KB as 1000,
// KiB as 1024), percentages, bare multipliers.
var families = []family{
	{"s", map[string]float64{"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1, "sec": 1, "min": 60}},
	{"bit/s", map[string]float64{"bit/s": 1, "bps": 1, "b/s": 1, "kbit/s": 1e3, "kbps": 1e3, "kbit": 1e3,
		"mbit/s": 1e6, "mbps": 1e6, "mbit": 1e6, "gbit/s": 1e9, "gbps": 1e9, "gbit": 1e9}},
	{"B", map[string]float64{"b": 1, "byte": 1, "bytes": 1, "kb": 1e3, "kib": 1 << 10, "mb": 1e6, "mib": 1 << 20, "gb": 1e9, "gib": 1 << 30}},
	{"%", map[string]float64{"%": 1, "pct": 1, "percent": 1}},
	// A bare multiplier (iperf3's -b 20M, a size of 64K): a number.
	{"", map[string]float64{"k": 1e3, "m": 1e6, "g": 1e9}},
}

// inBaseUnit reads a value with its unit as a number in its family's base
// unit: 0.5 and "s" for "500ms", 2e7 and "bit/s" for "20Mbit/s"; a
// number with no unit, or with one no family knows, as it is ("" or the
// unit as written).
func inBaseUnit(s string) (v float64, unit string, ok bool) {
	v, u, ok := quantity(s)
	if !ok || u == "" {
		return v, "", ok
	}
	lu := strings.ToLower(u)
	for _, f := range families {
		if k, known := f.units[lu]; known {
			return v * k, f.base, true
		}
	}
	return v, u, true
}

// scale reads values as numbers for one axis: in the unit the values
// share, or, when their units differ but are of one family (500ms and
// 1s), in the family's base unit; with no unit, in unit (what the file
// name pattern writes after the value). ok is false for a value that is
// no number.
func scale(values []string, unit string) (xs []float64, axis string, ok []bool) {
	xs, ok = make([]float64, len(values)), make([]bool, len(values))
	units := map[string]bool{}
	bases := map[string]bool{}
	for _, s := range values {
		if _, u, k := quantity(s); k {
			units[u] = true
			_, b, _ := inBaseUnit(s)
			bases[b] = true
		}
	}
	same := len(units) == 1
	for i, s := range values {
		if same {
			xs[i], ok[i] = number(s)
		} else {
			xs[i], _, ok[i] = inBaseUnit(s)
		}
	}
	switch {
	case same:
		for u := range units {
			axis = u
		}
	case len(bases) == 1:
		for b := range bases {
			axis = b
		}
	}
	if axis == "" {
		axis = unit
	}
	return xs, axis, ok
}

// compareValues orders parameter values: numbers by value, before words,
// words alphabetically.
func compareValues(a, b string) int {
	x, ux, okx := inBaseUnit(a)
	y, uy, oky := inBaseUnit(b)
	if okx && oky && ux != uy { // no common unit: by the numbers as written
		x, _ = number(a)
		y, _ = number(b)
	}
	switch {
	case okx && oky && x != y:
		return cmp.Compare(x, y)
	case okx != oky:
		if okx {
			return -1
		}
		return 1
	}
	return cmp.Compare(a, b)
}
