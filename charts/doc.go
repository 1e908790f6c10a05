// Package charts is the last library step of the tcpviz pipeline: it
// renders what package analyze computed, as graphs (PNG, SVG, PDF through
// gonum.org/v1/plot) and as tables and point lists (CSV, JSON, aligned
// text). Everything is written to an io.Writer; choosing files is the
// command's job.
package charts
