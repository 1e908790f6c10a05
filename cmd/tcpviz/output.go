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
	if err := refuseSpecial(path); err != nil {
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

// refuseSpecial returns an error when path exists and is not a regular
// file: an output never replaces a symlink, a device node, a FIFO or a
// directory it did not create.
func refuseSpecial(path string) error {
	st, err := os.Lstat(path)
	if err != nil || st.Mode().IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch {
	case st.Mode()&os.ModeSymlink != 0:
		what = "a symbolic link"
	case st.IsDir():
		what = "a directory"
	case st.Mode()&(os.ModeDevice|os.ModeCharDevice) != 0:
		what = "a device"
	}
	return usagef("%s: refusing to write over %s", escapeName(path), what)
}

// makeDir creates directory dir (its parents as needed) for outputs. An
// existing dir must be a real directory, not a symbolic link to one.
func makeDir(dir string) error {
	if st, err := os.Lstat(dir); err == nil {
		if st.Mode()&os.ModeSymlink != 0 || !st.IsDir() {
			return fmt.Errorf("%s: refusing to write into it: not a directory this run can trust (a symbolic link or a file)", escapeName(dir))
		}
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s: %w", escapeName(dir), unwrapPathError(err))
	}
	return nil
}

// derivedBases returns, for each input, the base of the file names derived
// from it (<base>-seq-s1.png, <base>-report): the capture's name without
// its extensions, or, where two inputs would share that, their names as
// given with path separators replaced, so that one run never writes one
// derived name twice. The same capture named twice is a usage error.
func derivedBases(ins []input) ([]string, error) {
	out := make([]string, len(ins))
	count := map[string]int{}
	for i, in := range ins {
		out[i] = captureBase(in)
		count[out[i]]++
	}
	seen := map[string]string{}
	for i, in := range ins {
		if count[out[i]] > 1 {
			out[i] = strings.NewReplacer("/", "_", "\\", "_").Replace(filepath.Clean(in.name))
			if in.path == "" {
				out[i] = "stdin"
			}
		}
		if prev, ok := seen[out[i]]; ok {
			return nil, usagef("%s and %s would write the same output names: name each capture once", escapeName(prev), escapeName(in.name))
		}
		seen[out[i]] = in.name
	}
	return out, nil
}
