#!/bin/bash
# Records a labelled corpus of real lab TCP captures: N scenarios (default 64)
# drawn deterministically (SEED) from ranges of the lab's link and transfer
# settings, each captured at the sender (NAME.tx.pcap) and at the receiver
# (NAME.rx.pcap), with the link's log (NAME.truth.jsonl.gz) and a label file
# (NAME.label.json) saying which diagnoses are true at each capture point.
# See scripts/labelled-corpus.md for the labelling rules.
#
# usage: sudo scripts/labelled-corpus.sh OUTDIR [N]
# env:   LAB=dir       the lab (default $(dirname $0)/../../shared/lab)
#        SEED=1        seed of the scenario draw (same seed, same list)
#        BIN=/tmp      where linkemu and pep are (build them as the lab's README says)
#        JOBS=2        scenarios run at once (1 or 2)
#        ONLY="a b"    record only these names of the list (e.g. to redo a failed one)
#        PLAN_ONLY=1   print the scenario list and exit
#        RELABEL=1     only relabel the recordings in OUTDIR (settings from their label files)
#        TABLE_ONLY=1  only (re)write OUTDIR/corpus-table.md from the label files
# Needs root, python3, iperf3, tcpdump, ethtool, iproute2.
set -u
OUTDIR=${1:?usage: labelled-corpus.sh OUTDIR [N]}
N=${2:-64}
HERE=$(cd "$(dirname "$0")" && pwd)
LAB=${LAB:-$HERE/../../shared/lab}
SEED=${SEED:-1}
BIN=${BIN:-/tmp}
JOBS=${JOBS:-2}
ONLY=${ONLY:-}
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
[ "$JOBS" -gt 2 ] && JOBS=2   # the lab machine has 2 cores
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 1; }

PYF=$(mktemp /tmp/labelled-corpus.XXXXXX.py)
trap 'rm -f "$PYF"' EXIT
cat >"$PYF" <<'PY'
import sys, os, json, gzip, math, random, struct, glob

KINDS = ["receive_window", "bottleneck", "standing_queue", "application", "nearby_peer",
         "receiver_stall", "slow_start_overshoot", "random_loss", "congestion_loss",
         "loss_unknown_cause", "reordering", "spurious_timeouts", "ack_path_loss"]
ALWAYS_DC = ["bottleneck", "slow_start_overshoot", "spurious_timeouts", "receiver_stall",
             "loss_unknown_cause"]
ORDER = ["DELAY", "RATE", "QUEUE", "LOSS", "LOSS_BA", "LOSS_MIN", "JITTER", "WINDOW", "APPRATE",
         "CC", "SACK", "TS", "PEP", "REVERSE", "DUR", "BYTES", "SNAPLEN"]

def ms(v):
    v = str(v)
    if v in ("", "0"): return 0.0
    if v.endswith("ms"): return float(v[:-2])
    if v.endswith("s"): return float(v[:-1]) * 1000
    return float(v)

