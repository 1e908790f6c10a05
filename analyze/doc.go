// Package analyze is the second step of the tcpviz pipeline: it takes the
// segments package reassembly decoded and tracked, in capture order, and
// computes Wireshark's per-packet TCP analysis (retransmissions,
// out-of-order, duplicate ACKs, windows, RTT, ...), per-direction
// statistics, and the series the graphs plot. It does no I/O and knows
// nothing of rendering.
package analyze
