package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startProfile writes a CPU profile of the run to the file that
// TCPVIZ_CPUPROFILE names, for `go tool pprof` (issue 28's account of
// where the time goes); the returned function ends it.
func startProfile(stderr io.Writer) func() {
	path := os.Getenv("TCPVIZ_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(stderr, "tcpviz: TCPVIZ_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