def size(v):  # iperf3 -w / -n: K, M = 1024
    v = str(v).strip()
    if not v: return 0
    m = {"K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}.get(v[-1].upper())
    return int(float(v[:-1]) * m) if m else int(float(v))

def rate_bps(v):  # iperf3 -b: K, M = 1000
    v = str(v).strip()
    if not v: return 0
    m = {"K": 1e3, "M": 1e6, "G": 1e9}.get(v[-1].upper())
    return float(v[:-1]) * m if m else float(v)

def bdp_bytes(rate, delay_ms):  # RATE x 2 x DELAY
    return rate * 1e6 / 8 * 2 * delay_ms / 1000.0

# ---------------------------------------------------------------- the plan
# Class templates; each occurrence is drawn from the class's ranges.
COUNTS = [("sq", 6), ("tail", 6), ("rl", 6), ("reord", 6), ("rwnd", 6), ("app", 6), ("pep", 7),
          ("ack", 6), ("clean", 5), ("sqtail", 3), ("rl_tail", 2), ("rl_jit", 2),
          ("rwnd_loss", 1), ("app_jit", 1), ("ack_rl", 1)]

def class_sequence(n):
    seq, r = [], 0
    while len(seq) < n:
        for c, k in COUNTS:
            if r < k or r >= 7:
                seq.append(c)
        r += 1
    return seq[:n]

def draw(rng, cls, k):
    logu = lambda a, b: math.exp(rng.uniform(math.log(a), math.log(b)))
    lossbased = lambda: rng.choice(["cubic", "reno"])
    anycc = lambda: rng.choice(["cubic", "reno", "bbr"])
    for _ in range(200):
        s = dict(DELAY=0, RATE=0, QUEUE=0, LOSS=0.0, LOSS_BA=0.0, LOSS_MIN=200, JITTER=0, WINDOW="",
                 APPRATE="", CC="cubic", SACK=1 if rng.random() < 0.75 else 0,
                 TS=1 if rng.random() < 0.75 else 0, PEP=0, REVERSE=0)
        def small_queue(b):
            hi = int(min(30000, b / 2))
            return rng.randint(3000, hi) // 100 * 100 if hi >= 3000 else None
        ok = True
        if cls == "sq":
            s.update(DELAY=round(logu(5, 100)), RATE=round(logu(1, 20), 1), CC=lossbased())
        elif cls == "sqtail":
            s.update(DELAY=round(logu(15, 60)), RATE=round(logu(4, 20), 1), CC=lossbased())
            s["QUEUE"] = int(math.ceil(bdp_bytes(s["RATE"], s["DELAY"]) * rng.uniform(2.2, 3.5) / 100) * 100)
            ok = s["QUEUE"] > 30000
        elif cls in ("tail", "rl_tail"):
            s.update(DELAY=round(logu(20, 150 if cls == "tail" else 100)), RATE=round(logu(4, 50 if cls == "tail" else 30), 1))
            s["CC"] = "bbr" if (cls == "tail" and k % 4 == 3) else lossbased()
            s["QUEUE"] = small_queue(bdp_bytes(s["RATE"], s["DELAY"]))
            ok = s["QUEUE"] is not None
            if cls == "rl_tail":
                s["LOSS"] = round(rng.uniform(0.005, 0.02), 4)
        elif cls in ("rl", "rl_jit"):
            s.update(DELAY=round(logu(5, 150)), RATE=round(logu(2, 30), 1), LOSS=round(rng.uniform(0.002, 0.02), 4))
            s["CC"] = "bbr" if k % 2 == 1 else lossbased()
            if cls == "rl_jit":
                s["RATE"] = round(logu(5, 30), 1)
                s["JITTER"] = rng.randint(3, 20)
                s["DELAY"] = max(s["DELAY"], 2 * s["JITTER"])
        elif cls in ("reord", "app_jit"):
            s["RATE"] = round(logu(5, 50), 1)
            gap_ms = 1514 * 8 / (s["RATE"] * 1e6) * 1000
            s["JITTER"] = rng.randint(2, 20)
            ok = s["JITTER"] >= 1.5 * gap_ms
            s["DELAY"] = round(logu(max(10, 2 * s["JITTER"]), 150))
            s["CC"] = "bbr" if k % 2 == 1 else lossbased()
        elif cls in ("rwnd", "rwnd_loss"):
            w = rng.choice([16, 24, 32, 48, 64])
            s.update(WINDOW="%dK" % w, RATE=round(logu(5, 50), 1), DELAY=round(logu(30, 300)), CC=anycc())
            ok = bdp_bytes(s["RATE"], s["DELAY"]) >= 3 * w * 1024
            if cls == "rwnd_loss":
                s["LOSS"] = round(rng.uniform(0.01, 0.02), 4)
        elif cls == "app":
            s.update(RATE=round(logu(4, 50), 1), DELAY=round(logu(5, 300)), CC=anycc())
        elif cls == "pep":
            s.update(PEP=1, DELAY=round(logu(100, 300)), RATE=round(logu(2, 20), 1), CC=anycc())
            v = k % 3
            if v == 1:
                s["LOSS"] = round(rng.uniform(0.005, 0.02), 4)
            elif v == 2:
                s["QUEUE"] = small_queue(bdp_bytes(s["RATE"], s["DELAY"]))
                ok = s["QUEUE"] is not None
        elif cls in ("ack", "ack_rl"):
            s.update(DELAY=round(logu(5, 150)), RATE=round(logu(2, 30), 1), LOSS_BA=round(rng.uniform(0.02, 0.1), 3), LOSS_MIN=0)
            s["CC"] = "bbr" if k % 2 == 1 else lossbased()
            if cls == "ack_rl":
                s["LOSS"] = round(rng.uniform(0.005, 0.02), 4)
        elif cls == "clean":
            s.update(CC="bbr", DELAY=round(logu(5, 150)), RATE=round(logu(2, 30), 1))
            if k % 2 == 1:   # a draw once spent on a finite queue (BBR's startup tail-dropped there); kept so the list stays the same
                rng.uniform(2.5, 4)
        if cls in ("app", "app_jit"):
            s["APPRATE"] = "%dK" % max(300, round(s["RATE"] * 1000 * rng.uniform(0.1, 0.35) / 10) * 10)
        if not ok:
            continue
        # the transfer: DUR 6-12 s, or BYTES (about 6-10 s worth) on slow links
        rtt = 2 * s["DELAY"] / 1000.0
        eff = s["RATE"] * 1e6
        if s["APPRATE"]: eff = min(eff, rate_bps(s["APPRATE"]))
        if s["WINDOW"]: eff = min(eff, size(s["WINDOW"]) * 8 / rtt)
        if s["LOSS"] > 0 and s["CC"] != "bbr":
            eff = min(eff, 1.22 * 1448 * 8 / (rtt * math.sqrt(s["LOSS"])))
        if s["LOSS"] > 0 and cls in ("rl", "rl_jit", "rwnd_loss", "ack_rl", "rl_tail"):
            # enough frames for the loss to show (>= ~6 expected random drops in 10 s)
            if eff * 10 / 8 / 1448 * s["LOSS"] < 6:
                continue
        if s["RATE"] < 4 and not s["PEP"]:
            s["BYTES"] = "%dK" % max(256, round(eff / 8 * rng.uniform(6, 10) / 1024))
        else:
            s["DUR"] = rng.randint(6, 12) if not s["PEP"] else rng.randint(6, 8)
        return s
    raise SystemExit("cannot draw class %s" % cls)

def fmt_settings(s):
    out = []
    for k in ORDER:
        if k not in s: continue
        v = s[k]
        if k in ("DELAY", "JITTER"): v = "%dms" % v if v else "0"
        elif k in ("LOSS", "LOSS_BA"): v = "%g" % v
        elif k == "RATE": v = "%g" % v
        out.append("%s=%s" % (k, v))
    return out

def cmd_plan(seed, n):
    rng = random.Random(int(seed))
    seen = {}
    for i, cls in enumerate(class_sequence(int(n))):
        k = seen.get(cls, 0); seen[cls] = k + 1
        s = draw(rng, cls, k)
        s["SNAPLEN"] = 96
        print("lc%02d_%s\t%s" % (i + 1, cls, " ".join(fmt_settings(s))))

# ---------------------------------------------------------------- captures
def read_pcap(path):
    """TCP/IPv4 (and IPv6) packets of an Ethernet pcap: dicts."""
    pk = []
    with open(path, "rb") as f:
        gh = f.read(24)
        if len(gh) < 24: return pk
        magic = struct.unpack("<I", gh[:4])[0]
        if magic in (0xa1b2c3d4, 0xa1b23c4d): e = "<"
        else: e = ">"; magic = struct.unpack(">I", gh[:4])[0]
        nano = magic == 0xa1b23c4d
        lt = struct.unpack(e + "I", gh[20:24])[0] & 0xffff
        while True:
            h = f.read(16)
            if len(h) < 16: break
            sec, frac, incl, orig = struct.unpack(e + "IIII", h)
            b = f.read(incl)
            t = sec + frac / (1e9 if nano else 1e6)
            if lt == 1:
                if len(b) < 14: continue
                et = struct.unpack(">H", b[12:14])[0]; p = b[14:]
            elif lt == 276:
                if len(b) < 20: continue
                et = struct.unpack(">H", b[0:2])[0]; p = b[20:]
            else:
                continue
            if et == 0x0800 and len(p) >= 20 and p[9] == 6:
                ihl = (p[0] & 15) * 4
                tot = struct.unpack(">H", p[2:4])[0]
                src = ".".join(map(str, p[12:16])); dst = ".".join(map(str, p[16:20]))
                tcp = p[ihl:]; iplen = tot - ihl
            elif et == 0x86dd and len(p) >= 40 and p[6] == 6:
                src = p[8:24].hex(); dst = p[24:40].hex()
                tcp = p[40:]; iplen = struct.unpack(">H", p[4:6])[0]
            else:
                continue
            if len(tcp) < 20: continue
            sp, dp, seq, ack = struct.unpack(">HHII", tcp[:12])
            off = (tcp[12] >> 4) * 4
            pk.append(dict(t=t, src=src, dst=dst, sport=sp, dport=dp, seq=seq, ack=ack,
                           flags=tcp[13], len=iplen - off))
    return pk

def data_conn(pk, port):
    """(src, sport, dst) of the connection to port carrying the most payload."""
    tot = {}
    for p in pk:
        if p["dport"] == port and p["len"] > 0:
            key = (p["src"], p["sport"], p["dst"])
            tot[key] = tot.get(key, 0) + p["len"]
    if not tot: return None, 0
    key = max(tot, key=tot.get)
    return key, tot[key]

def sender_view(pk, conn, port):
    """Data frames, retransmissions and RTT samples (Karn) of the data connection, sender side."""
    src, sport, dst = conn
    isn = None; maxend = 0; sent = {}; frames = 0; retx = 0; retx_max = -1
    prev_ack = None; rtts = []; t0 = t1 = None
    for p in pk:
        if p["src"] == src and p["sport"] == sport and p["dport"] == port:
            if p["flags"] & 2 and isn is None: isn = p["seq"]
            if p["len"] <= 0 or isn is None: continue
            s = (p["seq"] - isn) % 2 ** 32; e = s + p["len"]
            frames += 1
            t0 = p["t"] if t0 is None else t0; t1 = p["t"]
            if e <= maxend:
                retx += 1; sent.pop(e, None); retx_max = max(retx_max, e)
            else:
                sent[e] = p["t"]; maxend = e
        elif p["dst"] == src and p["dport"] == sport and p["sport"] == port and isn is not None and p["flags"] & 16:
            a = (p["ack"] - isn) % 2 ** 32
            if prev_ack is not None and a > prev_ack:
                if prev_ack >= retx_max and a in sent:
                    rtts.append((p["t"], p["t"] - sent[a]))
                prev_ack = a
            elif prev_ack is None:
                prev_ack = a
    return frames, retx, rtts, (t1 - t0 if t0 is not None else 0)

def pct(xs, q):
    if not xs: return None
    xs = sorted(xs); return xs[min(len(xs) - 1, int(q * len(xs)))]

def cmd_label(name, outdir, port, settings):
    port = int(port)
    s = dict(kv.split("=", 1) for kv in settings)
    d = os.path.join(outdir, name)
    tx = read_pcap(d + ".tx.pcap"); rx = read_pcap(d + ".rx.pcap")
    txc, txbytes = data_conn(tx, port); rxc, rxbytes = data_conn(rx, port)
    if not txc or not rxc or txbytes < 16384 or rxbytes < 16384:
        print("no data connection with data (tx %d B, rx %d B)" % (txbytes, rxbytes)); return 2
    # the link's log, the data connection only (the one seen at the receiver)
    src, sport, dst = rxc
    rd = qd = ro = ackd = other_ackd = 0; totals = {}
    with gzip.open(d + ".truth.jsonl.gz", "rt") as f:
        for line in f:
            ev = json.loads(line)
            if ev["event"] == "total": totals[ev["dir"]] = ev; continue
            if ev["dir"] == "a->b" and ev.get("sport") == sport and ev.get("dport") == port and ev["len"] > 0:
                if ev["event"] == "loss": rd += 1
                elif ev["event"] == "queue": qd += 1
                elif ev["event"] == "reorder": ro += 1
            elif ev["dir"] == "b->a" and ev.get("sport") == port and ev.get("dport") == sport and ev["len"] == 0 \
                    and ev["event"] in ("loss", "queue"):
                ackd += 1
    rx_frames = sum(1 for p in rx if p["src"] == src and p["sport"] == sport and p["dport"] == port and p["len"] > 0)
    truth = dict(data_random_drops=rd, data_queue_drops=qd, data_reordered=ro, data_frames=rx_frames, ack_drops=ackd)

    delay = ms(s.get("DELAY", "300ms")); rate = float(s.get("RATE", "10"))
    bdp = bdp_bytes(rate, delay)
    queue = int(s.get("QUEUE", "0") or 0)
    pep = s.get("PEP", "0") == "1"
    window = size(s.get("WINDOW", "")); app = rate_bps(s.get("APPRATE", ""))
    cc = s.get("CC", "cubic")
    loss_ba = float(s.get("LOSS_BA", "0") or 0); loss_min = int(s.get("LOSS_MIN", "200") or 200)

    # what the sender-side capture shows of the long link (not with a PEP: it ends at the proxy)
    txframes, txretx, samples, txdur = sender_view(tx, txc, port)
    rtts = [r for _, r in samples]
    base = min(rtts) if rtts else None
    p50 = pct(rtts, 0.5); p90 = pct(rtts, 0.9); mx = max(rtts) if rtts else None
    late = [r for t, r in samples if t >= (samples[0][0] + samples[-1][0]) / 2] if samples else []
    p10late = pct(late, 0.1)
    # the queue filled (held >= one base RTT at some point) and stood: over the second half of
    # the transfer the RTT stayed >= 1.5x the base RTT (it never drained)
    filled = bool(base and mx >= 2 * base and p10late and p10late >= 1.5 * base)

    doubts = []
    link = {"true": set(), "dc": set(ALWAYS_DC)}
    def by_count(kind, n, frac_ok):
        if n >= 3 and frac_ok: link["true"].add(kind)
        elif n >= 1: link["dc"].add(kind)
    drops = rd + qd
    by_count("random_loss", rd, drops and rd >= 0.2 * drops)
    by_count("congestion_loss", qd, drops and qd >= 0.2 * drops)
    if rx_frames and ro >= 0.01 * rx_frames: link["true"].add("reordering")
    elif ro >= 1: link["dc"].add("reordering")
    if loss_ba > 0 and loss_min == 0:
        if ackd >= 1: link["true"].add("ack_path_loss")
        else: link["dc"].add("ack_path_loss"); doubts.append("ACK loss set but no ACK dropped")
    elif ackd >= 1:
        link["dc"].add("ack_path_loss")
    if window and window < bdp: link["true"].add("receive_window")
    if app and app < rate * 1e6: link["true"].add("application")
    big_queue = queue == 0 or queue >= 2 * bdp
    if big_queue and not window and not app:
        if pep or cc == "bbr":
            link["dc"].add("standing_queue")
        elif filled:
            link["true"].add("standing_queue")
        else:
            link["dc"].add("standing_queue")
            doubts.append("queue can hold >=2x base RTT but never stood (RTT base %.0f, max %.0f, 2nd-half p10 %.0f ms)"
                          % ((base or 0) * 1e3, (mx or 0) * 1e3, (p10late or 0) * 1e3))
    elif filled and not pep:
        doubts.append("the RTT stood >= 1.5x base although the settings say no standing queue")
    if window and window >= bdp: doubts.append("WINDOW not below the BDP")
    for kind, n in (("random_loss", rd), ("congestion_loss", qd)):
        if kind in link["dc"] and n: doubts.append("%s: %d drops (%d random, %d queue): dont_care" % (kind, n, rd, qd))

    if pep:
        # the sender's connection ends at the proxy on the LAN: only the application's own limit shows there
        txl = {"true": {"nearby_peer"} | ({"application"} if "application" in link["true"] else set()),
               "dc": set(ALWAYS_DC) | {"receive_window"}}   # the proxy's buffers push back with its window
    else:
        txl = {"true": set(link["true"]), "dc": set(link["dc"])}
    rxl = {"true": set(link["true"]), "dc": set(link["dc"])}
    for l in (txl, rxl):
        l["dc"] -= l["true"]
    srt = lambda xs: [k for k in KINDS if k in xs]
    settings_out = dict(s)
    settings_out.update(OUT=name + ".tx.pcap", RXOUT=name + ".rx.pcap", TRUTH=name + ".truth.jsonl.gz")
    label = {"name": name, "settings": settings_out,
             "tx": {"true": srt(txl["true"]), "dont_care": srt(txl["dc"])},
             "rx": {"true": srt(rxl["true"]), "dont_care": srt(rxl["dc"])},
             "truth": truth}
    with open(d + ".label.json", "w") as f:
        json.dump(label, f, indent=1); f.write("\n")
    r = lambda x: None if x is None else round(x * 1e3, 1)
    check = dict(tx_data_frames=txframes, tx_retransmissions=txretx, tx_data_bytes=txbytes, rx_data_bytes=rxbytes,
                 rx_data_frames=rx_frames, tx_transfer_s=round(txdur, 2), bdp_bytes=int(bdp),
                 rtt_ms=dict(samples=len(rtts), base=r(base), p50=r(p50), p90=r(p90), max=r(mx), p10_second_half=r(p10late)),
                 queue_stood=filled, link_totals=totals, doubts=doubts)
    with open(d + ".check.json", "w") as f:
        json.dump(check, f, indent=1); f.write("\n")
    print("%s tx=%s rx=%s truth=%s rtt(base/p50/max ms)=%s/%s/%s%s" % (
        name, label["tx"]["true"], label["rx"]["true"], truth, r(base), r(p50), r(mx),
        (" DOUBT: " + "; ".join(doubts)) if doubts else ""))
    return 0

def cmd_relabel(outdir):
    rc = 0
    for fn in sorted(glob.glob(os.path.join(outdir, "*.label.json"))):
        L = json.load(open(fn))
        s = {k: v for k, v in L["settings"].items() if k not in ("OUT", "RXOUT", "TRUTH")}
        rc |= cmd_label(L["name"], outdir, s["PORT"], ["%s=%s" % kv for kv in s.items()])
    return rc

def cmd_table(outdir):
    labels = sorted(glob.glob(os.path.join(outdir, "*.label.json")))
    cnt = {side: {k: 0 for k in KINDS} for side in ("tx", "rx")}
    print("| name | settings | tx true | rx true | truth (rand/queue/reord/frames/ack) |")
    print("|---|---|---|---|---|")
    for fn in labels:
        L = json.load(open(fn)); s = L["settings"]
        for side in ("tx", "rx"):
            for k in L[side]["true"]: cnt[side][k] += 1
        st = " ".join("%s=%s" % (k, s[k]) for k in ORDER
                      if k in s and k not in ("SNAPLEN", "REVERSE") and s[k] not in ("", "0", "0ms") and
                      not (k == "LOSS_MIN" and s[k] == "200") and not (k in ("SACK", "TS") and s[k] == "1"))
        t = L["truth"]
        print("| %s | %s | %s | %s | %d/%d/%d/%d/%d |" % (L["name"], st, ", ".join(L["tx"]["true"]) or "—",
              ", ".join(L["rx"]["true"]) or "—", t["data_random_drops"], t["data_queue_drops"],
              t["data_reordered"], t["data_frames"], t["ack_drops"]))
    print("\n%d runs. True labels per kind (tx / rx):\n" % len(labels))
    print("| kind | tx | rx |\n|---|---|---|")
    for k in KINDS:
        print("| %s | %d | %d |" % (k, cnt["tx"][k], cnt["rx"][k]))

if __name__ == "__main__":
    c = sys.argv[1]
    if c == "plan": cmd_plan(sys.argv[2], sys.argv[3])
    elif c == "label": sys.exit(cmd_label(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]))
    elif c == "table": cmd_table(sys.argv[2])
    elif c == "relabel": sys.exit(cmd_relabel(sys.argv[2]))
