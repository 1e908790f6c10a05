#!/usr/bin/env python3
"""Labels one lab run for the diagnosis corpus (see labelled-corpus.md).

    label_run.py PREFIX "SETTINGS"    # reads PREFIX.truth.jsonl.gz, writes the label JSON to stdout

The true causes come from the link's log (what it dropped and reordered)
and the settings (window, application rate, proxy, ACK loss)."""
import gzip, json, os, re, struct, sys

prefix, settings = sys.argv[1], sys.argv[2]
env = dict(kv.split('=', 1) for kv in settings.split())
DONT = ['bottleneck', 'slow_start_overshoot', 'spurious_timeouts', 'receiver_stall', 'loss_unknown_cause']


def seconds(v):
    m = re.fullmatch(r'([\d.]+)(ms|s)?', v or '0')
    return float(m.group(1)) / (1000 if m.group(2) == 'ms' else 1)


def nbytes(v):
    m = re.fullmatch(r'([\d.]+)([KMG]?)', v or '0')
    return float(m.group(1)) * {'': 1, 'K': 1024, 'M': 1 << 20, 'G': 1 << 30}[m.group(2)]


def rate(v):
    m = re.fullmatch(r'([\d.]+)([kKMG]?)', v or '0')
    return float(m.group(1)) * {'': 1e6, 'k': 1e3, 'K': 1e3, 'M': 1e6, 'G': 1e9}[m.group(2)]


