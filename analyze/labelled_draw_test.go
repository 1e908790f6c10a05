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
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

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

// TestLabelRunCountsTheTransfer: the labeller counts the drops,
// reordering and ACK drops of the transfer's connection only (the one
// that brought the receiver the most payload), and the reordered share
// of its data frames; iperf3's control connection beside it is not the
// transfer (mx_150ms_30m_q3k_j6_reno: one of its 1-byte messages
// reordered, in 67 frames forwarded, made the label say reordering).
func TestLabelRunCountsTheTransfer(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3: the labeller (scripts/label_run.py) is not checked")
	}
	script := filepath.Join("..", "scripts", "label_run.py")
	if _, err := os.ReadFile(script); err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(t.TempDir(), "run")
	// The receiver's capture: 3 control messages of 1 byte (port 40000),
	// then 60 data frames of 1448 bytes (port 40002), cut at 96 bytes.
	f, err := os.Create(prefix + ".rx.pcap")
	if err != nil {
		t.Fatal(err)
	}
	w := pcapgo.NewWriter(f)
	if err := w.WriteFileHeader(96, layers.LinkTypeEthernet); err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1700000000, 0)
	frame := func(sport uint16, n int) {
		eth := &layers.Ethernet{SrcMAC: make([]byte, 6), DstMAC: make([]byte, 6), EthernetType: layers.EthernetTypeIPv4}
		ip := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolTCP, SrcIP: []byte{10, 0, 0, 1}, DstIP: []byte{10, 0, 0, 2}}
		tcp := &layers.TCP{SrcPort: layers.TCPPort(sport), DstPort: 5201, ACK: true, PSH: true, Window: 1000}
		if err := tcp.SetNetworkLayerForChecksum(ip); err != nil {
			t.Fatal(err)
		}
		buf := gopacket.NewSerializeBuffer()
		opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
		if err := gopacket.SerializeLayers(buf, opts, eth, ip, tcp, gopacket.Payload(make([]byte, n))); err != nil {
			t.Fatal(err)
		}
		b := buf.Bytes()
		at = at.Add(time.Millisecond)
		ci := gopacket.CaptureInfo{Timestamp: at, CaptureLength: min(len(b), 96), Length: len(b)}
		if err := w.WritePacket(ci, b[:ci.CaptureLength]); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		frame(40000, 1)
	}
	for range 60 {
		frame(40002, 1448)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	// events: the link's log of one connection: a data frame of n bytes
	// reordered, 3 dropped at the queue, 3 of its ACKs dropped.
	events := func(port, n int) string {
		var b strings.Builder
		fmt.Fprintf(&b, `{"dir":"a->b","event":"reorder","sport":%d,"dport":5201,"len":%d}`+"\n", port, n)
		for range 3 {
			fmt.Fprintf(&b, `{"dir":"a->b","event":"queue","sport":%d,"dport":5201,"len":%d}`+"\n", port, n)
			fmt.Fprintf(&b, `{"dir":"b->a","event":"loss","sport":5201,"dport":%d,"len":0}`+"\n", port)
		}
		return b.String()
	}
	for _, tt := range []struct {
		name, events   string
		want, dontCare []string // true kinds; kinds that must be don't care
	}{
		{"the control connection's message reordered, 3 of its ACKs dropped", events(40000, 1),
			nil, []string{FindACKPathLoss}},
		{"one of the transfer's 60 data frames reordered, 3 dropped at the queue, 3 of its ACKs", events(40002, 1448),
			[]string{FindCongestionLoss, FindReordering, FindACKPathLoss}, nil},
	} {
		// The log's totals count every frame: 200 forwarded, so that
		// the share of one frame in them would be under 1%.
		writeGzip(t, prefix+".truth.jsonl.gz", tt.events+
			`{"dir":"a->b","event":"total","forwarded":200,"dropped":3,"reordered":1}`+"\n"+
			`{"dir":"b->a","event":"total","forwarded":200,"dropped":3,"reordered":0}`+"\n")
		out, err := exec.Command(python, script, prefix, "DELAY=10ms RATE=10 QUEUE=10000 LOSS_BA=0.05 LOSS_MIN=0 DUR=6").Output()
		if err != nil {
			t.Fatalf("%s: label_run.py: %v", tt.name, err)
		}
		var l runLabel
		if err := json.Unmarshal(out, &l); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := slices.Clone(l.RX.True)
		slices.Sort(got)
		want := slices.Clone(tt.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: true at the receiver %v, want %v", tt.name, got, want)
		}
		for _, k := range tt.dontCare {
			if !slices.Contains(l.RX.DontCare, k) {
				t.Errorf("%s: %s not don't care (%+v)", tt.name, k, l.RX)
			}
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
