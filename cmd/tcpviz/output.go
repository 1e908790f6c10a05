package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// writeAtomic writes a file through a temporary file in the same directory
// and a rename, so a reader never sees a half-written output and a failed
// run leaves no partial file. It refuses to write over any of the inputs.
func writeAtomic(path string, inputs []input, write func(io.Writer) error) error {
	if err := refuseInput(path, inputs); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	return nil
}

// refuseInput returns an error when path names one of the inputs.
func refuseInput(path string, inputs []input) error {
	out, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	outInfo, statErr := os.Stat(path)
	for _, in := range inputs {
		if in.path == "" {
			continue
		}
		p, err := filepath.Abs(in.path)
		if err == nil && p == out {
			return usagef("%s: refusing to overwrite an input", path)
		}
		if statErr == nil {
			if inInfo, err := os.Stat(in.path); err == nil && os.SameFile(inInfo, outInfo) {
				return usagef("%s: refusing to overwrite an input", path)
			}
		}
	}
	return nil
}

// safeName turns text derived from a capture name or addresses into one
// file-name component: no path separators, no "..", no control characters.
func safeName(s string) string {
	s = filepath.Base(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '/' || r == '\\' || r == ':' || r < 0x20 || r == 0x7f:
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	out := strings.TrimLeft(b.String(), ".")
	if out == "" {
		out = "capture"
	}
	return out
}

// outputPath joins a derived file name to the output directory and checks
// that the result stays inside it.
func outputPath(dir, name string) (string, error) {
	p := filepath.Join(dir, safeName(name))
	rel, err := filepath.Rel(dir, p)
	if err != nil || strings.HasPrefix(rel, "..") || filepath.IsAbs(rel) {
		return "", fmt.Errorf("%s: output name escapes %s", name, dir)
	}
	return p, nil
}
