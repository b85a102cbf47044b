#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""prom-rules-tests.py RULES.yml > RULES.test.yml

Writes the `promtool test rules` file of deploy/prometheus/stwtop-alerts.yml: for every alert,
input series where it must fire (with the labels and annotations it must carry) and series
where it must not: a blip shorter than `for:` or than the long window, a sidecar restart that
re-reads old incidents, a quiet log, a verdict of long ago. A pod target and a node_exporter
textfile target (no pod, no namespace) both; a rendered text that shows an empty label
(`kubectl -n  exec`) stops the script. The committed deploy/prometheus/stwtop-alerts.test.yml is this script's
output; tests/e2e/prom_rules.sh checks that it is current, then runs promtool on it.

What is tested comes from here, not from the rules: the scenarios, the times the alerts must
fire at, their severity and labels. Only the expected annotation texts are taken from the
rules file, rendered here with the scraped labels by a small renderer of the template
constructs the rules use (an unknown construct stops the script); promtool renders them with
Prometheus's own templates, so a label that is missing or a template that does not expand
fails the test.
"""
import re
import sys
import time

import yaml

# the labels a scrape of the sidecar gives (docs/fleet.md's scrape config)
POD = {"job": "stwtop", "instance": "10.1.2.3:9612", "namespace": "shop", "pod": "catalog-6d8f9-x2x7q"}
# the same metrics read by node_exporter's textfile collector: no pod, no namespace
NODE = {"job": "node", "instance": "node-7:9100"}


def sel(name, labels):
    return name + "{" + ", ".join('%s="%s"' % (k, v) for k, v in labels.items()) + "}"


def humanize_percentage(v):
    # Prometheus: fmt.Sprintf("%.4g%%", v*100)
    return ("%.4g" % (v * 100)) + "%"


TOKEN = re.compile(r"\{\{(.*?)\}\}", re.S)
EQ = re.compile(r'^if eq \$labels\.(\w+) "([^"]*)"$')


def humanize_timestamp(v):
    # Prometheus: time.Unix(sec, nsec).UTC() printed by Go; the tests use whole seconds
    if v != int(v):
        sys.exit("prom-rules-tests.py: humanizeTimestamp of a fraction is not rendered here: %r" % v)
    return time.strftime("%Y-%m-%d %H:%M:%S +0000 UTC", time.gmtime(int(v)))


def render(text, labels, value):
    """Render the template constructs the rules use: {{ $labels.X }}, {{ with $labels.X }} or
    {{ with $externalLabels.X }} with {{ . }}, {{ if $labels.X }}, {{ if eq $labels.X "v" }},
    {{ else }}, {{ end }}, {{ $value | humanizePercentage }}, {{ $value | humanizeTimestamp }}.
    promtool's unit tests have no external labels: they render empty."""
    out, stack, pos = [], [], 0  # stack of [emitting?, dot, branch_taken]

    def emitting():
        return all(s[0] for s in stack)

    for m in TOKEN.finditer(text):
        if emitting():
            out.append(text[pos:m.start()])
        pos = m.end()
        act = m.group(1).strip()
        if act.startswith("with $labels."):
            v = labels.get(act[len("with $labels."):], "")
            stack.append([bool(v), v, bool(v)])
        elif act.startswith("with $externalLabels."):
            stack.append([False, "", False])
        elif EQ.match(act):
            k, want = EQ.match(act).groups()
            t = labels.get(k, "") == want
            stack.append([t, None, t])
        elif act.startswith("if $labels."):
            t = bool(labels.get(act[len("if $labels."):], ""))
            stack.append([t, None, t])
        elif act == "else":
            stack[-1][0] = not stack[-1][2]
        elif act == "end":
            stack.pop()
        elif not emitting():
            continue
        elif act == ".":
            out.append(stack[-1][1])
        elif act.startswith("$labels."):
            out.append(labels.get(act[len("$labels."):], ""))
        elif act == "$value | humanizePercentage":
            out.append(humanize_percentage(value))
        elif act == "$value | humanizeTimestamp":
            out.append(humanize_timestamp(value))
        else:
            sys.exit("prom-rules-tests.py: template construct not known here: {{ %s }}" % act)
    if stack:
        sys.exit("prom-rules-tests.py: unbalanced {{ with }}/{{ if }} in %r" % text)
    out.append(text[pos:])
    return "".join(out)


