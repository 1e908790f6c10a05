#!/usr/bin/env python3
"""Per-frame tshark golden file for one capture (helper of tshark-golden.sh).

Usage: tshark_golden.py CAPTURE LABEL
Writes the TSV (comment line, header line, one row per TCP frame) to stdout.
tshark's stderr (minus the "Running as user root" banner) and notes about
excluded frames go to stderr. Exit status: 0 ok, 1 tshark produced warnings
or a non-zero status but rows were written, 2 fatal.

Standard library only.
"""
import os
import subprocess
import sys

# Output columns: (header name, tshark field). Fields are read with
# -E occurrence=a and the right occurrence is picked below.
SIMPLE = [  # first occurrence (= first TCP layer for tcp.* fields)
    ("frame", "frame.number"),
    ("time_epoch", "frame.time_epoch"),
    ("iface", "frame.interface_id"),
    ("stream", "tcp.stream"),
]
IPCOLS = ["src", "dst"]
TCPCOLS = [
    ("srcport", "tcp.srcport"),
    ("dstport", "tcp.dstport"),
    ("len", "tcp.len"),
    ("seq", "tcp.seq"),
    ("seq_raw", "tcp.seq_raw"),
    ("ack", "tcp.ack"),
    ("ack_raw", "tcp.ack_raw"),
    ("flags", "tcp.flags"),
    ("win", "tcp.window_size"),
    ("win_raw", "tcp.window_size_value"),
    ("wscale_mult", "tcp.window_size_scalefactor"),
]
FLAGCOLS = [  # 0/1 presence
    ("retrans", "tcp.analysis.retransmission"),
    ("fast_retrans", "tcp.analysis.fast_retransmission"),
    ("spurious", "tcp.analysis.spurious_retransmission"),
    ("ooo", "tcp.analysis.out_of_order"),
    ("lost", "tcp.analysis.lost_segment"),
    ("dupack", "tcp.analysis.duplicate_ack"),
    ("zero_win", "tcp.analysis.zero_window"),
    ("zwp", "tcp.analysis.zero_window_probe"),
    ("zwp_ack", "tcp.analysis.zero_window_probe_ack"),
    ("win_full", "tcp.analysis.window_full"),
    ("keepalive", "tcp.analysis.keep_alive"),
    ("keepalive_ack", "tcp.analysis.keep_alive_ack"),
    ("win_update", "tcp.analysis.window_update"),
    ("ack_unseen", "tcp.analysis.ack_lost_segment"),
    ("reused_ports", "tcp.analysis.reused_ports"),
]
VALCOLS = [
    ("dupack_num", "tcp.analysis.duplicate_ack_num"),
    ("dupack_frame", "tcp.analysis.duplicate_ack_frame"),
    ("bif", "tcp.analysis.bytes_in_flight"),
    ("ack_rtt", "tcp.analysis.ack_rtt"),
    ("acks_frame", "tcp.analysis.acks_frame"),
    ("initial_rtt", "tcp.analysis.initial_rtt"),
    ("mss", "tcp.options.mss_val"),
    ("wscale", "tcp.options.wscale.shift"),
]
SACKPERM = ("sack_perm", "tcp.options.sack_perm")
TSCOLS = [
    ("tsval", "tcp.options.timestamp.tsval"),
    ("tsecr", "tcp.options.timestamp.tsecr"),
]
HEADER = ([c for c, _ in SIMPLE] + IPCOLS + [c for c, _ in TCPCOLS]
          + [c for c, _ in FLAGCOLS] + [c for c, _ in VALCOLS]
          + [SACKPERM[0]] + [c for c, _ in TSCOLS] + ["sack", "ip_ver", "frag", "icmp"])

# Auxiliary fields (not output directly).
AUX = ["frame.protocols", "ip.src", "ip.dst", "ipv6.src", "ipv6.dst",
       "ip.flags.mf", "ip.frag_offset", "tcp.options.sack_le",
       "tcp.options.sack_re"]

FIELDS = ([f for _, f in SIMPLE] + [f for _, f in TCPCOLS]
          + [f for _, f in FLAGCOLS] + [f for _, f in VALCOLS]
          + [SACKPERM[1]] + [f for _, f in TSCOLS] + AUX)
IDX = {f: i for i, f in enumerate(FIELDS)}
AGG = ","  # tshark's default aggregator; none of these fields contain ','


