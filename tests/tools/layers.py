#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""layers.py [--build DIR] — every arrow runs down (issue 23).

The floors are the table under "## Floors" in docs/architecture.md: a file may
include the headers of, and call, its own floor and the floors below it, never
one above. Checked here:
  1. the table names every .c file of core/ and tui/ (a new file needs a floor)
     and every folder or file it names exists;
  2. includes: each `#include "stwtop/X.h"` (and a wing's private header) in
     core/ and include/stwtop/ goes to the same floor or a lower one. A public
     header's floor is its module's (X.h <-> X.c), or the wing it is named for
     (rules.h, probe.h). tui/ shares its private headers, so its arrows are
     checked by calls only;
  3. calls: with --build, every undefined symbol of an object file that another
     object of the program defines is defined on the same floor or a lower one
     (nm -P on the objects CMake built), core/ and tui/ alike.
Exit 0 when all hold; otherwise each upward arrow is printed and the exit is 1.
"""
import fnmatch
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def floors_from_doc():
    text = open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8").read()
    m = re.search(r"^## Floors\n(.*?)(?=^## )", text, re.S | re.M)
    if not m:
        sys.exit("layers: docs/architecture.md has no '## Floors' section")
    floors = []  # (number, [patterns])
    for line in m.group(1).splitlines():
        row = re.match(r"\|\s*(\d+)\s*\|([^|]*)\|", line)
        if row:
            pats = re.findall(r"`([^`]+)`", row.group(2))
            floors.append((int(row.group(1)), pats))
    if not floors:
        sys.exit("layers: the Floors table has no rows")
    return floors


def sources():
    out = []
    for pat in ("core/*/*.c", "core/*/*.h", "tui/*.c", "tui/*.h"):
        out += sorted(glob.glob(pat, root_dir=ROOT))
    return out


def floor_of(path, floors):
    for n, pats in floors:
        for p in pats:
            if p.endswith("/") and path.startswith(p):
                return n
            if fnmatch.fnmatch(path, p):
                return n
    return None


def header_floor(name, floors, files):
    """include/stwtop/NAME.h: the floor the table gives it, of NAME.c, or of the wing NAME"""
    given = floor_of("include/stwtop/%s.h" % name, floors)
    if given is not None:
        return given
    for f in files:
        if f.endswith("/" + name + ".c"):
            return floor_of(f, floors)
    if os.path.isdir(os.path.join(ROOT, "core", name)):
        return floor_of("core/%s/" % name, floors)
    return None


def main():
    build = None
    if len(sys.argv) == 3 and sys.argv[1] == "--build":
        build = sys.argv[2]
    elif len(sys.argv) != 1:
        sys.exit(__doc__)
    floors = floors_from_doc()
    files = sources()
    bad = []
    # 1. the table and the tree agree
    for n, pats in floors:
        for p in pats:
            if not glob.glob(p.rstrip("/"), root_dir=ROOT):
                bad.append("the Floors table names %s (floor %d): no such file or folder" % (p, n))
    for f in files:
        if f.endswith(".c") and floor_of(f, floors) is None:
            bad.append("%s is on no floor: add it to the Floors table of docs/architecture.md" % f)
    # 2. includes
    inc = re.compile(r'^\s*#\s*include\s+"(stwtop/)?([\w.]+)\.h"', re.M)
    headers = sorted(glob.glob("include/stwtop/*.h", root_dir=ROOT))
    hfloor = {}
    for h in headers:
        name = os.path.basename(h)[:-2]
        hfloor[name] = header_floor(name, floors, files)
        if hfloor[name] is None:
            bad.append("%s: no module or wing of that name, so no floor" % h)
    checked = [f for f in files if f.startswith("core/")] + headers
    for f in checked:
        mine = hfloor.get(os.path.basename(f)[:-2]) if f.startswith("include/") else floor_of(f, floors)
        if mine is None:
            continue
        text = open(os.path.join(ROOT, f), encoding="utf-8", errors="replace").read()
        for m in inc.finditer(text):
            if m.group(1):
                to = hfloor.get(m.group(2))
                what = "stwtop/%s.h" % m.group(2)
            else:  # a wing's private header, next to the file
                local = os.path.join(os.path.dirname(f), m.group(2) + ".h")
                to = floor_of(local, floors)
                what = local
            if to is not None and to > mine:
                bad.append("%s (floor %d) includes %s (floor %d): an arrow up" % (f, mine, what, to))
    # 3. calls, from the objects
    if build:
        objs = {}
        for o in glob.glob(os.path.join(build, "CMakeFiles", "*.dir", "**", "*.o"), recursive=True):
            m = re.search(r"CMakeFiles/(stwtop_core|stwtop)\.dir/((?:core|tui)/.+)\.o$", o)
            if m and os.path.exists(os.path.join(ROOT, m.group(2))):
                objs[m.group(2)] = o
        if not objs:
            bad.append("no object files of core/ or tui/ under %s: build first" % build)
        defs, undef = {}, {}
        for src, o in objs.items():
            res = subprocess.run(["nm", "-P", o], capture_output=True, text=True, check=True)
            undef[src] = set()
            for line in res.stdout.splitlines():
                parts = line.split()
                if len(parts) < 2:
                    continue
                if parts[1] == "U":
                    undef[src].add(parts[0])
                elif parts[1] in ("T", "D", "B", "R"):
                    defs[parts[0]] = src
        for src in sorted(undef):
            mine = floor_of(src, floors)
            for sym in sorted(undef[src]):
                owner = defs.get(sym)
                if owner is None or mine is None:
                    continue
                to = floor_of(owner, floors)
                if to is not None and to > mine:
                    bad.append("%s (floor %d) calls %s of %s (floor %d): an arrow up" % (src, mine, sym, owner, to))
    for b in bad:
        print("FAIL:", b)
    nfiles = len(checked) + (len(objs) if build else 0)
    print("layers: %d floors, %d files and objects checked, %d arrows up or gaps" % (len(floors), nfiles, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
