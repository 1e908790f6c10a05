package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"tcpviz/reassembly"
)

// input is one capture to read: a file, or standard input ("-").
type input struct {
	name    string // as shown to the user and written in the file column
	path    string // "" for standard input
	regular bool   // a regular file, which can be read more than once
}

// display is the input's name fit for a message or a title: standard
// input said so, control characters escaped.
func (in input) display() string {
	if in.path == "" {
		return "standard input"
	}
	return escapeName(in.name)
}

// escapeName quotes a name that holds control characters or invalid
// UTF-8, so that a message stays one line and no terminal escape passes.
func escapeName(s string) string {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\uFFFD' || (r >= 0x80 && r < 0xa0) {
			q := strconv.Quote(s)
			return q[1 : len(q)-1]
		}
	}
	return s
}

// expandInputs turns command-line arguments into captures: files as named,
// directories walked recursively keeping only files that start like a
// capture, "-" for standard input.
func expandInputs(args []string) ([]input, error) {
	var out []input
	for _, a := range args {
		if a == "-" {
			out = append(out, input{name: "-"})
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", escapeName(a), unwrapPathError(err))
		}
		if !st.IsDir() {
			out = append(out, input{name: a, path: a, regular: st.Mode().IsRegular()})
			continue
		}
		var found []input
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() {
				return nil
			}
			if looksLikeCapture(p) {
				found = append(found, input{name: p, path: p, regular: true})
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", escapeName(a), unwrapPathError(err))
		}
		sort.Slice(found, func(i, j int) bool { return found[i].name < found[j].name })
		out = append(out, found...)
	}
	return out, nil
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// looksLikeCapture reports whether the file at p is a capture we can read,
// looking through compression.
func looksLikeCapture(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 8)
	n, _ := io.ReadFull(f, head)
	if !reassembly.Sniff(head[:n]) {
		return false
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return false
	}
	_, err = reassembly.NewReader(f)
	return err == nil
}

// source is an input ready to be read, once or several times: a regular
// file is opened again for each pass; anything else (standard input, a
// pipe, a FIFO, /dev/stdin, a process substitution) is read exactly once,
// into a temporary file when more than one pass is needed. close releases
// what it opened.
type source struct {
	in    input
	stdin io.Reader
	path  string // what open reads: the file, or the spool ("" to read stdin once)
	files []*os.File
	spool string
}

// newSource prepares in for reading; passes is how many times it will be
// read (1 or 2). A non-regular input read twice is spooled, after its
// first bytes were checked to start a capture.
func newSource(in input, stdin io.Reader, passes int) (*source, error) {
	s := &source{in: in, stdin: stdin, path: in.path}
	if in.regular || passes < 2 {
		return s, nil
	}
	var r io.Reader = stdin
	if in.path != "" {
		f, err := os.Open(in.path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.display(), unwrapPathError(err))
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReader(r)
	head, _ := br.Peek(8)
	if !reassembly.Sniff(head) {
		if len(head) == 0 {
			return nil, fmt.Errorf("%s: empty: %w", in.display(), reassembly.ErrNotCapture)
		}
		return nil, fmt.Errorf("%s: %w", in.display(), reassembly.ErrNotCapture)
	}
	tmp, err := os.CreateTemp("", "tcpviz-spool-*")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.display(), err)
	}
	s.spool, s.path = tmp.Name(), tmp.Name()
	_, err = io.Copy(tmp, br)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		s.close()
		return nil, fmt.Errorf("%s: %w", in.display(), err)
	}
	return s, nil
}

// open starts one pass over the capture. Errors name the input.
func (s *source) open() (*reassembly.Reader, error) {
	var r io.Reader
	if s.path == "" {
		if s.stdin == nil {
			return nil, fmt.Errorf("%s: already read", s.in.display())
		}
		r, s.stdin = bufio.NewReader(s.stdin), nil
	} else {
		f, err := os.Open(s.path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.in.display(), unwrapPathError(err))
		}
		s.files = append(s.files, f)
		r = f
	}
	rd, err := reassembly.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.in.display(), err)
	}
	return rd, nil
}

// close closes what open opened and removes the spool.
func (s *source) close() {
	for _, f := range s.files {
		f.Close()
	}
	s.files = nil
	if s.spool != "" {
		os.Remove(s.spool)
	}
}

// captureBase is the capture's file name without compression and capture
// extensions, for derived output names ("stdin" for standard input).
func captureBase(in input) string {
	if in.path == "" {
		return "stdin"
	}
	b := filepath.Base(in.name)
	for _, ext := range []string{".gz", ".zst", ".zstd"} {
		b = strings.TrimSuffix(b, ext)
	}
	switch strings.ToLower(filepath.Ext(b)) {
	case ".pcap", ".pcapng", ".cap", ".snoop", ".dmp", ".trace":
		b = strings.TrimSuffix(b, filepath.Ext(b))
	}
	if b == "" {
		b = "capture"
	}
	return b
}

// extOf is a file name's extension, as typed.
func extOf(name string) string { return filepath.Ext(name) }

// baseName is the last element of a path.
func baseName(p string) string { return filepath.Base(p) }
