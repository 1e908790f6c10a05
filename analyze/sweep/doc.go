// Package sweep makes experiments of captures (`tcpviz sweep`): each
// capture's parameters read from its file name, one metric per capture,
// and the runs grouped by parameters, repeated runs summarised by their
// mean, standard deviation and 95% confidence interval.
//
// It is a step of analysis beside package analyze: each capture's main
// flow is read through analyze.Run (MainFlow), and the Pivot is rendered
// by charts.
package sweep
