// Package reassembly is the first step of the tcpviz pipeline: it reads
// capture files (pcap, pcapng, Sun snoop, optionally gzip or zstd
// compressed), decodes link, IP and TCP headers into plain Segment values,
// and tracks TCP connections, numbering them as Wireshark's tcp.stream and
// unwrapping sequence numbers to 64 bits.
//
// It does not interpret TCP behaviour (retransmissions, RTT, windows); that
// is package analyze. It never touches the file system: callers hand it an
// io.Reader.
package reassembly
