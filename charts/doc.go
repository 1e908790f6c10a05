// Package charts is the last library step of the tcpviz pipeline: it
// renders what package analyze computed, as graphs (PNG, SVG, PDF through
// gonum.org/v1/plot) and as tables and point lists (CSV, JSON, NDJSON,
// aligned text, Parquet), and decides what the commands print: each
// table's columns and how a capture's results become its rows
// (TableKind), the one writer per format (NewRowWriter), the titles,
// captions and warnings said of a graph (ConnGraph, Title), the thinning
// of a graph for a picture (PlotOptions.Thin), and a report's folder
// (ReportBuilder). Everything is written to an io.Writer, or through a
// Put callback for a folder's files; choosing and creating files is the
// command's job.
package charts
