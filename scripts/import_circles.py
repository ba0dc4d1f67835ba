#!/usr/bin/env python3
"""The module import graph of a Rust crate's source folder, and its circles.

A module depends on another where it names it by path (`crate::a::b`,
`super::x`, or a child by its bare name, re-exports included); a parent
that uses its children and children that use their parent count as a
circle too. Prints each circle (with -v, its edges) and `cycles: N`.

    python3 scripts/import_circles.py host/src [-v]
"""
import os, re, sys
from collections import defaultdict
root = sys.argv[1]
mods = {}
for dp, dn, fn in os.walk(root):
    for f in fn:
        if f.endswith('.rs'):
            p = os.path.join(dp, f); rel = os.path.relpath(p, root)[:-3]
            parts = rel.split('/')
            if parts[-1] in ('mod', 'lib', 'main'): parts = parts[:-1]
            mods['::'.join(parts)] = p
def resolve(path):
    parts = path.split('::')
    while parts:
        m = '::'.join(parts)
        if m in mods: return m
        parts = parts[:-1]
    return ''
edges = defaultdict(set)
for m, p in mods.items():
    src = open(p).read()
    src = re.sub(r'//.*', '', src)
    for um in re.finditer(r'\b(crate|super)::([\w:]+)(::\{([^;]*?)\})?', src, re.S):
        base = um.group(1); rest = um.group(2).rstrip(':')
        if base == 'super':
            parent = m.split('::')[:-1] if m else []
            full = '::'.join(parent + [rest])
            # handle super::super
            while full.startswith('super::') or '::super' in full:
                break
        else:
            full = rest
        cands = [full]
        if um.group(4):
            for item in re.split(r',', um.group(4)):
                item = item.strip().split(' as ')[0].strip()
                if item and item != 'self' and re.match(r'^[\w:]+$', item):
                    cands.append(full + '::' + item)
        for c in cands:
            t = resolve(c)
            if t != m and t:
                edges[m].add(t)
    # bare child paths (`memory::X`, `pub use memory::X`) from a parent module
    for cm in re.finditer(r'(?<![\w:])(self::)?(\w+)::', src):
        child = (m + '::' if m else '') + cm.group(2)
        if child in mods and not re.search(r'\bmod\s+' + cm.group(2) + r'\s*;', src[max(0,cm.start()-20):cm.end()]):
            edges[m].add(child)
# Tarjan
idx = {}; low = {}; st = []; on = set(); sccs = []; c = [0]
sys.setrecursionlimit(10000)
def sc(v):
    idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
    for w in edges[v]:
        if w not in idx: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        sccs.append(comp)
for v in list(mods):
    if v not in idx: sc(v)
bad = [s for s in sccs if len(s) > 1]
for s in bad:
    print(len(s), sorted(s))
    if '-v' in sys.argv:
        for a in sorted(s):
            print('   ', a, '->', sorted(x for x in edges[a] if x in s))
print('cycles:', len(bad))
