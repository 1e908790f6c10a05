#!/usr/bin/env python3
"""Draws random lab scenarios for the labelled diagnosis corpus.

    draw_scenarios.py SEED N     # N lines NAME|SETTINGS (scenario.sh's variables)

The same SEED and N give the same scenarios (python's random.Random), so a
held-out set is recorded again from its seed: scripts/labelled-corpus.sh
DIR --random SEED N records them, and testdata/labelled/heldout/ lists the
sets recorded so far. Draws: DELAY 5-300 ms one way, RATE 1-50 Mbit/s,
QUEUE 3 KB to twice the bandwidth-delay product or none (unbounded), LOSS
0-2% (often none), JITTER 0-12 ms (often none), WINDOW 16K-128K
(sometimes), APPRATE below RATE (sometimes), CC cubic half the time, reno a
third, bbr the rest, SACK=0 or TS=0 (sometimes), LOSS_BA with LOSS_MIN=0
(sometimes), DUR 6-10 s. About half are small-window cases (RATE 1-3 with
DELAY up to 40 ms, or a 3-6 KB queue), where the diagnosis and the sender
state are hardest. Names: mx_<RTT>ms_<RATE>m[_q<K>k][_w<K>][_j<ms>]
[_l<loss%>][_a<app>m][_b<ackloss%>][_nosack][_nots][_reno|_bbr]."""
import math
import random
import sys

seed, n = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)

def logu(lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))

seen = set()
for i in range(n):
    small = rng.random() < 0.5
    kind = None
    if small:
        kind = 'slow' if rng.random() < 0.5 else 'tinyq'
    if kind == 'slow':
        rate = rng.randint(1, 3)
        delay = rng.randint(5, 40)
    else:
        rate = rng.randint(1, 50) if rng.random() < 0.5 else max(1, min(50, round(logu(1, 50))))
        delay = rng.randint(5, 300) if rng.random() < 0.6 else max(5, min(300, round(logu(5, 300))))
    bdp = rate * 1e6 / 8 * 2 * delay / 1000
    if kind == 'tinyq':
        queue = rng.randint(3, 6) * 1000
    elif rng.random() < 0.25:
        queue = 0  # omitted: unbounded
    else:
        hi = max(4000, 2 * bdp)
        queue = int(round(logu(3000, hi) / 1000)) * 1000
        queue = max(3000, queue)
    loss = round(rng.randint(1, 20) / 1000, 3) if rng.random() < 0.35 else 0
    jitter = rng.randint(1, 12) if rng.random() < 0.3 else 0
    window = rng.randint(16, 128) if rng.random() < 0.2 else 0
    app = 0
    if rng.random() < 0.15:
        app = max(0.5, round(rng.uniform(0.1, 0.8) * rate * 2) / 2)
        if app >= rate:
            app = 0
    r = rng.random()
    cc = 'cubic' if r < 1 / 2 else ('reno' if r < 1 / 2 + 1 / 3 else 'bbr')
    sack = 0 if rng.random() < 0.2 else 1
    ts = 0 if rng.random() < 0.2 else 1
    lossba = rng.randint(1, 10) / 100 if rng.random() < 0.15 else 0
    dur = rng.randint(6, 10)

    name = ['mx', '%dms' % (2 * delay), '%dm' % rate]
    st = ['DELAY=%dms' % delay, 'RATE=%d' % rate]
    if queue:
        name.append('q%dk' % (queue // 1000)); st.append('QUEUE=%d' % queue)
    if window:
        name.append('w%d' % window); st.append('WINDOW=%dK' % window)
    if jitter:
        name.append('j%d' % jitter); st.append('JITTER=%dms' % jitter)
    if loss:
        name.append('l' + ('%g' % (loss * 100)).replace('.', '')); st.append('LOSS=%g' % loss)
    if app:
        name.append('a' + ('%g' % app).replace('.', 'p') + 'm'); st.append('APPRATE=%gM' % app)
    if lossba:
        name.append('b%02d' % round(lossba * 100)); st.append('LOSS_BA=%g LOSS_MIN=0' % lossba)
    if not sack:
        name.append('nosack'); st.append('SACK=0')
    if not ts:
        name.append('nots'); st.append('TS=0')
    if cc != 'cubic':
        name.append(cc)
    st.append('CC=%s' % cc)
    st.append('DUR=%d' % dur)
    nm = '_'.join(name)
    k = 2
    while nm in seen:
        nm = '_'.join(name) + '_%d' % k; k += 1
    seen.add(nm)
    print('%s|%s' % (nm, ' '.join(st)))
