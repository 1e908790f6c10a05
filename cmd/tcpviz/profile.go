package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startProfile writes a CPU profile of the run to the file that
// TCPVIZ_CPUPROFILE names, and a heap profile at its end to the one
// TCPVIZ_MEMPROFILE names, for `go tool pprof` (issue 28's account of
// where the time and memory go); the returned function ends them.
func startProfile(stderr io.Writer) func() {
	heap := os.Getenv("TCPVIZ_MEMPROFILE")
	path := os.Getenv("TCPVIZ_CPUPROFILE")
	if path == "" {
		return func() { writeHeapProfile(heap, stderr) }
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
		writeHeapProfile(heap, stderr)
	}
}

// writeHeapProfile writes the heap's profile to path, if set.
func writeHeapProfile(path string, stderr io.Writer) {
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("heap").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "tcpviz: TCPVIZ_MEMPROFILE: %v\n", err)
	}
}