# what an empty label leaves in a text: "kubectl -n  exec  -c stwtop", "shop/ :"
EMPTY_LABEL = re.compile(r"-n  | exec  |/ :|\{\{|\}\}")


def load_alerts(path):
    with open(path) as f:
        doc = yaml.safe_load(f)
    return {r["alert"]: r for g in doc["groups"] for r in g["rules"] if "alert" in r}


class Gen:
    def __init__(self, alerts):
        self.alerts = alerts
        self.tests = []
        self.covered = {}  # alert -> set of "fires"/"silent"

    def expect(self, name, labels, value=None):
        """One expected alert: the series' labels, the alert's severity, rendered texts."""
        rule = self.alerts[name]
        exp_labels = dict(labels)
        for k, v in rule.get("labels", {}).items():
            exp_labels[k] = render(v, labels, value)
        if exp_labels.get("severity") not in ("critical", "warning", "info"):
            sys.exit("prom-rules-tests.py: %s: severity %r is not a routing word" % (name, exp_labels.get("severity")))
        ann = {k: render(v, labels, value) for k, v in rule.get("annotations", {}).items()}
        for k, v in ann.items():
            if EMPTY_LABEL.search(v):
                sys.exit("prom-rules-tests.py: %s %s renders an empty label for %s: %r" % (name, k, labels, v))
        return {"exp_labels": exp_labels, "exp_annotations": ann}

    def group(self, title, series, checks):
        """checks: (minute, alert, [expected alerts]); [] = must not fire then"""
        tests = []
        for minute, name, exp in checks:
            tests.append({"eval_time": "%dm" % minute, "alertname": name, "exp_alerts": exp})
            self.covered.setdefault(name, set()).add("fires" if exp else "silent")
        self.tests.append({
            "name": title,
            "interval": "1m",
            "input_series": [{"series": s, "values": v} for s, v in series],
            "alert_rule_test": tests,
        })


START = "process_start_time_seconds"


