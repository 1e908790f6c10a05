package charts

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// Named is an input of a run as the names derived from it see it.
type Named struct {
	Name string // as the user named it (CAPTURE#udpN's keeps the suffix)
	Path string // the capture's path, "" for standard input
	// Abs is the capture's absolute path (partitions hash it), "" when
	// it has none: Name is hashed.
	Abs       string
	Stream    int // CAPTURE#N (HasStream): connection N
	HasStream bool
	UDP       bool // CAPTURE#udp[N]: UDP flow UDPFlow (-1: the busiest)
	UDPFlow   int
	Joined    []string // A+B: the paths of the captures joined with it (B)
	Failed    bool     // it cannot be read: it writes nothing
}

// Base is the start of the names derived from the input: its capture's
// CaptureBase, "stdin" for standard input, a+b for joined captures A+B.
func (in Named) Base() string {
	switch {
	case in.Path == "":
		return "stdin"
	case in.Joined != nil:
		b := CaptureBase(in.Path)
		for _, j := range in.Joined {
			b += "+" + CaptureBase(j)
		}
		return b
	}
	return CaptureBase(in.Name)
}

// Display is the input's name fit for a message or a title: standard
// input said so, control characters escaped.
func (in Named) Display() string {
	if in.Path == "" {
		return "standard input"
	}
	return EscapeName(in.Name)
}

// Given is the input as the user named it, in a message: Display with
// CAPTURE#N's stream (CAPTURE#udpN's name keeps its suffix).
func (in Named) Given() string {
	if in.HasStream && !in.UDP {
		return in.Display() + "#" + strconv.Itoa(in.Stream)
	}
	return in.Display()
}

// StreamFilter keeps the flow CAPTURE#N (TCP stream N) or CAPTURE#udpN
// (UDP flow N) names, nil for a whole capture.
func (in Named) StreamFilter() reassembly.Filter {
	switch {
	case in.HasStream:
		return reassembly.StreamFilter{Set: map[int]bool{in.Stream: true}, Proto: "tcp"}
	case in.UDP:
		return reassembly.StreamFilter{Set: map[int]bool{in.UDPFlow: true}, Proto: "udp"}
	}
	return nil
}

// Absent is the error of the flow CAPTURE#N or CAPTURE#udpN names not
// found in the capture.
func (in Named) Absent() error {
	if in.UDP {
		return fmt.Errorf("%s: no UDP flow %d", in.Display(), in.UDPFlow)
	}
	return fmt.Errorf("%s: no stream %d", in.Display(), in.Stream)
}

// InputRefused is the error (a usage error) of an input whose form
// command cmd does not read (it would take the whole capture, or the
// first of A+B): joined captures A+B are report's (and compare's, which
// reads its own arguments); CAPTURE#udpN is a UDP flow for the graph
// commands, compare, sweep, flows and io, CAPTURE#udp (the busiest) for
// the first three; CAPTURE#N is every command's.
func InputRefused(cmd string, in Named) error {
	if in.Joined != nil && cmd != "report" {
		return fmt.Errorf("%s: %s: joined captures (A+B) are for report and compare; join and ladder take the captures as separate arguments", cmd, in.Display())
	}
	if !in.UDP {
		return nil
	}
	switch {
	case len(analyze.Graphs(cmd)) > 0 || cmd == "sweep":
		return nil
	case (cmd == "flows" || cmd == "io") && in.UDPFlow >= 0:
		return nil
	case cmd == "flows" || cmd == "io":
		return fmt.Errorf("%s: %s: name the UDP flow by its number, CAPTURE#udpN (flows lists them)", cmd, EscapeName(in.Name))
	case cmd == "report":
		return fmt.Errorf("report: %s: report picks its main flow itself, of either transport: name the capture alone, or with --filter udp for its busiest UDP flow", EscapeName(in.Name))
	}
	return fmt.Errorf("%s: %s: CAPTURE#udp names a UDP flow for the graph commands, compare, sweep, flows and io; %s reads TCP connections: name the capture alone", cmd, EscapeName(in.Name), cmd)
}

