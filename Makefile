# tcpviz — see README.md.
GO      ?= go
BIN     ?= bin/tcpviz
DEMO    ?= testdata/geo_short.pcap
BENCH_CAPTURE ?= /tmp/bench/bench.pcap

.PHONY: all build demo test vet bench bench-compare golden fuzz clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/tcpviz

# The main job on the bundled capture.
demo: build
	$(BIN) streams $(DEMO)

# What CI runs.
test: vet
	$(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...

# Micro-benchmarks: packets/s and allocations.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# tcpviz and tcptrace on the same large capture, side by side
# (record one with ../shared/lab/record-bench.sh).
bench-compare: build
	@test -f $(BENCH_CAPTURE) || { echo "no $(BENCH_CAPTURE): record it with ../shared/lab/record-bench.sh"; exit 1; }
	@echo "== cat";        /usr/bin/time -f "%e s %M KB" cat $(BENCH_CAPTURE) > /dev/null
	@echo "== tcptrace -n -l"; /usr/bin/time -f "%e s %M KB" tcptrace -n -l $(BENCH_CAPTURE) > /dev/null
	@echo "== tcpviz streams"; /usr/bin/time -f "%e s %M KB" $(BIN) streams $(BENCH_CAPTURE) > /dev/null

# Regenerate the tshark golden files (needs tshark 4.0).
golden:
	scripts/tshark-golden.sh

clean:
	rm -rf bin
