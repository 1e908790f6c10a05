package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// duckdbScript aggregates the Parquet partitions of a sharded run and the
// CSV of the same run with DuckDB, and prints both results as JSON.
const duckdbScript = `
import { DuckDBInstance } from '@duckdb/node-api';
const [dir, csv] = process.argv.slice(2);
const con = await (await DuckDBInstance.create(':memory:')).connect();
const q = (from) => "SELECT file, direction, sum(retrans_packets) AS retrans, median(rtt_median_ms) AS rtt FROM " + from + " GROUP BY ALL ORDER BY ALL";
const pq = await con.runAndReadAll(q("read_parquet('" + dir + "/**/*.parquet', hive_partitioning=1)"));
const cs = await con.runAndReadAll(q("read_csv('" + csv + "', header=true)"));
const types = await con.runAndReadAll("DESCRIBE SELECT * FROM read_parquet('" + dir + "/**/*.parquet', hive_partitioning=1)");
console.log(JSON.stringify({parquet: pq.getRowObjectsJson(), csv: cs.getRowObjectsJson(), types: types.getRowObjectsJson()}));
`

// TestDuckDBReadsShardedParquet: a real DuckDB (the @duckdb/node-api
// package, which .ci/run installs into .ci/duckdb) aggregates the
// partitions of `summary --shard 0/2` and `--shard 1/2` run into one
// folder over the lab captures, and gets what it gets from the CSV of the
// whole run.
func TestDuckDBReadsShardedParquet(t *testing.T) {
	mods, _ := filepath.Abs(filepath.Join("..", "..", ".ci", "duckdb"))
	if d := os.Getenv("TCPVIZ_DUCKDB"); d != "" {
		mods = d
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH: DuckDB's Node.js package cannot run here")
	}
	if _, err := os.Stat(filepath.Join(mods, "node_modules", "@duckdb", "node-api")); err != nil {
		t.Skipf("no @duckdb/node-api in %s (npm install --prefix .ci/duckdb @duckdb/node-api)", mods)
	}
	lab := filepath.Join("..", "..", "..", "shared", "captures", "lab")
	if _, err := os.Stat(lab); err != nil {
		t.Skip("../shared/captures/lab not present")
	}
	work := t.TempDir()
	parts := filepath.Join(work, "parts")
	for _, s := range []string{"0/2", "1/2"} {
		if _, stderr, code := tcpviz(t, nil, "summary", "--shard", s, "--format", "parquet", "--out-dir", parts, lab); code != 0 {
			t.Fatalf("--shard %s: exit %d: %s", s, code, stderr)
		}
	}
	csv := filepath.Join(work, "all.csv")
	if _, stderr, code := tcpviz(t, nil, "summary", "-o", csv, lab); code != 0 {
		t.Fatalf("csv: exit %d: %s", code, stderr)
	}
	script := filepath.Join(mods, "tcpviz-duckdb-test.mjs")
	if err := os.WriteFile(script, []byte(duckdbScript), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(script)
	out, err := exec.Command(node, script, parts, csv).CombinedOutput()
	if err != nil {
		t.Fatalf("duckdb: %v\n%s", err, out)
	}
	var res struct {
		Parquet, CSV []map[string]any
		Types        []map[string]any
	}
	if err := jsonUnmarshal(out, &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(res.Parquet) < 8 || len(res.Parquet) != len(res.CSV) {
		t.Fatalf("%d groups from Parquet, %d from CSV", len(res.Parquet), len(res.CSV))
	}
	for i := range res.Parquet {
		for _, k := range []string{"file", "direction", "retrans", "rtt"} {
			if p, c := res.Parquet[i][k], res.CSV[i][k]; !sameJSON(p, c) {
				t.Errorf("group %d %s: Parquet %v, CSV %v", i, k, p, c)
			}
		}
	}
	kinds := map[string]string{}
	for _, r := range res.Types {
		kinds[r["column_name"].(string)], _ = r["column_type"].(string)
	}
	for col, want := range map[string]string{"stream": "BIGINT", "rtt_median_ms": "DOUBLE", "first_time": "TIMESTAMP WITH TIME ZONE", "sack_permitted": "BOOLEAN", "diagnosis": "VARCHAR"} {
		if kinds[col] != want {
			t.Errorf("column %s is %s in DuckDB, want %s", col, kinds[col], want)
		}
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// sameJSON compares two JSON values, numbers within float rounding (the
// CSV's are printed with fewer digits).
func sameJSON(a, b any) bool {
	fa, oka := toFloat(a)
	fb, okb := toFloat(b)
	if oka && okb {
		return math.Abs(fa-fb) <= 1e-6*math.Max(1, math.Abs(fa))
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}