// DerivedBases returns, for each input, the base of the file names derived
// from it (<base>-seq-s1.png, <base>-report): its Base, or, where two
// inputs would share that, their names as given with path separators
// replaced, so that one run never writes one derived name twice. The same
// capture named twice is an error (a usage error), but for streams given
// apart (CAPTURE#0, CAPTURE#1) when the names hold the stream
// (streamNamed: the graphs').
func DerivedBases(ins []Named, streamNamed bool) ([]string, error) {
	out := make([]string, len(ins))
	group := map[string][]Named{}
	for i, in := range ins {
		out[i] = in.Base()
		if !in.Failed {
			group[out[i]] = append(group[out[i]], in)
		}
	}
	plain := map[string]string{}           // by base: an input without a stream
	streams := map[string]map[int]string{} // by base: the streams given
	for i, in := range ins {
		if in.Failed {
			continue // read nothing, writes nothing
		}
		if g := group[out[i]]; len(g) > 1 && !(streamNamed && streamsOfOne(g)) {
			out[i] = strings.NewReplacer("/", "_", "\\", "_").Replace(filepath.Clean(in.Name))
			if in.Path == "" {
				out[i] = "stdin"
			}
		}
		named, prev := in.Name, ""
		if in.HasStream {
			named += "#" + strconv.Itoa(in.Stream) // as given, in a message
		}
		if streamNamed && in.HasStream {
			if streams[out[i]] == nil {
				streams[out[i]] = map[int]string{}
			}
			prev = plain[out[i]]
			if p, ok := streams[out[i]][in.Stream]; ok {
				prev = p
			}
			streams[out[i]][in.Stream] = named
		} else {
			prev = plain[out[i]]
			for _, p := range streams[out[i]] {
				prev = p // a stream's names may be the busiest's
			}
			plain[out[i]] = named
		}
		if prev != "" {
			return nil, fmt.Errorf("%s and %s would write the same output names: name each capture once", EscapeName(prev), EscapeName(named))
		}
	}
	return out, nil
}

// streamsOfOne says whether ins are streams given apart of one capture
// named alike (CAPTURE#0, CAPTURE#1).
func streamsOfOne(ins []Named) bool {
	for _, in := range ins {
		if !in.HasStream || filepath.Clean(in.Name) != filepath.Clean(ins[0].Name) {
			return false
		}
	}
	return true
}

// PartitionNames are the Hive-style partition folders of the inputs
// (PartitionName), hashing each one's absolute path (and CAPTURE#N's
// stream: a partition of its own, <base>-s<N>). One input named twice is
// an error (a usage error): its partitions would be one.
func PartitionNames(ins []Named) ([]string, error) {
	out := make([]string, len(ins))
	seen := map[string]string{}
	for i, in := range ins {
		full, base, named := in.Name, in.Base(), in.Name
		if in.Abs != "" {
			full = in.Abs
		}
		switch {
		case in.HasStream:
			n := strconv.Itoa(in.Stream)
			full, base, named = full+"#"+n, base+"-s"+n, named+"#"+n
		case in.UDP && in.Path != "":
			// CAPTURE#udpN (its name keeps the suffix): the capture's
			// base and -udpN, as -sN for a stream.
			n := "udp"
			if in.UDPFlow >= 0 {
				n += strconv.Itoa(in.UDPFlow)
			}
			full, base = full+"#"+n, CaptureBase(in.Path)+"-"+n
		}
		out[i] = PartitionName(base, full)
		if in.Failed {
			continue // read nothing, writes nothing
		}
		if prev, ok := seen[out[i]]; ok {
			return nil, fmt.Errorf("%s and %s would write the same partition: name each capture once", EscapeName(prev), EscapeName(named))
		}
		seen[out[i]] = named
	}
	return out, nil
}
