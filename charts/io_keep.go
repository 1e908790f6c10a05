package charts

import (
	"sync/atomic"

	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// IOKeep is the choice of the flows an I/O table counts
// (analyze.IOOptions.Keep): those f matches, counted in matched as the
// tables count them (f nil: every flow, nothing counted), and with
// stream ≥ 0 only that TCP connection (CAPTURE#N; seen, when set, says
// it was in the capture, whatever f says of it). Nil keeps every flow.
func IOKeep(f reassembly.Filter, matched *atomic.Int64, stream int, seen *atomic.Bool) func(*analyze.FlowResult) bool {
	if f == nil && stream < 0 {
		return nil
	}
	return func(fr *analyze.FlowResult) bool {
		if stream >= 0 && (fr.Proto != reassembly.ProtoTCP || fr.Flow != stream) {
			return false
		}
		if stream >= 0 && seen != nil {
			seen.Store(true)
		}
		if f == nil {
			return true
		}
		v := fr.View()
		ok := f.Match(&v)
		if ok {
			matched.Add(1)
		}
		return ok
	}
}
