package charts

import "tcpviz/analyze"

// Empty is the warning of a table whose capture held packets but none of
// the rows it lists ("no TCP connection in the capture"), "" when it held
// some or none at all.
func (t TableKind[R]) Empty(out *analyze.RunResult) string {
	if out.Streams+out.Flows > 0 || out.Packets == 0 {
		return ""
	}
	if t.Flow != nil {
		return "no IP flow in the capture"
	}
	return "no TCP connection in the capture"
}