def tshark_version():
    v = os.environ.get("TSHARK_GOLDEN_VERSION")  # set once by tshark-golden.sh
    if v:
        return v
    out = subprocess.run(["tshark", "--version"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    first = out.splitlines()[0] if out else "unknown"
    prefix = "TShark (Wireshark) "
    v = first[len(prefix):] if first.startswith(prefix) else first
    return v.rstrip(".")


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    capture, label = sys.argv[1], sys.argv[2]
    cmd = ["tshark", "-n", "-r", capture, "-Y", "tcp", "-T", "fields",
           "-E", "header=y", "-E", "separator=/t", "-E", "occurrence=a",
           "-E", "aggregator=" + AGG]
    extra = os.environ.get("TSHARK_GOLDEN_EXTRA_OPTS")  # testing only
    if extra:
        cmd += extra.split()
    for f in FIELDS:
        cmd += ["-e", f]
    out = sys.stdout
    out.write("# tshark %s %s\n" % (tshark_version(), label))
    out.write("\t".join(HEADER) + "\n")

    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, encoding="utf-8", errors="replace")
    # stderr is small; read it after stdout (tshark writes little to it).
    # To avoid a pipe deadlock on huge stderr, drain it in a thread.
    import threading
    errbuf = []
    t = threading.Thread(target=lambda: errbuf.append(proc.stderr.read()))
    t.start()

    notes = []
    n_rows = n_icmp = n_multi = n_noip = n_mismatch = n_sackodd = 0
    first = True
    for line in proc.stdout:
        line = line.rstrip("\n")
        cols = line.split("\t")
        if first:
            first = False
            if cols != FIELDS:
                sys.stderr.write("tshark header mismatch: %r\n" % cols)
                proc.kill()
                return 2
            continue
        if len(cols) != len(FIELDS):
            sys.stderr.write("bad tshark line (%d cols): %r\n" % (len(cols), line))
            proc.kill()
            return 2

        def allv(f):
            v = cols[IDX[f]]
            return v.split(AGG) if v != "" else []

        def firstv(f):
            v = cols[IDX[f]]
            return v.split(AGG, 1)[0]

        protos = cols[IDX["frame.protocols"]].split(":")
        try:
            ti = protos.index("tcp")
        except ValueError:
            ti = -1
        below = protos[:ti] if ti >= 0 else protos
        # (3) TCP only inside an ICMP/ICMPv6 error message: kept (it has a
        # tcp.stream and counts in its conversation), marked icmp=1.
        in_icmp = "icmp" in below or "icmpv6" in below
        if in_icmp:
            n_icmp += 1
        if protos.count("tcp") > 1:
            n_multi += 1
        # (2) the IP header directly carrying the (first) TCP header is the
        # last "ip"/"ipv6" layer before the first "tcp" in frame.protocols.
        src = dst = ipver = ""
        frag = "0"
        carrier = -1
        for i in range(len(below) - 1, -1, -1):
            if below[i] in ("ip", "ipv6"):
                carrier = i
                break
        if carrier < 0:
            n_noip += 1
        else:
            kind = below[carrier]
            k = below[:carrier].count(kind)  # occurrence index of that layer
            if kind == "ip":
                srcs, dsts = allv("ip.src"), allv("ip.dst")
                mfs, offs = allv("ip.flags.mf"), allv("ip.frag_offset")
                nlayers = below.count("ip") + protos[ti + 1:].count("ip") if ti >= 0 else below.count("ip")
                if len(srcs) != nlayers:
                    n_mismatch += 1
                if k < len(srcs):
                    src, dst = srcs[k], dsts[k] if k < len(dsts) else ""
                ipver = "4"
                mf = mfs[k] if k < len(mfs) else "0"
                off = offs[k] if k < len(offs) else "0"
                if mf not in ("0", "False", "") or off not in ("0", ""):
                    frag = "1"
            else:
                srcs, dsts = allv("ipv6.src"), allv("ipv6.dst")
                nlayers = protos.count("ipv6")
                if len(srcs) != nlayers:
                    n_mismatch += 1
                if k < len(srcs):
                    src, dst = srcs[k], dsts[k] if k < len(dsts) else ""
                ipver = "6"
                if "ipv6.fraghdr" in below[carrier + 1:]:
                    frag = "1"

        les, res = allv("tcp.options.sack_le"), allv("tcp.options.sack_re")
        if len(les) != len(res):
            n_sackodd += 1
        sack = ",".join("%s-%s" % (les[i] if i < len(les) else "",
                                    res[i] if i < len(res) else "")
                        for i in range(max(len(les), len(res))))

        row = [firstv(f) for _, f in SIMPLE]
        row += [src, dst]
        row += [firstv(f) for _, f in TCPCOLS]
        row += ["1" if cols[IDX[f]] != "" else "0" for _, f in FLAGCOLS]
        row += [firstv(f) for _, f in VALCOLS]
        row += ["1" if cols[IDX[SACKPERM[1]]] != "" else "0"]
        row += [firstv(f) for _, f in TSCOLS]
        row += [sack, ipver, frag, "1" if in_icmp else "0"]
        out.write("\t".join(row) + "\n")
        n_rows += 1

    rc = proc.wait()
    t.join()
    err = "".join(errbuf)
    errlines = [l for l in err.splitlines()
                if l.strip() and "This could be dangerous" not in l]
    if n_icmp:
        notes.append("%d frame(s) whose only TCP header is inside an ICMP/ICMPv6 error (icmp=1)" % n_icmp)
    if n_multi:
        notes.append("%d frame(s) have more than one TCP layer; first occurrence of each tcp.* field used" % n_multi)
    if n_noip:
        notes.append("%d frame(s) with TCP but no IP layer below it" % n_noip)
    if n_mismatch:
        notes.append("%d frame(s) where ip(v6).src occurrences != IP layers in frame.protocols" % n_mismatch)
    if n_sackodd:
        notes.append("%d frame(s) with unequal numbers of sack_le/sack_re" % n_sackodd)
    for l in errlines:
        sys.stderr.write("  stderr: %s\n" % l)
    if rc != 0:
        sys.stderr.write("  tshark exit status %d\n" % rc)
    for n in notes:
        sys.stderr.write("  note: %s\n" % n)
    sys.stderr.write("  rows: %d\n" % n_rows)
    out.flush()
    return 1 if (rc != 0 or errlines) else 0


if __name__ == "__main__":
    sys.exit(main())
