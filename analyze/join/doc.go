// Package join lines up captures of the same transfers taken at different
// points of the path (`tcpviz join`): it finds each packet again in the
// next capture, estimates the captures' clock offset from the one-way
// delays of both directions, and says per hop and direction what the path
// between two captures did (packets lost, reordered and duplicated
// between them, one-way and queueing delay).
//
// It is a step of analysis beside package analyze: it reads each capture
// through analyze.Run, and its tables and graphs (analyze.Graph) are
// rendered by charts.
package join
