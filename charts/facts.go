package charts

import (
	"fmt"
	"strconv"

	"tcpviz/analyze"
	"tcpviz/internal/words"
)

// vantagePhrase says where a capture sits on path ("the path", "this
// direction's path"): at its sender or receiver, in its middle, or at an
// unknown point of it. The one wording of a vantage, for the report and
// for messages.
func vantagePhrase(v analyze.Vantage, path string) string {
	switch v {
	case analyze.VantageSender:
		return "at the sender of " + path
	case analyze.VantageReceiver:
		return "at the receiver of " + path
	case analyze.VantageMiddle:
		return "in the middle of " + path
	}
	return "at an unknown point of " + path
}

// reportFacts are the headline numbers of a report's main direction:
// what the path did first, Wireshark's flags beside it.
func reportFacts(l *analyze.Loaded) []Fact {
	st := l.Stats[l.Dir]
	if l.UDP {
		return udpFacts(l)
	}
	tr := analyze.Summarize(l, analyze.TransferOptions{})
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	facts := []Fact{
		{Label: "payload sent", Value: fmt.Sprintf("%s in %s (%s)", words.Plural(st.DataBytes, "byte"), words.Plural(st.DataPackets, "packet"), words.Plural(st.UniqueBytes, "unique byte"))},
		{Label: "duration", Value: FormatSeconds(st.Duration) + " s"},
	}
	if st.HasThroughput {
		facts = append(facts, Fact{Label: "throughput", Value: words.BitRate(st.ThroughputBps)})
	}
	if st.BottleneckBps > 0 {
		facts = append(facts, Fact{Label: "bottleneck (ACK dispersion)", Value: words.BitRate(st.BottleneckBps)})
	}
	if st.HasHandshakeRTT {
		facts = append(facts, Fact{Label: "handshake RTT", Value: f(st.HandshakeRTTMs, 1) + " ms (SYN to the ACK of the SYN/ACK, tcp.analysis.initial_rtt)"})
	}
	if st.RTTSamples > 0 {
		what := "RTT min / median / max (ack_rtt)"
		if st.Path.Vantage == analyze.VantageReceiver {
			what = "ACK delay min / median / max (ack_rtt at the receiver)"
		}
		facts = append(facts, Fact{Label: what, Value: fmt.Sprintf("%s / %s / %s ms (%s)", f(st.RTTMinMs, 1), f(st.RTTMedianMs, 1), f(st.RTTMaxMs, 1), words.Plural(st.RTTSamples, "sample"))})
	}
	if st.KarnRTTSamples > 0 && st.RTTMaxMs > 2*st.KarnRTTMaxMs {
		facts = append(facts, Fact{Label: "RTT by Karn's rule min / avg / max", Value: fmt.Sprintf("%s / %s / %s ms (%s; ack_rtt's larger maximum times a loss repair)", f(st.KarnRTTMinMs, 1), f(st.KarnRTTAvgMs, 1), f(st.KarnRTTMaxMs, 1), words.Plural(st.KarnRTTSamples, "sample"))})
	}
	if ss := tr.SlowStart; ss.Found {
		facts = append(facts, Fact{Label: "slow start", Value: fmt.Sprintf("ended at %s s after %s, %s in flight (%s)", f(float64(ss.End)/1e9, 3), words.Plural(int64(ss.Rounds), "round trip"), words.Plural(ss.Flight, "byte"), ss.Reason)})
	}
	if tr.HasTimeToMB {
		facts = append(facts, Fact{Label: "first MiB delivered", Value: f(float64(tr.TimeToMB)/1e9, 3) + " s"})
	}
	facts = append(facts,
		Fact{Label: "capture point", Value: vantagePhrase(st.Path.Vantage, "this direction's path")},
		Fact{Label: "retransmissions (the path)", Value: fmt.Sprintf("%d resent, %d of them proven spurious (D-SACK, timestamps); %s lost after the capture point, %d before it; %d on timeouts, %d in fast recovery",
			st.Path.Retransmitted, st.Path.SpuriousRetransmitted, words.Plural(st.Path.LostDownstream, "segment"), st.Path.LostUpstream, st.Path.RTORetransmissions, st.Path.FastRetransmissions)},
		Fact{Label: "Wireshark's flags", Value: fmt.Sprintf("%s (%d fast, %d spurious), %d out-of-order", words.Plural(st.RetransPackets, "retransmission"), st.FastRetrans, st.SpuriousRetrans, st.OutOfOrder)},
		Fact{Label: "most bytes in flight", Value: words.Plural(st.MaxBytesInFlight, "byte")},
	)
	if w := l.Stats[l.Dir.Reverse()].MaxRwnd; w >= 0 {
		facts = append(facts, Fact{Label: "receiver's largest window", Value: words.Plural(w, "byte")})
	}
	return facts
}

// udpFacts are the headline numbers of a UDP flow: what it carried, and
// iperf3's own loss count where its test's sequence numbers are there.
func udpFacts(l *analyze.Loaded) []Fact {
	st := l.Stats[l.Dir]
	facts := []Fact{
		{Label: "datagrams", Value: fmt.Sprintf("%s in %s this way, %s the other", words.Plural(st.DataBytes, "byte"), words.Plural(st.DataPackets, "datagram"), words.Plural(l.Stats[l.Dir.Reverse()].DataPackets, "datagram"))},
		{Label: "duration", Value: FormatSeconds(st.Duration) + " s"},
	}
	if st.HasThroughput {
		facts = append(facts, Fact{Label: "throughput (reached the capture point)", Value: words.BitRate(st.ThroughputBps)})
	}
	if n := len(l.AppLoss); n > 0 {
		lost := int64(l.AppLoss[n-1].V[0])
		facts = append(facts, Fact{Label: "iperf3's loss (sequence gaps)", Value: fmt.Sprintf("%s of %d numbered (%.2f%%)", words.Plural(lost, "datagram"), lost+int64(n), 100*float64(lost)/float64(lost+int64(n)))})
	}
	return append(facts, Fact{Label: "what a UDP flow lacks", Value: "ACKs: no RTT, retransmissions, bytes in flight or windows to show"})
}
