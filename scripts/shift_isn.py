#!/usr/bin/env python3
"""Move the initial sequence numbers of every TCP connection of a capture.

Usage: shift_isn.py IN.pcap OUT.pcap C2S S2C SERVER_PORT
Adds C2S (mod 2^32) to the sequence numbers of every segment sent to
SERVER_PORT and to the ACK (when the ACK flag is set) and SACK numbers of
every segment sent from it; S2C the other way round. Relative numbers are
unchanged, absolute ones move (across 2^32 with the right offsets). TCP
checksums are left as they were (tshark does not check them by default).
Reads classic pcap (either byte order, microsecond or nanosecond,
gzipped or not) with Ethernet headers and IPv4, as the bundled lab
captures are, and writes it uncompressed. Standard library only; for scripts/tshark-shifted-golden.sh.
"""
import gzip
import struct
import sys

M = 1 << 32


def shift_record(rec, c2s, s2c, server):
    if len(rec) < 34 or rec[12:14] != b"\x08\x00" or rec[23] != 6:
        return
    t = 14 + (rec[14] & 15) * 4
    if len(rec) < t + 20:
        return
    sport, dport, seq, ack = struct.unpack(">HHII", rec[t:t + 12])
    flags = rec[t + 13]
    sd, ad = (c2s, s2c) if dport == server else (s2c, c2s)
    ack = (ack + ad) % M if flags & 0x10 else ack
    struct.pack_into(">II", rec, t + 4, (seq + sd) % M, ack)
    end = min(t + (rec[t + 12] >> 4) * 4, len(rec))
    q = t + 20
    while q < end:
        kind = rec[q]
        if kind == 0:
            break
        if kind == 1:
            q += 1
            continue
        if q + 1 >= end or rec[q + 1] < 2:
            break
        n = rec[q + 1]
        if kind == 5:  # SACK: edges acknowledge the other direction's data
            r = q + 2
            while r + 8 <= min(q + n, end):
                le, re_ = struct.unpack(">II", rec[r:r + 8])
                struct.pack_into(">II", rec, r, (le + ad) % M, (re_ + ad) % M)
                r += 8
        q += n


def main():
    inp, out = sys.argv[1], sys.argv[2]
    c2s, s2c, server = int(sys.argv[3]) % M, int(sys.argv[4]) % M, int(sys.argv[5])
    data = open(inp, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    magic = data[:4]
    e = "<" if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    if struct.unpack(e + "H", data[20:22])[0] != 1 and struct.unpack(e + "I", data[20:24])[0] != 1:
        sys.exit("%s: not an Ethernet pcap" % inp)
    outb = bytearray(data[:24])
    p = 24
    while p + 16 <= len(data):
        ts, frac, caplen, origlen = struct.unpack(e + "IIII", data[p:p + 16])
        rec = bytearray(data[p + 16:p + 16 + caplen])
        p += 16 + caplen
        shift_record(rec, c2s, s2c, server)
        outb += data[p - 16 - caplen:p - caplen] + rec
    open(out, "wb").write(outb)


if __name__ == "__main__":
    main()
