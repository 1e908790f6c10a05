// Command tcpviz turns packet captures into TCP graphs and statistics.
package main

import "os"

func main() {
	cleanOnSignal(os.Stderr)
	stop := startProfile(os.Stderr)
	code := run(os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
