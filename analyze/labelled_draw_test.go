package analyze

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"tcpviz/internal/golden"
)

// TestDrawScenariosReproduce: a held-out set recorded from a seed
// (scripts/labelled-corpus.sh DIR --random SEED N) is drawn again the same
// from it: scripts/draw_scenarios.py gives, line for line, the scenarios
// testdata/labelled/heldout lists for each set, whose first line names
// the seed and the count. Every setting it draws is one of
// ../shared/lab/scenario.sh's variables (where the lab is beside the
// checkout), so none is silently ignored by the recorder.
func TestDrawScenariosReproduce(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3: the scenario draw (scripts/draw_scenarios.py) is not checked")
	}
	sets, _ := filepath.Glob(filepath.Join("..", "testdata", "labelled", "heldout", "*.txt"))
	if len(sets) == 0 {
		t.Fatal("no held-out set listed in testdata/labelled/heldout")
	}
	// Read here, not by python alone: go test's cache then knows the
	// result depends on the script.
	script, err := os.ReadFile(filepath.Join("..", "scripts", "draw_scenarios.py"))
	if err != nil {
		t.Fatal(err)
	}
	known := scenarioVariables(t)
	head := regexp.MustCompile(`^# seed (\d+) n (\d+)\b`)
	for _, set := range sets {
		raw, err := os.ReadFile(set)
		if err != nil {
			t.Fatal(err)
		}
		first, rest, _ := strings.Cut(string(raw), "\n")
		m := head.FindStringSubmatch(first)
		if m == nil {
			t.Fatalf("%s: first line %q, want \"# seed SEED n N: ...\"", set, first)
		}
		cmd := exec.Command(python, "-", m[1], m[2])
		cmd.Stdin = strings.NewReader(string(script))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("draw_scenarios.py %s %s: %v", m[1], m[2], err)
		}
		if got := string(out); got != rest {
			t.Errorf("%s: seed %s draws\n%s\nthe set lists\n%s", filepath.Base(set), m[1], got, rest)
		}
		sc := bufio.NewScanner(strings.NewReader(rest))
		n := 0
		for sc.Scan() {
			name, settings, ok := strings.Cut(sc.Text(), "|")
			if !ok || !strings.HasPrefix(name, "mx_") {
				t.Errorf("%s: line %q, want mx_NAME|SETTINGS", filepath.Base(set), sc.Text())
				continue
			}
			n++
			for _, kv := range strings.Fields(settings) {
				k, _, _ := strings.Cut(kv, "=")
				if known != nil && !known[k] {
					t.Errorf("%s: %s sets %s, which scenario.sh does not read", filepath.Base(set), name, k)
				}
			}
		}
		if fmt.Sprint(n) != m[2] {
			t.Errorf("%s: %d scenarios, the first line says %s", filepath.Base(set), n, m[2])
		}
	}
}

// scenarioVariables is the set of variables ../shared/lab/scenario.sh
// reads (NAME=${NAME:-...}), nil where the lab is not beside the checkout.
func scenarioVariables(t *testing.T) map[string]bool {
	raw, err := os.ReadFile(filepath.Join(golden.SharedCaptures(), "..", "lab", "scenario.sh"))
	if err != nil {
		t.Logf("no ../shared/lab/scenario.sh: the drawn settings' names are not checked")
		return nil
	}
	vars := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([A-Z_]+)=\$\{[A-Z_]+:-`).FindAllStringSubmatch(string(raw), -1) {
		vars[m[1]] = true
	}
	if len(vars) < 10 {
		t.Fatalf("read %d variables from scenario.sh: its format changed", len(vars))
	}
	return vars
}

// TestLabelRun: scripts/label_run.py gives every bundled labelled run
// that keeps its link's log the label it has (testdata/labelled), and
// names a window or an application rate under the path's a true cause
// only where the link carried at least half the rate it allows: a 99 KB
// window on a 526 ms, 2 Mbit/s path allows 1.54 Mbit/s; 44 data frames in
// 9 s (mx_526ms_2m_q4k_w99_l13_nosack_reno's, 0.07 Mbit/s) leave it don't
// care, 1,100 (1.4 Mbit/s) a true cause; so for an application rate of
// 1 Mbit/s.
func TestLabelRun(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3: the labeller (scripts/label_run.py) is not checked")
	}
	script := filepath.Join("..", "scripts", "label_run.py")
	if _, err := os.ReadFile(script); err != nil { // read: go test's cache knows the script
		t.Fatal(err)
	}
	label := func(prefix, settings string) runLabel {
		t.Helper()
		out, err := exec.Command(python, script, prefix, settings).Output()
		if err != nil {
			t.Fatalf("label_run.py %s %q: %v", prefix, settings, err)
		}
		var l runLabel
		if err := json.Unmarshal(out, &l); err != nil {
			t.Fatalf("label_run.py %s: %v", prefix, err)
		}
		return l
	}
	n := 0
	eachLabelled(t, filepath.Join("..", "testdata", "labelled"), func(_ int, l runLabel, base string) {
		if !exists(base + ".truth.jsonl.gz") {
			return
		}
		var kv []string
		for k, v := range l.Settings {
			kv = append(kv, k+"="+v)
		}
		got := label(base, strings.Join(kv, " "))
		if fmt.Sprint(got.TX, got.RX) != fmt.Sprint(l.TX, l.RX) {
			t.Errorf("%s: labelled %v %v, the labeller gives %v %v", l.Name, l.TX, l.RX, got.TX, got.RX)
		}
		n++
	})
	if n < 30 {
		t.Errorf("%d bundled runs relabelled, want 30 or more", n)
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		settings string
		frames   int
		kind     string
		true_    bool
	}{
		{"DELAY=263ms RATE=2 QUEUE=4000 WINDOW=99K DUR=9", 44, FindReceiveWindow, false},
		{"DELAY=263ms RATE=2 QUEUE=4000 WINDOW=99K DUR=9", 1100, FindReceiveWindow, true},
		{"DELAY=50ms RATE=10 APPRATE=1M DUR=6", 100, FindApplication, false},
		{"DELAY=50ms RATE=10 APPRATE=1M DUR=6", 500, FindApplication, true},
	} {
		prefix := filepath.Join(dir, "run")
		log := fmt.Sprintf(`{"dir":"a->b","event":"total","forwarded":%d,"dropped":0,"reordered":0}`+"\n"+
			`{"dir":"b->a","event":"total","forwarded":%d,"dropped":0,"reordered":0}`+"\n", tt.frames, tt.frames)
		writeGzip(t, prefix+".truth.jsonl.gz", log)
		l := label(prefix, tt.settings)
		if got := slices.Contains(l.TX.True, tt.kind); got != tt.true_ {
			t.Errorf("%s, %d frames forwarded: %s true %v, want %v (%+v)", tt.settings, tt.frames, tt.kind, got, tt.true_, l.TX)
		}
		if !tt.true_ && !slices.Contains(l.TX.DontCare, tt.kind) {
			t.Errorf("%s, %d frames forwarded: %s not don't care (%+v)", tt.settings, tt.frames, tt.kind, l.TX)
		}
	}
}

func writeGzip(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	if _, err := zw.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
