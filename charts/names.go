package charts

import (
	"fmt"
	"hash/fnv"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// The names of the files tcpviz derives from its inputs' names: every
// rule that makes one, so that cmd only joins it to a directory and
// writes it.

// NameMax is the longest file name (one path element) Linux and macOS
// file systems take, in bytes.
const NameMax = 255

// TempPattern is the os.CreateTemp pattern of the temporary file for an
// output named base: ".<base>.tmp<random>", with base shortened so that
// the whole stays within NameMax (os.CreateTemp adds at most 20 digits).
func TempPattern(base string) string {
	return "." + ShortName(base, NameMax-len(".")-len(".tmp")-20) + ".tmp*"
}

// ShortName fits name into max bytes: when too long, it keeps the start
// and the end (the extension, the graph and stream suffix) and puts a hash
// of the whole name between them, so two long names stay different.
func ShortName(name string, max int) string {
	if len(name) <= max {
		return name
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	mid := fmt.Sprintf("~%08x~", h.Sum32())
	tailLen := min(48, (max-len(mid))/2)
	tail := name[len(name)-tailLen:]
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	head := name[:max-len(mid)-len(tail)]
	for len(head) > 0 && !utf8.ValidString(head) {
		head = head[:len(head)-1]
	}
	return head + mid + tail
}

// SafeName turns text derived from a capture name or addresses into one
// file-name component: no path separators, no "..", no control characters.
func SafeName(s string) string {
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

// OutputPath joins a derived file name, made safe and short, to the
// output directory and checks that the result stays inside it.
func OutputPath(dir, name string) (string, error) {
	p := filepath.Join(dir, ShortName(SafeName(name), NameMax))
	rel, err := filepath.Rel(dir, p)
	if err != nil || strings.HasPrefix(rel, "..") || filepath.IsAbs(rel) {
		return "", fmt.Errorf("%s: output name escapes %s", name, dir)
	}
	return p, nil
}

// CaptureBase is a capture's file name without its compression and
// capture extensions, the start of the names derived from it
// (<base>-seq-s1.png, <base>-report); "capture" when nothing is left.
func CaptureBase(name string) string {
	b := filepath.Base(name)
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

// PartitionName is the Hive-style partition folder of a capture whose
// derived base is base and whose full name (its absolute path) is full:
// capture=<base>-<hash of full>, so that a/x.pcap and b/x.pcap never
// share one, across shards and working directories too (not file=, which
// would clash with the file column).
func PartitionName(base, full string) string {
	h := fnv.New32a()
	h.Write([]byte(full))
	return fmt.Sprintf("capture=%s-%08x", url.PathEscape(SafeName(base)), h.Sum32())
}

// CaptureTitle is how a capture is named in a graph's title: its file
// name, or standard input.
func CaptureTitle(name string, stdin bool) string {
	if stdin {
		return "standard input"
	}
	return EscapeName(filepath.Base(name))
}

// NaturalLess orders names as people do: runs of digits by their value
// (run_9 before run_10), the rest byte by byte; equal values in other
// spellings (007, 7) by their bytes. Inputs found in a directory are
// read in this order (sweep_10ms before sweep_100ms).
func NaturalLess(a, b string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			x, y := strings.TrimLeft(a[si:i], "0"), strings.TrimLeft(b[sj:j], "0")
			if len(x) != len(y) {
				return len(x) < len(y)
			}
			if x != y {
				return x < y
			}
			continue
		}
		if ca != cb {
			return ca < cb
		}
		i++
		j++
	}
	if len(a)-i != len(b)-j {
		return len(a)-i < len(b)-j
	}
	return a < b
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// GraphFormatOf is the format of a graph written to the file out names:
// its points as CSV for "-" (standard output), else as its extension
// says.
func GraphFormatOf(out string) (GraphFormat, error) {
	if out == "-" {
		return PointsCSV, nil
	}
	g, err := ParseGraphFormat(strings.TrimPrefix(filepath.Ext(out), "."))
	if err != nil {
		return "", fmt.Errorf("-o %s: unknown output format (want .png, .svg, .pdf, .csv or .json)", out)
	}
	return g, nil
}

// FigureOf is the picture a file name asks for (.png .svg .pdf, in any
// case), "" for any other name: a table.
func FigureOf(out string) GraphFormat {
	switch ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(out), ".")); ext {
	case "png", "svg", "pdf":
		return GraphFormat(ext)
	}
	return ""
}
