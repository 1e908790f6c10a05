# tcpviz — see README.md.
GO      ?= go
BIN     ?= bin/tcpviz
DEMO    ?= testdata/geo_short.pcap
BENCH_CAPTURE ?= /tmp/bench/bench.pcap

.PHONY: all build demo test vet bench bench-scan bench-compare golden fuzz clean pgo

all: build

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/tcpviz

# The manual page, from the command definitions.
man: build
	mkdir -p docs
	$(BIN) man > docs/tcpviz.1

# The main job on the bundled capture: its connections, and the tcptrace
# time/sequence graph of the busiest one (written here, path printed).
demo: build
	$(BIN) streams $(DEMO)
	$(BIN) seq $(DEMO)

# One example picture per graph, from the bundled captures, for the README
# (IMAGES=dir to write elsewhere).
IMAGES ?= docs/images
.PHONY: images
images: build
	mkdir -p $(IMAGES)
	$(BIN) seq --out-dir $(IMAGES) $(DEMO)
	$(BIN) seq --from 2.4 --to 4.2 -o $(IMAGES)/geo_short-seq-zoom-s1.png $(DEMO)
	$(BIN) seq --style stevens --out-dir $(IMAGES) $(DEMO)
	$(BIN) tput --out-dir $(IMAGES) $(DEMO) testdata/geo_pep_short.pcap
	$(BIN) rtt --sampling timestamps --out-dir $(IMAGES) $(DEMO)
	$(BIN) window --out-dir $(IMAGES) $(DEMO)
	$(BIN) seq --out-dir $(IMAGES) testdata/lossy_sll2.pcap
	$(BIN) cwnd --out-dir $(IMAGES) testdata/lossy_sll2.pcap
	$(BIN) compare --label "no PEP" --label "PEP" -o $(IMAGES)/compare-delivered.png $(DEMO) testdata/geo_pep_short.pcap
	$(BIN) join --graph owd --width 900 --height 450 -o $(IMAGES)/join-owd.png testdata/truth-mid/gt_mid_two_links.tx.pcap.gz testdata/truth-mid/gt_mid_two_links.rx.pcap.gz
	$(BIN) join --graph proxy --width 900 --height 450 -o $(IMAGES)/join-proxy.png testdata/labelled/pp_100ms_20m_q30k.tx.pcap.gz testdata/labelled/pp_100ms_20m_q30k.rx.pcap.gz
	$(BIN) sweep --param 'rtt=sweep_(\d+)ms' --param 'kind=(fixed|jitter)' --rows rtt --cols kind,proto testdata/sweep --width 900 --height 450 -o $(IMAGES)/sweep.png
	$(BIN) io --interval 500ms --graph lines --width 900 --height 450 -o $(IMAGES)/io.png testdata/io/io_cubic2_bbr.pcap.gz
	$(BIN) ladder --packets 30 -o $(IMAGES)/ladder.png testdata/truth-mid/gt_mid_two_links.tx.pcap.gz testdata/truth-mid/gt_mid_two_links.mid.pcap.gz testdata/truth-mid/gt_mid_two_links.rx.pcap.gz

# What CI runs.
test: vet
	$(GO) test -race -count=1 -timeout 40m ./...

vet:
	$(GO) vet ./...

# Micro-benchmarks: packets/s and allocations.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The read/decode/track stage alone on the large capture, and the SYN-flood
# memory per connection (bytes/conn), as benchmarks.
bench-scan:
	@test -f $(BENCH_CAPTURE) || { echo "no $(BENCH_CAPTURE): record it with ../shared/lab/record-bench.sh"; exit 1; }
	TCPVIZ_BENCH_CAPTURE=$(BENCH_CAPTURE) $(GO) test -run '^$$' -bench 'ReadCapture|SynFlood|Read$$' -benchtime 3x -benchmem ./reassembly/

# tcpviz and tcptrace on the same large capture, side by side
# (record one with ../shared/lab/record-bench.sh).
bench-compare: build
	@test -f $(BENCH_CAPTURE) || { echo "no $(BENCH_CAPTURE): record it with ../shared/lab/record-bench.sh"; exit 1; }
	scripts/bench-compare.sh $(BIN) $(BENCH_CAPTURE) $(or $(RUNS),5)

# The profile the compiler optimises tcpviz with (profile-guided
# optimisation: go build reads cmd/tcpviz/default.pgo by itself): CPU
# profiles of streams, flows, summary (two runs each), packets and report
# on the bench capture, merged. Remake it when the hot code has changed.
PGO_DIR ?= /tmp/tcpviz-pgo
pgo: build
	@test -f $(BENCH_CAPTURE) || { echo "no $(BENCH_CAPTURE): record it with ../shared/lab/record-bench.sh"; exit 1; }
	rm -rf $(PGO_DIR) && mkdir -p $(PGO_DIR)/report
	for c in streams flows summary; do for i in 1 2; do \
		TCPVIZ_CPUPROFILE=$(PGO_DIR)/$$c-$$i.prof $(BIN) $$c $(BENCH_CAPTURE) > /dev/null || exit 1; done; done
	TCPVIZ_CPUPROFILE=$(PGO_DIR)/packets.prof $(BIN) packets -f csv $(BENCH_CAPTURE) > /dev/null
	TCPVIZ_CPUPROFILE=$(PGO_DIR)/report.prof $(BIN) report --out-dir $(PGO_DIR)/report $(BENCH_CAPTURE) > /dev/null
	$(GO) tool pprof -proto $(PGO_DIR)/*.prof > cmd/tcpviz/default.pgo

# Regenerate the tshark golden files (needs tshark 4.0).
golden:
	scripts/tshark-golden.sh

clean:
	rm -rf bin
