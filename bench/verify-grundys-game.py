#!/usr/bin/env python3
"""Checks values of a Grundy's game checkpoint against the definition, G(n) = mex{G(a) xor
G(n - a) : 1 <= a < n - a}, read from the checkpoint's own prefix: the rare heaps found past
2^20 and N random heaps. Needs numpy (the project's .venv has it).
Usage: .venv/bin/python bench/verify-grundys-game.py CHECKPOINT N"""
import numpy as np, sys, random
f=open(sys.argv[1],'rb'); data=f.read()
hdr_end=data.index(b'\n\n'); hdr=data[:hdr_end].decode(); print(hdr)
width=int([l for l in hdr.splitlines() if l.startswith('width')][0].split()[1])
dtype={1:'u1',2:'<u2',4:'<u4'}[width]
G=np.frombuffer(data, dtype=dtype, offset=hdr_end+2)
n_total=len(G); print("values", n_total)
def by_definition(n):
    # Grundy's game: split a heap into two unequal non-empty heaps.
    half=(n-1)//2  # a in 1..half, a < n-a
    if half<1: return 0
    x=G[1:half+1] ^ G[n-half:n][::-1]
    seen=np.zeros(int(x.max())+2,bool); seen[np.unique(x)]=True
    return int(np.argmin(seen))
rare=[47461861, 47482266, 47595779, 47844890, 47846178, 47850055, 47879108, 47912346, 48042117, 48046310, 48142092, 48142376, 48399022, 82860]
random.seed(1)
sample=rare+[random.randrange(2, n_total) for _ in range(int(sys.argv[2]))]
bad=0
for n in sample:
    v=by_definition(n)
    if v!=G[n]: bad+=1; print("MISMATCH", n, v, G[n])
print("checked", len(sample), "mismatches", bad)
