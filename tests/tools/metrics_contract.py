#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""metrics_contract.py DOCS_METRICS_MD EXPOSITION [EXPOSITION...] [--optional FAMILY...]

docs/metrics.md's table of metrics is the contract (docs/metrics.md, "The metrics"). This
reads it (family name, type, label names) and one or more real expositions of stwtop (a
scrape of /metrics, a --metrics-textfile), and checks both ways:
  - every family served is in the table, with the table's type and exactly its label names
    (a histogram's _bucket adds `le`), and no sample outside a declared family;
  - every family of the table is served by one of the expositions, but those named after
    --optional (the caller says why: no live JVM for jvm_*, ...).
Exit 0 when equal, 1 with the differences. Imported by check-deploy.py for the names.
"""
import re
import sys

ROW = re.compile(r"^\| `([a-z_:][a-z0-9_:]*)` \| ([a-z]+)[^|]*\| ([^|]*)\|")


def contract(md_path):
    """{family: (type, frozenset(label names))} from the table of docs/metrics.md"""
    out = {}
    with open(md_path) as f:
        text = f.read()
    start = text.index("## The metrics")
    for line in text[start:].splitlines():
        if line.startswith("### "):
            break
        m = ROW.match(line)
        if not m:
            continue
        name, typ, labels = m.group(1), m.group(2), m.group(3)
        # the label names are the backquoted words that open the cell or follow a comma or a
        # closing parenthesis: `collector` (`G1`, ...), `kind` (...) -> collector, kind
        names = set()
        depth = 0
        for tok in re.finditer(r"`([^`]+)`|\(|\)", labels):
            if tok.group(0) == "(":
                depth += 1
            elif tok.group(0) == ")":
                depth -= 1
            elif depth == 0:
                names.add(tok.group(1))
        out[name] = (typ, frozenset(names))
    if len(out) < 20:
        sys.exit("metrics_contract.py: only %d rows read from %s" % (len(out), md_path))
    return out


def series_names(md_path):
    """every sample name the contract allows (a histogram's _bucket, _sum, _count)"""
    names = set()
    for fam, (typ, _) in contract(md_path).items():
        if typ == "histogram":
            names |= {fam + s for s in ("_bucket", "_sum", "_count")}
        else:
            names.add(fam)
    return names


SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$")
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def served(path):
    """{family: (type, set of label-name sets)} of a text-format exposition"""
    types, fams = {}, {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# TYPE "):
                _, _, name, typ = line.split(" ", 3)
                types[name] = typ
                continue
            if not line or line.startswith("#"):
                continue
            m = SAMPLE.match(line)
            if not m:
                sys.exit("metrics_contract.py: %s: not a sample: %r" % (path, line))
            name = m.group(1)
            fam = name
            for suf in ("_bucket", "_sum", "_count"):
                if name.endswith(suf) and types.get(name[: -len(suf)]) == "histogram":
                    fam = name[: -len(suf)]
            if fam not in types:
                sys.exit("metrics_contract.py: %s: %s has no # TYPE" % (path, name))
            labels = frozenset(k for k, _ in LABEL.findall(m.group(3) or ""))
            if name.endswith("_bucket") and fam != name:
                labels = labels - {"le"}
            fams.setdefault(fam, (types[fam], set()))[1].add(labels)
    return fams


def main():
    args = sys.argv[1:]
    optional = set()
    if "--optional" in args:
        i = args.index("--optional")
        optional = set(args[i + 1:])
        args = args[:i]
    if len(args) < 2:
        sys.exit(__doc__)
    want = contract(args[0])
    bad = []
    seen = set()
    for path in args[1:]:
        for fam, (typ, labelsets) in served(path).items():
            seen.add(fam)
            if fam not in want:
                bad.append("%s: %s is served but not in docs/metrics.md" % (path, fam))
                continue
            wtyp, wlabels = want[fam]
            if wtyp != typ:
                bad.append("%s: %s is a %s, docs/metrics.md says %s" % (path, fam, typ, wtyp))
            for ls in labelsets:
                if ls != wlabels:
                    bad.append("%s: %s has labels %s, docs/metrics.md says %s"
                               % (path, fam, sorted(ls), sorted(wlabels)))
    for fam in sorted(set(want) - seen - optional):
        bad.append("%s is in docs/metrics.md but no exposition served it" % fam)
    for fam in sorted(optional - set(want)):
        bad.append("--optional %s is not in docs/metrics.md" % fam)
    for b in bad:
        print("FAIL " + b)
    if not bad:
        print("PASS %d families served, each with the type and labels of docs/metrics.md (%d optional: %s)"
              % (len(seen), len(optional), " ".join(sorted(optional))))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