def slo_groups(g):
    """The pages: 5xx and latency budgets burning (multiwindow, 14.4 x a 1 % budget)."""
    E, L = "StwtopNginxErrorBudgetBurn", "StwtopNginxLatencyBudgetBurn"
    req = "stwtop_nginx_requests_total"
    ok, err = dict(POD, status_class="2xx"), dict(POD, status_class="5xx")
    g.group("5xx: half of the requests fail for 80 minutes: a page after for: 2m",
            [(sel(req, ok), "0+60x80"), (sel(req, err), "0+60x80"), (sel(START, POD), "0x80")],
            [(2, E, []), (10, E, [g.expect(E, POD, 0.5)]), (70, E, [g.expect(E, POD, 0.5)])])
    g.group("5xx: 5 % of the requests fail for 90 minutes: within the budget's burn, no page",
            [(sel(req, ok), "0+57x90"), (sel(req, err), "0+3x90"), (sel(START, POD), "0x90")],
            [(m, E, []) for m in (10, 60, 90)])
    # a blip: one hour healthy, then every request fails for 3 minutes; the short window is
    # over the threshold, the hour is not (3 of 63 minutes)
    g.group("5xx: every request fails for 3 minutes after an hour's health: no page",
            [(sel(req, ok), "0+60x60 3600x3 3600+60x20"), (sel(req, err), "0x60 60+60x2 180x20"),
             (sel(START, POD), "0x90")],
            [(m, E, []) for m in (62, 63, 64, 66, 70)])
    # a restart: 30 minutes of 50 % errors (paged then), an hour of health, then the sidecar
    # restarts at minute 91: its first scrape has counted 0, the next one the whole re-read log
    # (1800 old errors at once): the windows hold an old burst, no new page
    g.group("5xx: the sidecar restarts and re-reads an old burn: no second page",
            [(sel(req, ok), "0+60x90 0 5460+60x40"), (sel(req, err), "0+60x30 1800x60 0 1800x40"),
             (sel(START, POD), "0x90 5460x40")],
            [(10, E, [g.expect(E, POD, 0.5)]), (45, E, [])] + [(m, E, []) for m in range(92, 106)])
    node_ok, node_err = dict(NODE, status_class="2xx"), dict(NODE, status_class="5xx")
    g.group("5xx: a textfile read by node_exporter: the page names the host",
            [(sel(req, node_ok), "0+60x30"), (sel(req, node_err), "0+60x30"),
             (sel("stwtop_" + START, NODE), "0x30"), (sel(START, NODE), "0x30")],
            [(2, E, []), (10, E, [g.expect(E, NODE, 0.5)])])

    b1 = "stwtop_nginx_request_duration_seconds_bucket"
    cnt = "stwtop_nginx_request_duration_seconds_count"
    le1 = dict(POD, le="1")
    g.group("latency: half of the requests take over 1 s for 80 minutes: a page",
            [(sel(b1, le1), "0+60x80"), (sel(cnt, POD), "0+120x80"), (sel(START, POD), "0x80")],
            [(2, L, []), (10, L, [g.expect(L, POD, 0.5)])])
    # the throttle-stop incident of tests/samples: 9943 requests in 41 s, 602 over 1 s within 4
    # seconds; at its pace for a whole minute, then health
    g.group("latency: the throttle-stop incident (6 % over 1 s in one minute): no page",
            [(sel(b1, le1), "0+14000x30 433398+14000x40"), (sel(cnt, POD), "0+14000x71"),
             (sel(START, POD), "0x80")],
            [(m, L, []) for m in (31, 32, 33, 35, 40)])
    g.group("latency: every request slow for 3 minutes after an hour's health: no page",
            [(sel(b1, le1), "0+60x60 3600x3 3600+60x20"), (sel(cnt, POD), "0+60x90"),
             (sel(START, POD), "0x90")],
            [(m, L, []) for m in (62, 63, 64, 66, 70)])
    g.group("latency: the sidecar restarted 3 minutes ago during a burn: no page yet",
            [(sel(b1, le1), "0+60x30 0 1800+60x30"), (sel(cnt, POD), "0+120x30 0 3600+120x30"),
             (sel(START, POD), "0x30 1860x30")],
            [(10, L, [g.expect(L, POD, 0.5)]), (33, L, []), (36, L, [])])


