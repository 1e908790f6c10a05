// Command gencap writes a synthetic capture to standard output, for
// `make bench-compare`:
//
//	go run ./scripts/gencap flood N RATE          N SYNs, RATE a second
//	go run ./scripts/gencap retrans N OUTSTANDING N retransmissions of one segment, 25 ms apart
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"

	"tcpviz/internal/gencap"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: gencap flood N RATE | retrans N OUTSTANDING")
		os.Exit(2)
	}
	a, err1 := strconv.Atoi(os.Args[2])
	b, err2 := strconv.Atoi(os.Args[3])
	if err1 != nil || err2 != nil || a < 0 || b <= 0 {
		fmt.Fprintln(os.Stderr, "gencap: N and RATE/OUTSTANDING must be counts")
		os.Exit(2)
	}
	var r io.Reader
	switch os.Args[1] {
	case "flood":
		r = gencap.SynFlood(a, b)
	case "retrans":
		r = gencap.Retransmissions(a, b, 1000, 25_000)
	default:
		fmt.Fprintln(os.Stderr, "gencap: unknown capture", os.Args[1])
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	_, err := io.Copy(w, r)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencap:", err)
		os.Exit(1)
	}
}
