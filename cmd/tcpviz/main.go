// Command tcpviz turns packet captures into TCP graphs and statistics.
package main

import "os"

func main() {
	cleanOnSignal(os.Stderr)
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