def verdict_groups(g):
    """One rule for every verdict id, on the newest evidence's timestamp."""
    V = "StwtopVerdict"
    ts = "stwtop_verdict_last_evidence_timestamp_seconds"
    T = 1795980247  # 2026-11-29T19:24:07Z, the throttle-stop incident
    warn = dict(POD, id="cpu-throttled-during-stop", level="warn")
    g.group("verdict: a warn verdict raised at minute 10 notifies for 10 minutes",
            [(sel(ts, warn), "0x9 %dx50" % T)],
            [(9, V, []), (10, V, [g.expect(V, warn, T)]), (19, V, [g.expect(V, warn, T)]), (20, V, []),
             (50, V, [])])
    crit = dict(POD, id="accept-queue-overflow", level="crit")
    g.group("verdict: a crit verdict is a warning too, never a page",
            [(sel(ts, crit), "0x9 %dx50" % T)],
            [(10, V, [g.expect(V, crit, T)])])
    info = dict(POD, id="g1-not-shrinking", level="info")
    g.group("verdict: an info verdict is info",
            [(sel(ts, info), "0x9 %dx50" % T)],
            [(10, V, [g.expect(V, info, T)])])
    new = dict(POD, id="long-vm-operation", level="warn")
    g.group("verdict: an id this file never names (a verdict added later) needs no new rule",
            [(sel(ts, new), "0x9 %dx50" % T)],
            [(12, V, [g.expect(V, new, T)])])
    g.group("verdict: new evidence 15 minutes later notifies again",
            [(sel(ts, warn), "0x9 %dx14 %dx30" % (T, T + 900))],
            [(20, V, []), (25, V, [g.expect(V, warn, T + 900)]), (34, V, [g.expect(V, warn, T + 900)]),
             (35, V, [])])
    # the sidecar restarts at minute 40: two minutes without a scrape, one scrape before it has
    # judged again (0), then the same timestamp from the same lines
    g.group("verdict: a sidecar restart re-reads the incident: no second notification",
            [(sel(ts, warn), "0x9 %dx30 _x2 0 %dx40" % (T, T))],
            [(15, V, [g.expect(V, warn, T)])] + [(m, V, []) for m in (40, 42, 43, 44, 45, 50, 60, 80)])
    g.group("verdict: a quiet log, the verdict of long ago stays silent",
            [(sel(ts, warn), "%dx130" % T)],
            [(5, V, [g.expect(V, warn, T)]), (15, V, []), (60, V, []), (120, V, [])])
    g.group("verdict: no verdict of an id is no alert",
            [(sel(ts, warn), "0x60")],
            [(m, V, []) for m in (0, 5, 30)])
    node = dict(NODE, id="ttsp-spike", level="warn")
    g.group("verdict: from a textfile read by node_exporter: the text names the host",
            [(sel(ts, node), "0x9 %dx50" % T)],
            [(11, V, [g.expect(V, node, T)])])


def sustained_groups(g):
    G, S, T = "StwtopGcOverheadSustained", "StwtopStopTimeSustained", "StwtopCpuThrottled"
    gc = "stwtop_gc_pause_seconds_sum"
    young, full = dict(POD, collector="G1", kind="young"), dict(POD, collector="G1", kind="full")
    # 60 % of the wall clock in pauses, young and full together (the rule sums the kinds)
    g.group("GC overhead: paused 60 % of the time for 30 minutes",
            [(sel(gc, young), "0+24x30"), (sel(gc, full), "0+12x30")],
            [(5, G, []), (10, G, []), (14, G, [g.expect(G, POD, 0.6)])])
    g.group("GC overhead: paused 20 %: below gc-overhead's 30 %",
            [(sel(gc, young), "0+12x40")],
            [(m, G, []) for m in (12, 30)])
    g.group("GC overhead: 5 minutes of thrashing is shorter than for: 10m",
            [(sel(gc, young), "0x10 0+60x5 300x30")],
            [(m, G, []) for m in (12, 15, 17, 20, 25)])
    g.group("GC overhead: a counter reset (stwtop restarted) is not a pause",
            [(sel(gc, young), "0+6x20 0+6x20")],
            [(m, G, []) for m in (21, 22, 25, 30)])
    st = "stwtop_safepoint_seconds_sum"
    g.group("stop time: stopped 20 % of the time",
            [(sel(st, POD), "0+12x30")],
            [(5, S, []), (10, S, []), (14, S, [g.expect(S, POD, 0.2)])])
    g.group("stop time: 5 % is below the threshold",
            [(sel(st, POD), "0+3x30")],
            [(12, S, [])])
    g.group("stop time: 5 minutes of long stops is shorter than for: 10m",
            [(sel(st, POD), "0x10 0+30x5 150x30")],
            [(m, S, []) for m in (12, 15, 17, 20)])
    per, thr = "stwtop_cgroup_cpu_cfs_periods_total", "stwtop_cgroup_cpu_cfs_throttled_periods_total"
    sec = "stwtop_cgroup_cpu_cfs_throttled_seconds_total"
    # 100 ms periods: 600 a minute; the quota runs out in half of them
    g.group("throttling: the quota runs out in half of the periods for 30 minutes",
            [(sel(per, POD), "0+600x30"), (sel(thr, POD), "0+300x30"), (sel(sec, POD), "0+40x30")],
            [(10, T, []), (15, T, []), (17, T, [g.expect(T, POD, 0.5)])])
    # the old alert's trap: throttled_time is summed over the CPUs (here 1.86 s a second, the
    # "186 % of the wall clock" of issue 25) while the quota ran out in 10 % of the periods
    g.group("throttling: many CPUs throttled in 10 % of the periods: no alert",
            [(sel(per, POD), "0+600x30"), (sel(thr, POD), "0+60x30"), (sel(sec, POD), "0+111.6x30")],
            [(m, T, []) for m in (17, 30)])
    g.group("throttling: 10 minutes of throttling is shorter than for: 15m",
            [(sel(per, POD), "0+600x40"), (sel(thr, POD), "0x5 0+600x10 6000x25")],
            [(m, T, []) for m in (12, 15, 18, 20)])
    g.group("throttling: a counter reset (stwtop restarted) is not throttling",
            [(sel(per, POD), "0+600x20 0+600x20"), (sel(thr, POD), "0+30x20 0+30x20")],
            [(m, T, []) for m in (21, 22, 25, 40)])