PY

if [ "${PLAN_ONLY:-0}" = 1 ]; then python3 "$PYF" plan "$SEED" "$N"; exit; fi
mkdir -p "$OUTDIR"; OUTDIR=$(cd "$OUTDIR" && pwd)
if [ "${RELABEL:-0}" = 1 ]; then python3 "$PYF" relabel "$OUTDIR"; python3 "$PYF" table "$OUTDIR" >"$OUTDIR/corpus-table.md"; exit; fi
if [ "${TABLE_ONLY:-0}" = 1 ]; then python3 "$PYF" table "$OUTDIR" >"$OUTDIR/corpus-table.md"; cat "$OUTDIR/corpus-table.md"; exit; fi
[ "$(id -u)" = 0 ] || { echo "needs root (network namespaces)" >&2; exit 1; }
[ -x "$LAB/scenario.sh" ] || { echo "lab not found at $LAB; set LAB=" >&2; exit 1; }
for t in iperf3 tcpdump ethtool ip gzip; do command -v $t >/dev/null || { echo "missing: $t" >&2; exit 1; }; done
[ -x "$BIN/linkemu" ] && [ -x "$BIN/pep" ] || { echo "build $BIN/linkemu and $BIN/pep first (see the lab's README)" >&2; exit 1; }
chmod 755 "$OUTDIR"   # tcpdump drops privileges to its own user
mkdir -p "$OUTDIR/logs"
python3 "$PYF" plan "$SEED" "$N" >"$OUTDIR/plan.tsv"

