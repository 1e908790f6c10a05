#!/usr/bin/env bash
# Generate per-frame tshark golden files for TCP captures.
#
# Usage: scripts/tshark-golden.sh [capture...]
#
# Default: every file in ../shared/captures/lab and ../shared/captures/real
# (relative to the repository root), when that corpus is there, and every
# capture bundled in testdata/ and its sub-folders. For each capture
# <dir>/<name> of the corpus it writes testdata/tshark/<dir>__<name>.tsv.gz,
# for the bundled testdata/<a>/<b> testdata/tshark/testdata__<a>__<b>.tsv.gz
# (gzip -n -9, deterministic).
# See testdata/tshark/README.md for the format. Works from any cwd.
#
# Environment: JOBS=N parallel tshark runs (default: number of CPUs);
#              TSHARK_GOLDEN_OUTDIR=dir to write elsewhere (testing).
set -euo pipefail
export LC_ALL=C

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
outdir="${TSHARK_GOLDEN_OUTDIR:-$repo/testdata/tshark}"
py="$script_dir/tshark_golden.py"

command -v tshark >/dev/null || { echo "tshark not found" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 not found" >&2; exit 2; }

# Use an empty personal configuration so only default preferences apply
# (relative sequence numbers, TCP analysis on, single pass).
cfg=$(mktemp -d)
trap 'rm -rf "$cfg"' EXIT
export WIRESHARK_CONFIG_DIR="$cfg"
export HOME="$cfg"   # also hides ~/.config/wireshark and ~/.wireshark

captures=()
if [ $# -gt 0 ]; then
  for f in "$@"; do
    [ -f "$f" ] || { echo "not a file: $f" >&2; exit 2; }
    captures+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
  done
else
  for d in "$repo/../shared/captures/lab" "$repo/../shared/captures/real"; do
    [ -d "$d" ] || { echo "missing capture dir: $d (corpus captures skipped)" >&2; continue; }
    d=$(cd "$d" && pwd)
    while IFS= read -r f; do captures+=("$d/$f"); done \
      < <(cd "$d" && find . -maxdepth 1 -type f ! -name '.*' -printf '%f\n' | sort)
  done
  # The bundled captures: what file(1)-like magic says is a capture.
  while IFS= read -r f; do
    case "$f" in tshark/*|tshark-udp/*|tshark-shifted/*|cli/*|tcptrace/*|*.md|*.jsonl.gz|*.tsv|*.tsv.gz) continue ;; esac
    captures+=("$repo/testdata/$f")
  done < <(cd "$repo/testdata" && find . -type f ! -name '.*' -printf '%P\n' | sort)
fi

mkdir -p "$outdir"

# "TShark (Wireshark) 4.0.17 (Git v4.0.17 packaged as 4.0.17-0+deb12u3)."
TSHARK_GOLDEN_VERSION=$(tshark --version 2>/dev/null | head -n1 | sed -e 's/^TShark (Wireshark) //' -e 's/\.$//')
export TSHARK_GOLDEN_VERSION

# relpath FILE: path of FILE relative to the repo root (for the comment line).
relpath() { python3 -c 'import os,sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' "$1" "$repo"; }

one() {  # one CAPTURE -> writes golden file, prints a log block
  set -o pipefail
  local f=$1 dir base out rel log rc
  rel=$(relpath "$f")
  case "$rel" in
  testdata/*) out="$outdir/$(printf '%s' "$rel" | sed 's#/#__#g').tsv.gz" ;;
  *)
    dir=$(basename "$(dirname "$f")")
    base=$(basename "$f")
    out="$outdir/${dir}__${base}.tsv.gz" ;;
  esac
  log=$(mktemp)
  rc=0
  { python3 "$py" "$f" "$rel" 2>"$log" | gzip -n -9 > "$out.tmp"; } || rc=$?
  # pipefail: rc is python's status (0 ok, 1 warnings, 2 fatal) or gzip's.
  if [ "$rc" -ge 2 ]; then
    rm -f "$out.tmp"
    printf 'FAILED %s (status %s)\n%s\n' "$rel" "$rc" "$(cat "$log")" >&2
    rm -f "$log"
    return 1
  fi
  mv -f "$out.tmp" "$out"
  local tag="ok  "
  [ "$rc" -eq 1 ] && tag="WARN"
  # one write per capture so parallel jobs do not interleave their logs
  printf '%s %s -> %s\n%s\n' "$tag" "$rel" "${out#"$repo"/}" "$(cat "$log")" >&2
  rm -f "$log"
}
export -f one relpath
export py outdir repo

jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}
status=0
printf '%s\0' "${captures[@]}" | xargs -0 -n1 -P "$jobs" bash -c 'one "$1"' _ || status=$?
exit $status