def source_groups(g):
    up = "stwtop_source_up"
    gcl = dict(POD, source="gc.log")
    D, U = "StwtopSourceDown", "StwtopDown"
    g.group("source down: gc.log unreadable for 20 minutes",
            [(sel(up, gcl), "1x5 0x20"), (sel(up, dict(POD, source="access.log")), "1x25")],
            [(7, D, []), (10, D, [g.expect(D, gcl)])])
    g.group("source down: a rotation that lasted a minute",
            [(sel(up, gcl), "1x5 0 0 1x20")],
            [(m, D, []) for m in (7, 8, 9, 12)])
    ngcl = dict(NODE, source="/var/log/app/gc.log")
    g.group("source down: from a textfile: the text names the host",
            [(sel(up, ngcl), "1x5 0x20")],
            [(10, D, [g.expect(D, ngcl)])])
    other = {"job": "kubernetes-pods", "instance": "10.1.2.9:8080", "namespace": "shop", "pod": "cart-5c4-zz9"}
    bi = dict(POD, version="0.1.0", revision="3451cce95215", features="http,zstd")
    g.group("stwtop down: its target stops answering",
            [(sel("up", POD), "1x10 0x20"), (sel("stwtop_build_info", bi), "1x10 _x20"),
             (sel("up", other), "1x10 0x20")],
            [(14, U, []), (17, U, [g.expect(U, POD)])])
    g.group("stwtop down: a restart of 3 minutes",
            [(sel("up", POD), "1x10 0x2 1x20"), (sel("stwtop_build_info", bi), "1x10 _x2 1x20")],
            [(m, U, []) for m in (12, 14, 16, 20)])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: prom-rules-tests.py RULES.yml > RULES.test.yml")
    rules_path = sys.argv[1]
    alerts = load_alerts(rules_path)
    g = Gen(alerts)
    slo_groups(g)
    verdict_groups(g)
    sustained_groups(g)
    source_groups(g)
    missing = [a for a in alerts if g.covered.get(a) != {"fires", "silent"}]
    unknown = [a for a in g.covered if a not in alerts]
    if missing or unknown:
        sys.exit("prom-rules-tests.py: alerts without a firing and a silent case: %s; tested but "
                 "not in the rules: %s" % (missing, unknown))
    head = ("# Generated by tests/tools/prom-rules-tests.py from stwtop-alerts.yml: edit that script\n"
            "# (the scenarios) or the rules (the texts), then regenerate:\n"
            "#   python3 tests/tools/prom-rules-tests.py deploy/prometheus/stwtop-alerts.yml \\\n"
            "#     > deploy/prometheus/stwtop-alerts.test.yml\n"
            "# Run: promtool test rules deploy/prometheus/stwtop-alerts.test.yml\n")
    doc = {"rule_files": ["stwtop-alerts.yml"], "evaluation_interval": "1m", "tests": g.tests}
    sys.stdout.write(head + yaml.safe_dump(doc, sort_keys=False, width=100, allow_unicode=True))


if __name__ == "__main__":
    main()