# one attempt at one scenario in slot $2; returns 0 when the captures are good and labelled
attempt() { # name slot settings...
  local n=$1 slot=$2; shift 2
  local port=$((5411 + slot)) p=lc$slot logd="$OUTDIR/logs/$n"
  rm -f "$OUTDIR/$n".{tx.pcap,rx.pcap,truth.jsonl,truth.jsonl.gz,label.json,check.json}
  mkdir -p "$logd"
  env "$@" P=$p PORT=$port LOGD="$logd" BIN="$BIN" OUT="$OUTDIR/$n.tx.pcap" RXOUT="$OUTDIR/$n.rx.pcap" \
    TRUTH="$OUTDIR/$n.truth.jsonl" "$LAB/scenario.sh" >"$logd/scenario.out" 2>&1
  grep -q "^iperf3 rc=0" "$logd/scenario.out" || { echo "$n: iperf3 failed: $(grep -h -m1 -i error "$logd"/iperf3-c.log)"; return 1; }
  [ -s "$OUTDIR/$n.truth.jsonl" ] || { echo "$n: no truth log"; return 1; }
  gzip -nf "$OUTDIR/$n.truth.jsonl"
  local f
  for f in "$OUTDIR/$n.tx.pcap" "$OUTDIR/$n.rx.pcap"; do
    tcpdump -r "$f" -c 1 >/dev/null 2>&1 || { echo "$n: unreadable $f"; return 1; }
  done
  grep -h "dropped by kernel" "$logd"/tcpdump*.log | grep -v "^0 " | sed "s/^/$n: tcpdump: /"
  python3 "$PYF" label "$n" "$OUTDIR" "$port" "$@" P=$p PORT=$port
}

