package analyze

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
