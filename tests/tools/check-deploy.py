#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-deploy.py — the static checks of deploy/ and docs/fleet.md, for tests/e2e/prom_rules.sh.

  check-deploy.py static ROOT HELP_FILE OUT_DIR
      the alert rules against docs/verdicts.md and the metric names of the contract; every
      stwtop option used in deploy/ and docs/fleet.md against `stwtop --help`; the Kubernetes
      examples' structure, both forms (native sidecars; plain containers) and that they are the
      same pod (shared volumes and paths, JAVA_TOOL_OPTIONS, uid, scrape annotations, PodMonitor,
      liveness probe, seccomp, limits; stwtop waits for the JVM and follows it with --pid, and
      its image has the pgrep it waits with); every yaml block of docs/fleet.md parses. Writes
      what the shell runs next into OUT_DIR: stwtop.sh (the stwtop container's command), sources
      (its STWTOP_SOURCES), nginx.conf (the ConfigMap's), metrics_port, java_tool_options.
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


# The metric names of the contract: docs/metrics.md's table (tests/tools/metrics_contract.py
# reads it; tests/e2e/metrics_contract.sh checks a real scrape against it)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics_contract  # noqa: E402

# options being added with the metrics (issue 17): allowed before the binary has them
NEW_OPTIONS = {"--metrics", "--metrics-textfile"}
_NAMES = {}


def metric_names(root):
    if root not in _NAMES:
        _NAMES[root] = metrics_contract.series_names(os.path.join(root, "docs/metrics.md"))
    return _NAMES[root]


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
                if re.match(r'^"\$\w+"$', tok):
                    continue  # a quoted variable: an option's value (--pid "$pid")
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
    check(len(sections) >= 15, "docs/verdicts.md: only %d verdict sections found" % len(sections))
    exprs = {a["alert"]: a["expr"] for a in alerts}
    # one rule for every verdict id, keyed by the id label: no expression names an id, and
    # exactly one watches the verdict series
    verdict_rules = [n for n, e in exprs.items() if "stwtop_verdict" in e]
    check(len(verdict_rules) == 1, "one alert for the verdicts, keyed by id: %s" % verdict_rules)
    for n, e in exprs.items():
        check(not re.search(r'\bid\s*=~?\s*"', e), "%s: names a verdict id; one rule keyed by the id label serves every id" % n)
        check(not re.search(r"\bseverity\s*=", e), "%s: a series label named severity" % n)
        for name in re.findall(r"\b(?:stwtop|process)_[a-z_]+", e):
            check(name in metric_names(root), "%s: %s is not a metric of docs/metrics.md" % (n, name))
    for a in alerts:
        n = a["alert"]
        sev = a.get("labels", {}).get("severity", "")
        check(sev in ("critical", "warning", "info") or ("{{" in sev and all(
            w in ("critical", "warning", "info") for w in re.findall(r"\}\}([a-z]+)\{\{", sev))),
              "%s: severity %r is not critical/warning/info" % (n, sev))
        # a page is only what callers feel: nginx's budgets, and only with a for:
        if sev == "critical":
            check("stwtop_nginx_" in a["expr"] and a.get("for"), "%s: pages without nginx's series or a for:" % n)
        ann = a.get("annotations", {})
        check(ann.get("summary") and ann.get("description"), "%s: needs a summary and a description" % n)
        check(ann.get("runbook_url"), "%s: no runbook_url" % n)
        for anchor in re.findall(r"verdicts\.md#([a-z0-9-]+)", " ".join(ann.values())):
            check(anchor in sections, "%s: docs/verdicts.md#%s does not exist" % (n, anchor))
        if n in verdict_rules:
            check("verdicts.md#{{ $labels.id }}" in ann.get("runbook_url", ""),
                  "%s: runbook_url is not the verdict's section (#{{ $labels.id }})" % n)
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


MANIFESTS = ("deploy/kubernetes/stwtop-sidecar.yaml", "deploy/kubernetes/stwtop-sidecar-plain.yaml")
HELPERS = ("stwtop",)  # native sidecars in the first file, plain containers in the second


def load_manifest(root, rel):
    with open(os.path.join(root, rel)) as f:
        text = f.read()
    return text, {d["kind"]: d for d in yaml.safe_load_all(text) if d}


def as_plain(kinds):
    """the pod with native sidecars moved among the containers, as the plain form has them"""
    import copy
    k = copy.deepcopy(kinds)
    spec = k["Deployment"]["spec"]["template"]["spec"]
    inits = spec.pop("initContainers", [])
    for c in inits:
        c.pop("restartPolicy", None)
    spec["containers"] = spec.get("containers", []) + inits
    spec["containers"].sort(key=lambda c: c["name"])
    return k


def image_packages(root):
    """the Debian packages deploy/container/build-image.sh puts in the stwtop image"""
    with open(os.path.join(root, "deploy/container/build-image.sh")) as f:
        m = re.search(r"^PKGS=(\S+)", f.read(), re.M)
    return set(m.group(1).split(",")) if m else set()


def check_pod(rel, kinds, native, root):
    """the checks both forms must pass; returns what the shell needs"""
    check("Deployment" in kinds and "ConfigMap" in kinds and "PodMonitor" in kinds,
          "%s: a Deployment, a ConfigMap and a PodMonitor" % rel)
    pod = kinds["Deployment"]["spec"]["template"]
    spec = pod["spec"]
    inits = spec.get("initContainers", [])
    allc = spec["containers"] + inits
    check(spec.get("shareProcessNamespace") is True, "%s: the pod must share its process namespace" % rel)
    check(spec.get("securityContext", {}).get("seccompProfile", {}).get("type") == "RuntimeDefault",
          "%s: pod securityContext.seccompProfile.type RuntimeDefault" % rel)
    cs = {c["name"]: c for c in allc}
    st = cs.get("stwtop")
    check(st is not None, "%s: a container named stwtop (the alert texts name it)" % rel)
    check("cpustat" not in cs, "%s: the cpustat helper is gone: stwtop reads the JVM's cgroup with --pid" % rel)
    if native:
        for n in HELPERS:
            c = next((c for c in inits if c["name"] == n), None)
            check(c is not None and c.get("restartPolicy") == "Always",
                  "%s: %s is a native sidecar (initContainers, restartPolicy: Always)" % (rel, n))
    else:
        check(not inits, "%s: the plain form has no initContainers" % rel)
    jvm = next((c for c in allc if any(e["name"] == "JAVA_TOOL_OPTIONS" for e in c.get("env", []))), None)
    ngx = next((c for c in allc if c.get("image", "").startswith("nginx")), None)
    check(jvm is not None and ngx is not None, "%s: a JVM container (JAVA_TOOL_OPTIONS) and an nginx container" % rel)
    check(jvm in spec["containers"] and ngx in spec["containers"], "%s: the JVM and nginx are app containers" % rel)
    check("command" not in jvm and "args" not in jvm, "%s: the JVM container keeps its image's command" % rel)
    jto = {e["name"]: e.get("value", "") for e in jvm.get("env", [])}["JAVA_TOOL_OPTIONS"]
    cmd = " ".join(st.get("command", []) + st.get("args", []))
    env = {e["name"]: e.get("value", "") for e in st.get("env", [])}
    sources = env.get("STWTOP_SOURCES", "")
    check("--plain --json" in cmd, "%s: stwtop runs with --plain --json" % rel)
    # it waits for the JVM in the shared process namespace, then follows it with --pid (its
    # counters, its crash report, its cgroup); the image must have the pgrep it waits with
    script = st.get("command", [""])[-1]
    wait = re.search(r"until pid=\$\(pgrep -o -x java\); do sleep \d+; done\n", script)
    check(wait is not None, "%s: stwtop's command waits for the JVM: until pid=$(pgrep -o -x java); ..." % rel)
    check(re.search(r"^exec stwtop .*--pid \"\$pid\"", script, re.M) is not None,
          "%s: stwtop's command execs stwtop with --pid \"$pid\" (the JVM found)" % rel)
    check("procps" in image_packages(root), "%s: the stwtop image (deploy/container/build-image.sh) has no procps: "
          "no pgrep for the command's wait" % rel)
    check("--cpustat-log" not in cmd + " " + sources,
          "%s: --cpustat-log: stwtop's cgroup probe reads the JVM container's cgroup with --pid" % rel)
    check("$STWTOP_SOURCES" in cmd and sources, "%s: stwtop's sources are in STWTOP_SOURCES (the alerts use it)" % rel)
    m = re.search(r"--metrics 0\.0\.0\.0:(\d+)", cmd)
    check(m is not None, "%s: stwtop serves --metrics on 0.0.0.0 (the pod's address)" % rel)
    port = m.group(1) if m else "0"
    check(port != "9404", "%s: 9404 is the JMX exporter's port (its javaagent runs in the JVM's pod)" % rel)
    ann = pod["metadata"].get("annotations", {})
    check(ann.get("prometheus.io/scrape") == "true", "%s: pod annotation prometheus.io/scrape: \"true\"" % rel)
    check(ann.get("prometheus.io/port") == port, "%s: pod annotation prometheus.io/port is --metrics's port" % rel)
    check(ann.get("prometheus.io/path") == "/metrics", "%s: pod annotation prometheus.io/path: /metrics" % rel)
    pname = next((p.get("name") for p in st.get("ports", []) if str(p.get("containerPort")) == port), None)
    check(pname is not None, "%s: stwtop declares its metrics port (named)" % rel)
    probe = st.get("livenessProbe", {}).get("httpGet", {})
    check(probe.get("path") == "/metrics" and str(probe.get("port")) in (port, str(pname)),
          "%s: stwtop's livenessProbe is httpGet /metrics on the metrics port" % rel)
    pm = kinds["PodMonitor"]["spec"]
    labels = pod["metadata"].get("labels", {})
    check(all(labels.get(k) == v for k, v in pm["selector"].get("matchLabels", {}).items()),
          "%s: the PodMonitor selects the pod's labels" % rel)
    eps = pm.get("podMetricsEndpoints", [])
    check(any(e.get("port") == pname and e.get("path", "/metrics") == "/metrics" for e in eps),
          "%s: the PodMonitor scrapes the stwtop port by its name" % rel)
    for c in allc:
        lim = c.get("resources", {}).get("limits", {})
        check("cpu" in lim and "memory" in lim, "%s: container %s has cpu and memory limits" % (rel, c["name"]))
    check(all(m.get("readOnly") for m in st.get("volumeMounts", [])), "%s: stwtop mounts everything read-only" % rel)
    # looking into the JVM (/proc/PID/root, hsperfdata, attach) needs the JVM's uid or CAP_SYS_PTRACE
    juid = jvm.get("securityContext", {}).get("runAsUser")
    for c in (st,):
        sc = c.get("securityContext", {})
        same = juid is not None and sc.get("runAsUser") == juid
        ptrace = "SYS_PTRACE" in sc.get("capabilities", {}).get("add", [])
        check(same or ptrace, "%s: %s runs as the JVM's uid (%s) or adds SYS_PTRACE" % (rel, c["name"], juid))
        check(sc.get("readOnlyRootFilesystem") and sc.get("allowPrivilegeEscalation") is False,
              "%s: %s: read-only root, no privilege escalation" % (rel, c["name"]))
    vols = {v["name"]: v for v in spec.get("volumes", [])}
    for c in allc:
        for mnt in c.get("volumeMounts", []):
            check(mnt["name"] in vols, "%s: container %s mounts an undeclared volume %s" % (rel, c["name"], mnt["name"]))

    # the files stwtop reads are the files the others write
    args = shlex.split(sources)
    opt = {}
    for i in range(len(args) - 1):
        if args[i].startswith("--"):
            opt.setdefault(args[i], args[i + 1])
    xlog = re.search(r"-Xlog:\S*?:file=([^:\s]+)", jto)
    check(xlog is not None and same_file(jvm, xlog.group(1), st, opt.get("--gc", "")),
          "%s: --gc %s is not the file JAVA_TOOL_OPTIONS's -Xlog writes" % (rel, opt.get("--gc")))
    ef = re.search(r"-XX:ErrorFile=(\S+)", jto)
    check(ef is not None and mount_of(jvm, ef.group(1)) is not None and mount_of(st, ef.group(1)) is not None,
          "%s: -XX:ErrorFile is on a volume stwtop mounts" % rel)
    conf = kinds["ConfigMap"]["data"]["nginx.conf"]
    alog = re.search(r"access_log\s+(\S+)\s+(\w+);", conf)
    check(alog is not None and same_file(ngx, alog.group(1), st, opt.get("--nginx", "")),
          "%s: --nginx %s is not the file nginx's access_log writes" % (rel, opt.get("--nginx")))
    nc = opt.get("--nginx-conf", ":")
    check(alog is not None and nc.rsplit(":", 1)[1] == alog.group(2),
          "%s: --nginx-conf names log_format %s, access_log uses it" % (rel, nc))
    cm = mount_of(st, nc.rsplit(":", 1)[0])
    check(cm is not None and vols[cm[0]].get("configMap", {}).get("name") == kinds["ConfigMap"]["metadata"]["name"],
          "%s: --nginx-conf reads the ConfigMap nginx reads" % rel)
    return {"stwtop.sh": st["command"][-1], "sources": sources, "nginx.conf": conf,
            "metrics_port": port, "java_tool_options": jto}


def check_kubernetes(root, out):
    """both forms of the sidecar; they must be the same pod apart from where stwtop is"""
    texts, kinds = {}, {}
    for rel in MANIFESTS:
        texts[rel], kinds[rel] = load_manifest(root, rel)
    native, plain = MANIFESTS
    got = check_pod(native, kinds[native], True, root)
    check(check_pod(plain, kinds[plain], False, root) == got, "the two forms give stwtop different commands or files")
    check(as_plain(kinds[native]) == as_plain(kinds[plain]),
          "%s and %s are not the same pod apart from initContainers/restartPolicy" % MANIFESTS)
    os.makedirs(out, exist_ok=True)
    for name, content in got.items():
        with open(os.path.join(out, name), "w") as f:
            f.write(content)
    return texts


def vector_block(root):
    with open(os.path.join(root, "docs/fleet.md")) as f:
        text = f.read()
    m = re.search(r"<!-- vector-config[^>]*-->\s*```yaml\n(.*?)```", text, re.S)
    return text, (m.group(1) if m else None)


def check_static(root, help_file, out):
    with open(help_file) as f:
        helptext = f.read()
    known = set(re.findall(r"--[a-z][a-z0-9-]*", helptext))
    texts = {"deploy/prometheus/stwtop-alerts.yml": check_rules(root)}
    texts.update(check_kubernetes(root, out))
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