run_one() { # name slot settings...
  local n=$1 slot=$2; shift 2
  echo "== $n: $*"
  attempt "$n" "$slot" "$@" && return 0
  echo "$n: retrying once"
  attempt "$n" "$slot" "$@" && return 0
  echo "$n: FAILED twice, dropped"
  echo "$n" >>"$OUTDIR/failed.txt"
  rm -f "$OUTDIR/$n".{tx.pcap,rx.pcap,truth.jsonl,truth.jsonl.gz,label.json,check.json}
  return 1
}

declare -a PIDS
while IFS=$'\t' read -r name settings; do
  if [ -n "$ONLY" ] && [[ " $ONLY " != *" $name "* ]]; then continue; fi
  free=
  while [ -z "$free" ]; do
    for ((s = 0; s < JOBS; s++)); do
      pid=${PIDS[$s]:-}
      if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then free=$s; break; fi
    done
    [ -n "$free" ] || wait -n 2>/dev/null || sleep 0.5
  done
  # shellcheck disable=SC2086
  run_one "$name" "$free" $settings >>"$OUTDIR/logs/slot$free.log" 2>&1 &
  PIDS[$free]=$!
  echo "started $name in slot $free"
done <"$OUTDIR/plan.tsv"
wait
cat "$OUTDIR"/logs/slot*.log | grep -E "^lc[0-9]+_[a-z_]+(:| tx=)" | sort
python3 "$PYF" table "$OUTDIR" >"$OUTDIR/corpus-table.md"
echo "table: $OUTDIR/corpus-table.md"
