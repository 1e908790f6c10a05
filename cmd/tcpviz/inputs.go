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

	"tcpviz/reassembly"
)

// input is one capture to read: a file, or standard input ("-").
type input struct {
	name string // as shown to the user and written in the file column
	path string // "" for standard input
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
			return nil, fmt.Errorf("%s: %w", a, unwrapPathError(err))
		}
		if !st.IsDir() {
			out = append(out, input{name: a, path: a})
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
				found = append(found, input{name: p, path: p})
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a, unwrapPathError(err))
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

// openedCapture is an open capture reader and what to close after it.
type openedCapture struct {
	*reassembly.Reader
	close func() error
}

// open opens an input for reading. Errors name the input.
func (in input) open(stdin io.Reader) (*openedCapture, error) {
	if in.path == "" {
		r, err := reassembly.NewReader(bufio.NewReader(stdin))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.name, err)
		}
		return &openedCapture{r, func() error { return nil }}, nil
	}
	f, err := os.Open(in.path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.name, unwrapPathError(err))
	}
	r, err := reassembly.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", in.name, err)
	}
	return &openedCapture{r, f.Close}, nil
}
