#!/usr/bin/env python3
"""check-deploy.py — the static checks of deploy/ and docs/fleet.md, for tests/e2e/prom_rules.sh.

  check-deploy.py static ROOT HELP_FILE OUT_DIR
      the alert rules against docs/verdicts.md and the metric names of the contract; every
      stwtop option used in deploy/ and docs/fleet.md against `stwtop --help`; the Kubernetes
      example's structure (shared volumes and paths, scrape annotations, limits); every yaml
      block of docs/fleet.md parses. Writes what the shell runs next into OUT_DIR: jvm.sh (the
      JVM container's script), stwtop.sh (the stwtop container's command), sources (its
      STWTOP_SOURCES), nginx.conf (the ConfigMap's), metrics_port.
  check-deploy.py ndjson ROOT NDJSON_FILE...
      every field and value the Vector snippet of docs/fleet.md reads exists in real
      `stwtop --plain --json` output.

Prints one "FAIL ..." line per failed check, then "check-deploy: N passed, M failed"; exit 1 on
any failure.
"""
import json
import os
import re
import shlex
import sys

import yaml

passed, failed = 0, 0


def ok():
    global passed
    passed += 1


def bad(msg):
    global failed
    failed += 1
    print("FAIL " + msg)


def check(cond, msg):
    ok() if cond else bad(msg)


# The metric names of the contract (issue 17; all prefixed stwtop_). Histograms also have
# _bucket, _sum and _count series.
COUNTERS_GAUGES = {
    "build_info", "stops_total", "gc_pauses_total", "heap_committed_bytes", "heap_used_after_gc_bytes",
    "cgroup_throttled_seconds_total", "cgroup_throttled_periods_total", "nginx_requests_total",
    "nginx_upstream_connect_total", "verdicts_total", "verdict_active", "source_lines_total", "source_up",
}
HISTOGRAMS = {"stop_seconds", "ttsp_seconds", "gc_pause_seconds", "nginx_request_seconds"}
# options being added with the metrics (issue 17): allowed before the binary has them
NEW_OPTIONS = {"--metrics", "--metrics-textfile"}


def metric_names():
    names = {"stwtop_" + n for n in COUNTERS_GAUGES}
    for h in HISTOGRAMS:
        names |= {"stwtop_" + h + s for s in ("_bucket", "_sum", "_count")}
    return names


def verdict_sections(root):
    """id -> severity line of each '## id' section of docs/verdicts.md"""
    out, cur = {}, None
    with open(os.path.join(root, "docs/verdicts.md")) as f:
        for line in f:
            m = re.match(r"^## ([a-z0-9]+(?:-[a-z0-9]+)+)$", line.rstrip("\n"))
            if m:
                cur = m.group(1)
                out[cur] = ""
            elif cur and not out[cur] and line.startswith("*"):
                out[cur] = line.strip()
    return out


def stwtop_options(text):
    """the --options given to stwtop in commands of a text (not kubectl's after '-c stwtop')"""
    opts = set()
    for line in text.splitlines():
        for m in re.finditer(r"(?<![\w/.:-])stwtop(?=[ \t])", line):
            if re.search(r"-c\s+$", line[:m.start()]):
                continue  # kubectl ... -c stwtop: the container's name
            for tok in line[m.end():].split():
                if tok[0] in "|;&'\")`" or tok == "&&":
                    break
                if re.match(r"^--[a-z][a-z0-9-]*", tok):
                    opts.add(re.match(r"^--[a-z][a-z0-9-]*", tok).group(0))
    return opts


def check_rules(root):
    path = os.path.join(root, "deploy/prometheus/stwtop-alerts.yml")
    with open(path) as f:
        doc = yaml.safe_load(f)
    alerts = [r for g in doc["groups"] for r in g["rules"] if "alert" in r]
    sections = verdict_sections(root)
    crit_ids = sorted(i for i, sev in sections.items() if "crit" in sev)
    check(len(crit_ids) >= 9, "docs/verdicts.md: only %d verdicts that can be crit found" % len(crit_ids))
    exprs = {a["alert"]: a["expr"] for a in alerts}
    for vid in crit_ids:
        hits = [n for n, e in exprs.items() if 'id="%s",severity="crit"' % vid in e]
        check(len(hits) == 1, "verdict %s can be crit (docs/verdicts.md) but %d alerts watch it" % (vid, len(hits)))
    for n, e in exprs.items():
        for vid in re.findall(r'id="([^"]+)"', e):
            check(vid in sections, "%s: verdict id %s has no section in docs/verdicts.md" % (n, vid))
        for sev in re.findall(r'severity="([^"]+)"', e):
            check(sev in ("info", "warn", "crit"), "%s: severity %s is not a verdict severity" % (n, sev))
        for name in re.findall(r"\bstwtop_[a-z_]+", e):
            check(name in metric_names(), "%s: %s is not a metric of the contract" % (n, name))
    for a in alerts:
        n = a["alert"]
        check(a.get("labels", {}).get("severity") in ("crit", "warn", "info"), "%s: no severity label" % n)
        ann = a.get("annotations", {})
        check(ann.get("summary") and ann.get("description"), "%s: needs a summary and a description" % n)
        for anchor in re.findall(r"docs/verdicts\.md#([a-z0-9-]+)", " ".join(ann.values())):
            check(anchor in sections, "%s: docs/verdicts.md#%s does not exist" % (n, anchor))
    with open(path) as f:
        return f.read()


