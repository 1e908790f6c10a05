#!/usr/bin/env python3
"""Labels one lab run for the diagnosis corpus (see labelled-corpus.md).

    label_run.py PREFIX "SETTINGS"    # reads PREFIX.truth.jsonl.gz, writes the label JSON to stdout

The true causes come from the link's log (what it dropped and reordered)
and the settings (window, application rate, proxy, ACK loss)."""
import gzip, json, re, sys

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
    if forwarded and reordered >= 0.01 * forwarded:
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
                     'data_frames_forwarded': forwarded, 'ack_drops': ackdrops, 'bdp_bytes': int(bdp)}},
          sys.stdout, indent=1)
print()
