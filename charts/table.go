package charts

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// TableFormat selects how a Table is written.
type TableFormat string

// Table formats.
const (
	CSV       TableFormat = "csv"
	JSON      TableFormat = "json"
	TextTable TableFormat = "table"
)

// ParseTableFormat checks a --format value.
func ParseTableFormat(s string) (TableFormat, error) {
	switch f := TableFormat(strings.ToLower(s)); f {
	case CSV, JSON, TextTable:
		return f, nil
	}
	return "", fmt.Errorf("unknown format %q (want csv, json or table)", s)
}

// Kind says how a column's cells are typed in JSON.
type Kind uint8

// Column kinds.
const (
	String Kind = iota
	Number
	Bool
)

// Column is a table column.
type Column struct {
	Name string
	Kind Kind
}

// Table is tidy data: one row per observation, cells as text. An empty
// cell means "not measurable".
type Table struct {
	Columns []Column
	Rows    [][]string
}

// Write writes the table in format f. CSV is RFC 4180 with a header and
// no padding; JSON is an array of objects (numbers as numbers, empty cells
// as null); TextTable aligns columns for a terminal.
func (t *Table) Write(w io.Writer, f TableFormat) error {
	switch f {
	case JSON:
		return t.writeJSON(w)
	case TextTable:
		return t.writeText(w)
	default:
		return t.WriteCSV(w, true)
	}
}

// WriteCSV writes the rows as CSV, with the header line when header is true.
func (t *Table) WriteCSV(w io.Writer, header bool) error {
	cw := csv.NewWriter(w)
	if header {
		names := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			names[i] = c.Name
		}
		if err := cw.Write(names); err != nil {
			return err
		}
	}
	if err := cw.WriteAll(t.Rows); err != nil {
		return err
	}
	return cw.Error()
}

func (t *Table) writeJSON(w io.Writer) error {
	var b strings.Builder
	b.WriteString("[")
	for i, row := range t.Rows {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  {")
		for j, c := range t.Columns {
			if j > 0 {
				b.WriteString(", ")
			}
			name, _ := json.Marshal(c.Name)
			b.Write(name)
			b.WriteString(": ")
			cell := ""
			if j < len(row) {
				cell = row[j]
			}
			b.WriteString(jsonValue(cell, c.Kind))
		}
		b.WriteString("}")
	}
	b.WriteString("\n]\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func jsonValue(cell string, k Kind) string {
	if cell == "" && k != String {
		return "null"
	}
	switch k {
	case Number:
		if _, err := strconv.ParseFloat(cell, 64); err == nil {
			return cell
		}
	case Bool:
		if v, err := strconv.ParseBool(cell); err == nil {
			return strconv.FormatBool(v)
		}
	}
	s, _ := json.Marshal(cell)
	return string(s)
}

func (t *Table) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	line := func(cells []string) {
		for _, c := range cells {
			fmt.Fprintf(tw, "%s\t", c)
		}
		fmt.Fprintln(tw)
	}
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	line(names)
	for _, r := range t.Rows {
		line(r)
	}
	return tw.Flush()
}
