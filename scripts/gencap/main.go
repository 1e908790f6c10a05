// Command gencap writes a synthetic capture to standard output, for
// `make bench-compare`:
//
//	go run ./scripts/gencap flood N RATE          N SYNs, RATE a second
//	go run ./scripts/gencap retrans N OUTSTANDING N retransmissions of one segment, 25 ms apart
//	go run ./scripts/gencap tunnels DIR           the crafted tunnel, link-type and fragment captures (testdata/tunnels)
//	go run ./scripts/gencap repeat N CAPTURE      N copies of a pcap one after the other, ports moved (gencap.Repeat)
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"tcpviz/internal/gencap"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "tunnels" {
		for _, t := range slices.Concat(gencap.Tunnels(), gencap.Fragments(), gencap.ICMPErrors(), gencap.Odd()) {
			p := filepath.Join(os.Args[2], t.Name)
			if err := os.WriteFile(p, t.Capture(), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "gencap:", err)
				os.Exit(1)
			}
			fmt.Println(p)
		}
		return
	}
	if len(os.Args) == 4 && os.Args[1] == "repeat" {
		n, err := strconv.Atoi(os.Args[2])
		if err == nil && n < 1 {
			err = fmt.Errorf("%d copies", n)
		}
		if err == nil {
			var unreached int64
			unreached, err = gencap.Repeat(os.Stdout, n, func() (io.ReadCloser, error) { return os.Open(os.Args[3]) })
			if unreached > 0 {
				fmt.Fprintf(os.Stderr, "gencap: warning: %d frames carry their ports behind a header repeat does not read (a tunnel, an IPv6 extension header, LLC): their connections come back in every copy\n", unreached)
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "gencap:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: gencap flood N RATE | retrans N OUTSTANDING | tunnels DIR | repeat N CAPTURE")
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