def tcp_payloads(path):
    """Yields (sport, dport, payload bytes) of each TCP packet of a pcap
    file (gzipped or not; Ethernet, Linux cooked v1/v2 or raw IP), from
    its IP lengths, so that a capture cut at SNAPLEN=96 still counts."""
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rb') as f:
        head = f.read(24)
        if len(head) < 24:
            return
        magic = head[:4]
        if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
            end = '<'
        elif magic in (b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
            end = '>'
        else:
            return  # not pcap (pcapng): no connection told
        link = struct.unpack(end + 'I', head[20:24])[0] & 0xffff
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            incl = struct.unpack(end + 'I', rec[8:12])[0]
            b = f.read(incl)
            if len(b) < incl:
                return
            if link == 1:
                off, et = 14, struct.unpack('>H', b[12:14])[0] if len(b) >= 14 else 0
                while et == 0x8100 and len(b) >= off + 4:
                    et, off = struct.unpack('>H', b[off + 2:off + 4])[0], off + 4
            elif link == 113:
                off, et = 16, struct.unpack('>H', b[14:16])[0] if len(b) >= 16 else 0
            elif link == 276:
                off, et = 20, struct.unpack('>H', b[0:2])[0] if len(b) >= 2 else 0
            elif link in (12, 101):
                off, et = 0, {4: 0x0800, 6: 0x86dd}.get(b[0] >> 4 if b else 0, 0)
            else:
                return
            ip = b[off:]
            if et == 0x0800 and len(ip) >= 20 and ip[9] == 6:
                ihl, total = (ip[0] & 15) * 4, struct.unpack('>H', ip[2:4])[0]
            elif et == 0x86dd and len(ip) >= 40 and ip[6] == 6:
                ihl, total = 40, 40 + struct.unpack('>H', ip[4:6])[0]
            else:
                continue
            tcp = ip[ihl:]
            if len(tcp) < 13:
                continue
            sport, dport = struct.unpack('>HH', tcp[:4])
            yield sport, dport, total - ihl - (tcp[12] >> 4) * 4


def capture(side):
    for ext in ('.pcap', '.pcap.gz'):
        if os.path.exists(prefix + '.' + side + ext):
            return prefix + '.' + side + ext
    return None


# The transfer the diagnosis is about: the connection that brought the
# receiver the most payload (behind a proxy, the proxy's own connection:
# the link carries it, so the log names its ports). iperf3's control
# connection (a few bytes of state and the results) is not it: its frames
# are not the transfer's data frames (mx_150ms_30m_q3k_j6_reno: the link
# reordered one of its 1-byte messages, 1 in 67 frames, and none of the
# transfer's; the label said reordering).
conn, data_forwarded = None, 0
rx = capture('rx')
if rx:
    got, frames = {}, {}
    try:
        for sport, dport, n in tcp_payloads(rx):
            if n > 0:
                got[sport, dport] = got.get((sport, dport), 0) + n
                frames[sport, dport] = frames.get((sport, dport), 0) + 1
    except (EOFError, OSError) as err:  # a cut gzip: what was read counts
        print(f'label_run.py: {rx}: {err}', file=sys.stderr)
    if not got:
        print(f'label_run.py: {rx}: no TCP payload read (not pcap, or a link type it does not read): counting every connection', file=sys.stderr)
    if got:
        conn = max(got, key=got.get)
        data_forwarded = frames[conn]  # those the link forwarded and the receiver captured


def of_conn(e, d):
    """Whether a log event is of the transfer's connection (any, where no
    capture tells it)."""
    if conn is None:
        return True
    ports = (e.get('sport'), e.get('dport'))
    return ports == (conn if d == 'a->b' else conn[::-1])


random = queue = reordered = ackdrops = 0
forwarded = 0
with gzip.open(prefix + '.truth.jsonl.gz', 'rt') as f:
    for line in f:
        e = json.loads(line)
        ev, d = e.get('event'), e.get('dir')
        if ev == 'total':
            if d == 'a->b':
                forwarded = e.get('forwarded', 0)
            continue
        if not of_conn(e, d):
            continue
        data = e.get('len', 0) > 0
        if d == 'a->b' and data:
            random += ev == 'loss'
            queue += ev == 'queue'
            reordered += ev == 'reorder'
        elif d == 'b->a' and not data and ev == 'loss':
            ackdrops += 1

link = float(env.get('RATE', '10')) * 1e6
bdp = link / 8 * 2 * seconds(env.get('DELAY', '300ms'))
# The rate the link carried: its data frames over the run (labelled-corpus.sh
# runs DUR=6 unless set), a full segment each. An estimate: a transfer that
# ended before DUR, or smaller frames, read lower, and may leave a window or
# an application rate don't care where it did hold the sender; the margin
# (half the rate) is for that.
achieved = forwarded * 1448 * 8 / float(env.get('DUR', '6'))
qbytes = float(env.get('QUEUE', '0'))
window = nbytes(env.get('WINDOW')) if env.get('WINDOW') else 0
app = rate(env.get('APPRATE')) if env.get('APPRATE') else 0
pep = env.get('PEP') == '1'
drops = random + queue
if conn is None:
    data_forwarded = forwarded  # every frame the link forwarded: no capture tells the transfer's


def side(at):
    true, dont = [], list(DONT)
    if at == 'tx' and pep:
        # The proxy acknowledges next to the capture: nothing of the far leg shows.
        true.append('nearby_peer')
        dont += ['random_loss', 'congestion_loss', 'reordering', 'receive_window', 'standing_queue', 'ack_path_loss']
        if app and app < link:
            true.append('application')
        return {'true': true, 'dont_care': sorted(set(dont))}
    for kind, n in (('random_loss', random), ('congestion_loss', queue)):
        if n >= 3 and n >= 0.2 * drops:
            true.append(kind)
        elif n > 0:
            dont.append(kind)
    if data_forwarded and reordered >= 0.01 * data_forwarded:
        true.append('reordering')
    elif reordered:
        dont.append('reordering')
    # A window or an application rate under the path's is a true cause only
    # where the transfer came near it: at least half the rate it allows
    # (the window per base round trip). Where loss or a tiny queue kept the
    # sender far below it, it held nothing (mx_526ms_2m_q4k_w99_l13_nosack_reno:
    # a 99 KB window allows 1.54 Mbit/s, the link carried 0.07), and naming
    # it is not required (nor wrong: it may have held a moment).
    if window and window < bdp and achieved >= 0.5 * window * 8 / (2 * seconds(env.get('DELAY', '300ms'))):
        true.append('receive_window')
    elif window and window < 2 * bdp:
        dont.append('receive_window')
    if app and app < link and achieved >= 0.5 * app:
        true.append('application')
    elif app and app < link:
        dont.append('application')
    if env.get('LOSS_BA', '0') not in ('0', '') and env.get('LOSS_MIN') == '0':
        (true if ackdrops >= 3 else dont).append('ack_path_loss')
    big = qbytes == 0 or qbytes >= 2 * bdp
    free = not window and not app
    if big and free and env.get('CC', 'cubic') != 'bbr' and drops < 3:
        true.append('standing_queue')
    elif (big or qbytes >= bdp) and (free or window >= bdp):
        dont.append('standing_queue')
    return {'true': true, 'dont_care': sorted(set(dont) - set(true))}


name = prefix.rsplit('/', 1)[-1]
json.dump({'name': name, 'settings': env, 'tx': side('tx'), 'rx': side('rx'),
           'truth': {'data_random_drops': random, 'data_queue_drops': queue, 'data_reordered': reordered,
                     'data_frames_forwarded': data_forwarded, 'ack_drops': ackdrops, 'bdp_bytes': int(bdp)}},
          sys.stdout, indent=1)
print()
