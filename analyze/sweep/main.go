package sweep

import (
	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// MainFlow reads a capture and finds the flow a sweep measures: the TCP
// or UDP flow that carried the most payload (of proto, "tcp" or "udp",
// when set; among those keep keeps, when set), nil when there is none;
// st are, for a TCP connection, the statistics of its main direction
// (the one that carried more payload, c2s when equal). The error is the
// damage that stopped the read; what was read before it counts.
func MainFlow(r *reassembly.Reader, proto string, keep func(*reassembly.FlowView) bool) (main *analyze.FlowResult, st *analyze.DirStats, warnings []analyze.Warning, err error) {
	conns := map[int]analyze.ConnResult{}
	out, err := analyze.Run(r, analyze.RunOptions{Analyze: true, Keep: -1,
		OnConn: func(cr *analyze.ConnResult) { conns[cr.Info.Stream] = *cr },
		OnFlow: func(f *analyze.FlowResult) {
			name := reassembly.ProtoName(f.Proto)
			if name != "tcp" && name != "udp" || proto != "" && name != proto {
				return
			}
			if v := f.View(); keep != nil && !keep(&v) {
				return
			}
			if main == nil || f.Bytes[0]+f.Bytes[1] > main.Bytes[0]+main.Bytes[1] {
				cp := *f
				if f.App != nil {
					app := *f.App
					cp.App = &app
				}
				main = &cp
			}
		}})
	if out != nil {
		warnings = out.Warnings
	}
	if main != nil && main.Proto == reassembly.ProtoTCP {
		if cr, ok := conns[main.Flow]; ok {
			st = &cr.Stats[reassembly.MainDirection(cr.Info.Bytes)]
		}
	}
	return main, st, warnings, err
}
