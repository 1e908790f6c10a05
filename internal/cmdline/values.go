package cmdline

import (
	"bufio"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"strconv"
	"strings"

	"tcpviz/internal/words"
)

// Values of flags that are words: each reads the text given (Set, as Go's
// flag.Value) and shows the value it holds (String).

// Choice is one of a fixed set of words.
type Choice struct {
	V       string
	Choices []string
}

func (f *Choice) Set(s string) error {
	for _, c := range f.Choices {
		if s == c {
			f.V = s
			return nil
		}
	}
	return fmt.Errorf("%q: want %s", s, words.Or(f.Choices))
}

func (f *Choice) String() string { return f.V }

// List is a repeatable flag collecting words (Vs); with Split, a value
// may also list several, separated by commas (Raw keeps each value as
// given).
type List struct {
	Vs    []string
	Raw   []string
	Split bool
	Want  string // what an item is, for the error of an empty one ("a non-empty name")
}

func (f *List) Set(s string) error {
	f.Raw = append(f.Raw, s)
	parts := []string{s}
	if f.Split {
		parts = strings.Split(s, ",")
	}
	for _, p := range parts {
		if p = strings.TrimSpace(p); p == "" {
			want := f.Want
			if want == "" {
				want = "a non-empty name"
			}
			return fmt.Errorf("%q: want %s", s, want)
		}
		f.Vs = append(f.Vs, p)
	}
	return nil
}

func (f *List) String() string { return strings.Join(f.Vs, ",") }

// Share is share I of N (--shard i/n; N 0: every input): the inputs whose
// names hash to I modulo N (InShare), so that a job runner splits an
// archive across workers without coordination.
type Share struct{ I, N int }

// maxShares bounds N.
const maxShares = 1 << 20

func (s *Share) Set(v string) error {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return fmt.Errorf("%q: want i/n with 0 ≤ i < n, such as 0/4", v)
	}
	if n > maxShares {
		// (Said apart: 0 ≤ i < n held of 0/9223372036854775807, found
		// by a tester.)
		return fmt.Errorf("%q: want at most %d shares", v, maxShares)
	}
	s.I, s.N = i, n
	return nil
}

func (s *Share) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Holds says whether the input named name (its path as named) is in the
// share: FNV-1a of the name modulo N is I, whatever the inputs' order.
func (s Share) Holds(name string) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()%uint64(s.N) == uint64(s.I)
}

// ReadPaths returns the paths listed in r, one a line (a CRLF line end
// is one), as --files-from reads them. Lines empty or of only white
// space, and comments (lines that start with #), are skipped; nothing
// else is interpreted: spaces around a name belong to it.
//
// A list is refused at its first line that holds a NUL byte (no path
// does: a capture or another binary file named by mistake gave a line of
// error a "line" before), one longer than maxPathLine, or past maxPaths
// paths.
func ReadPaths(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxPathLine)
	n := 0 // lines read
	for sc.Scan() {
		n++
		line := strings.TrimSuffix(sc.Text(), "\r")
		switch {
		case strings.IndexByte(line, 0) >= 0:
			return nil, fmt.Errorf("line %d holds NUL bytes: not a list of paths, one a line (a capture? name it as an input)", n)
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
			continue
		case len(out) == maxPaths:
			return nil, fmt.Errorf("more than %d paths", maxPaths)
		}
		out = append(out, line)
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return nil, fmt.Errorf("line %d is longer than %d MiB: not a list of paths, one a line", n+1, maxPathLine>>20)
	}
	return out, sc.Err()
}

// maxPathLine and maxPaths bound a list of paths: its lines and how many.
const (
	maxPathLine = 1 << 20
	maxPaths    = 1 << 22
)
