#!/usr/bin/env python3
"""Is there a sparse space for a hexadecimal game? For every mask of the values' low bits and
both versions (range: a heap is rare when the bits of G(n) under the mask have even parity;
domain: when that parity equals (n + t) mod 2, t = 0 or 1), counts the rare heaps among
1..N and prints the best. The rare/common split saves work only when rare heaps are rare (the
engine's octal kernel runs it below one heap in 12).
Usage: python3 bench/three-way-sparse.py BINARY N CODE...   (BINARY: a grundy build)"""
import subprocess, sys
binary, n, codes = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
for code in codes:
    out = subprocess.run([binary, "sequence", f"hex:{code}", "--to", str(n)], capture_output=True, text=True, check=True)
    G = list(map(int, out.stdout.split()))
    best = None
    bits = min(max(G).bit_length(), 11)
    for mask in range(1, 1 << bits):
        odd = [bin(v & mask).count("1") & 1 for v in G]
        for version, t in (("range", None), ("domain", 0), ("domain", 1)):
            rare = sum(1 for h in range(1, len(G)) if odd[h] == (0 if t is None else (h + t) & 1))
            if best is None or rare < best[0]:
                best = (rare, mask, version, t)
    rare, mask, version, t = best
    print(f"hex:{code} heaps 1..{n}: fewest rare heaps {rare} ({100 * rare / n:.0f}%) with mask {mask:#b}, {version} version" + ("" if t is None else f", t = {t}"))