def mount_of(container, path):
    """(volume name, mountPath) of the mount that holds path, longest first"""
    best = None
    for m in container.get("volumeMounts", []):
        mp = m["mountPath"].rstrip("/")
        if (path == mp or path.startswith(mp + "/")) and (best is None or len(mp) > len(best[1])):
            best = (m["name"], mp)
    return best


def same_file(writer, wpath, reader, rpath):
    """the file the writer writes at wpath is the one the reader reads at rpath"""
    w, r = mount_of(writer, wpath), mount_of(reader, rpath)
    if not w or not r or w[0] != r[0]:
        return False
    return wpath[len(w[1]):] == rpath[len(r[1]):]


def check_kubernetes(root, out):
    path = os.path.join(root, "deploy/kubernetes/stwtop-sidecar.yaml")
    with open(path) as f:
        text = f.read()
    docs = [d for d in yaml.safe_load_all(text) if d]
    kinds = {d["kind"]: d for d in docs}
    check("Deployment" in kinds and "ConfigMap" in kinds, "stwtop-sidecar.yaml: a Deployment and a ConfigMap")
    pod = kinds["Deployment"]["spec"]["template"]
    spec = pod["spec"]
    check(spec.get("shareProcessNamespace") is True, "the pod must share its process namespace")
    cs = {c["name"]: c for c in spec["containers"]}
    st = cs.get("stwtop")
    check(st is not None, "no container named stwtop (the alert texts name it)")
    jvm = next((c for c in spec["containers"] if "java " in " ".join(c.get("command", []) + c.get("args", []))), None)
    ngx = next((c for c in spec["containers"] if c.get("image", "").startswith("nginx")), None)
    check(jvm is not None and ngx is not None, "a JVM container and an nginx container")
    cmd = " ".join(st.get("command", []) + st.get("args", []))
    env = {e["name"]: e.get("value", "") for e in st.get("env", [])}
    sources = env.get("STWTOP_SOURCES", "")
    check("--plain --json" in cmd, "stwtop runs with --plain --json")
    check("$STWTOP_SOURCES" in cmd and sources, "stwtop's sources are in STWTOP_SOURCES (the alerts use it)")
    m = re.search(r"--metrics 0\.0\.0\.0:(\d+)", cmd)
    check(m is not None, "stwtop serves --metrics on 0.0.0.0 (the pod's address)")
    port = m.group(1) if m else "0"
    ann = pod["metadata"].get("annotations", {})
    check(ann.get("prometheus.io/scrape") == "true", "pod annotation prometheus.io/scrape: \"true\"")
    check(ann.get("prometheus.io/port") == port, "pod annotation prometheus.io/port is --metrics's port")
    check(ann.get("prometheus.io/path") == "/metrics", "pod annotation prometheus.io/path: /metrics")
    check(any(str(p.get("containerPort")) == port for p in st.get("ports", [])), "stwtop declares its metrics port")
    for c in spec["containers"]:
        lim = c.get("resources", {}).get("limits", {})
        check("cpu" in lim and "memory" in lim, "container %s has cpu and memory limits" % c["name"])
    check(all(m.get("readOnly") for m in st.get("volumeMounts", [])), "stwtop mounts everything read-only")
    vols = {v["name"]: v for v in spec.get("volumes", [])}
    for c in spec["containers"]:
        for mnt in c.get("volumeMounts", []):
            check(mnt["name"] in vols, "container %s mounts an undeclared volume %s" % (c["name"], mnt["name"]))

    # the files stwtop reads are the files the others write
    args = shlex.split(sources)
    opt = {}
    for i in range(len(args) - 1):
        if args[i].startswith("--"):
            opt.setdefault(args[i], args[i + 1])
    jscript = " ".join(jvm.get("command", []) + jvm.get("args", []))
    xlog = re.search(r"-Xlog:\S*?:file=([^:\s]+)", jscript)
    check(xlog is not None and same_file(jvm, xlog.group(1), st, opt.get("--gc", "")),
          "--gc %s is not the file the JVM's -Xlog writes" % opt.get("--gc"))
    loop = re.search(r">>\s*(\S+cpustat\.log)", jscript)
    check(loop is not None and same_file(jvm, loop.group(1), st, opt.get("--cpustat-log", "")),
          "--cpustat-log %s is not the file the JVM container's loop writes" % opt.get("--cpustat-log"))
    conf = kinds["ConfigMap"]["data"]["nginx.conf"]
    alog = re.search(r"access_log\s+(\S+)\s+(\w+);", conf)
    check(alog is not None and same_file(ngx, alog.group(1), st, opt.get("--nginx", "")),
          "--nginx %s is not the file nginx's access_log writes" % opt.get("--nginx"))
    nc = opt.get("--nginx-conf", ":")
    check(alog is not None and nc.rsplit(":", 1)[1] == alog.group(2),
          "--nginx-conf names log_format %s, access_log uses it" % nc)
    cm = mount_of(st, nc.rsplit(":", 1)[0])
    check(cm is not None and vols[cm[0]].get("configMap", {}).get("name") == kinds["ConfigMap"]["metadata"]["name"],
          "--nginx-conf reads the ConfigMap nginx reads")

    os.makedirs(out, exist_ok=True)
    for name, content in (("jvm.sh", jvm["command"][-1]), ("stwtop.sh", st["command"][-1]),
                          ("sources", sources), ("nginx.conf", conf), ("metrics_port", port)):
        with open(os.path.join(out, name), "w") as f:
            f.write(content)
    return text


def vector_block(root):
    with open(os.path.join(root, "docs/fleet.md")) as f:
        text = f.read()
    m = re.search(r"<!-- vector-config[^>]*-->\s*```yaml\n(.*?)```", text, re.S)
    return text, (m.group(1) if m else None)


def check_static(root, help_file, out):
    with open(help_file) as f:
        helptext = f.read()
    known = set(re.findall(r"--[a-z][a-z0-9-]*", helptext))
    texts = {"deploy/prometheus/stwtop-alerts.yml": check_rules(root),
             "deploy/kubernetes/stwtop-sidecar.yaml": check_kubernetes(root, out)}
    fleet, vector = vector_block(root)
    texts["docs/fleet.md"] = fleet
    for name, text in texts.items():
        opts = stwtop_options(text)
        check(opts, "%s: no stwtop command found (the option check would be empty)" % name)
        for o in sorted(opts):
            check(o in known or o in NEW_OPTIONS, "%s uses stwtop %s, which `stwtop --help` does not list" % (name, o))
    # the sources too (they are given to stwtop through $STWTOP_SOURCES)
    with open(os.path.join(out, "sources")) as f:
        for o in re.findall(r"--[a-z][a-z0-9-]*", f.read()):
            check(o in known, "STWTOP_SOURCES uses %s, which `stwtop --help` does not list" % o)
    # every yaml block of docs/fleet.md parses
    blocks = re.findall(r"```yaml\n(.*?)```", fleet, re.S)
    check(len(blocks) >= 4, "docs/fleet.md: the yaml blocks were not found")
    for b in blocks:
        try:
            yaml.safe_load(b)
            ok()
        except yaml.YAMLError as e:
            bad("docs/fleet.md: a yaml block does not parse: %s" % e)
    check(vector is not None, "docs/fleet.md: the Vector block after <!-- vector-config --> is missing")


def check_ndjson(root, files):
    objs = []
    for fn in files:
        with open(fn) as f:
            for i, line in enumerate(f, 1):
                try:
                    o = json.loads(line)
                except ValueError:
                    bad("%s:%d is not JSON: %.80s" % (fn, i, line))
                    continue
                objs.append(o)
                check(o.get("type") in ("verdict", "note", "status") and o.get("schema") == 1,
                      "%s:%d: type %r schema %r" % (fn, i, o.get("type"), o.get("schema")))
                if o.get("type") == "verdict":
                    check(o.get("event") in ("new", "update", "cleared", "final"),
                          "%s:%d: verdict event %r" % (fn, i, o.get("event")))
    keys = {}
    for o in objs:
        keys.setdefault(o.get("type"), set()).update(o.keys())
    for t in ("verdict", "note", "status"):
        check(t in keys, "no %s object in the real output: its fields cannot be checked" % t)
    _, vector = vector_block(root)
    cfg = yaml.safe_load(vector or "{}") or {}
    vrl = cfg.get("transforms", {}).get("stwtop_events", {}).get("source", "")
    check(vrl, "the Vector snippet has no stwtop_events remap source")
    # which object type each line of the remap reads: the branches of `if msg.type == ...`
    ctx, used = "all", []
    for line in vrl.splitlines():
        m = re.search(r'if msg\.type == "(\w+)"', line)
        if m:
            ctx = m.group(1)
        elif re.match(r"\s*} else {", line):
            ctx = "status"
        for f in re.findall(r"\bmsg\.([a-z_0-9]+)", line):
            used.append((ctx, f))
        for v in re.findall(r'msg\.type == "(\w+)"', line):
            check(v in keys, "the snippet compares msg.type with %r, which stwtop never writes" % v)
    check(len(used) >= 10, "the snippet's fields were not found (%d)" % len(used))
    for ctx, f in used:
        types = keys if ctx == "all" else {ctx: keys.get(ctx, set())}
        check(all(f in k for k in types.values()), "the snippet reads msg.%s of %s objects; stwtop's have %s"
              % (f, ctx, sorted(set().union(*types.values())) if types else "none"))
    for cond in re.findall(r'\.stwtop_type [!=]= "(\w+)"', vector or ""):
        check(cond in keys, "the snippet routes on type %r, which stwtop never writes" % cond)


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "static":
        check_static(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) >= 4 and sys.argv[1] == "ndjson":
        check_ndjson(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
    print("check-deploy: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
