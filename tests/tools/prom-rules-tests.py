#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""prom-rules-tests.py RULES.yml > RULES.test.yml

Writes the `promtool test rules` file of deploy/prometheus/stwtop-alerts.yml: for every alert,
input series where it must fire (with the labels and annotations it must carry) and series
where it must not (a burst shorter than `for:`, a counter reset, another severity, a target
that is not stwtop). The committed deploy/prometheus/stwtop-alerts.test.yml is this script's
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

import yaml

CRIT_VERDICTS = {  # alert name -> verdict id (docs/verdicts.md: the ids that can be crit)
    "StwtopVerdictLongGcPause": "long-gc-pause",
    "StwtopVerdictTtspSpike": "ttsp-spike",
    "StwtopVerdictLongVmOperation": "long-vm-operation",
    "StwtopVerdictCpuThrottledDuringStop": "cpu-throttled-during-stop",
    "StwtopVerdictAcceptQueueOverflow": "accept-queue-overflow",
    "StwtopVerdictConnectTimeout504": "connect-timeout-504",
    "StwtopVerdictGcOverhead": "gc-overhead",
    "StwtopVerdictJvmExited": "jvm-exited",
    "StwtopVerdictZgcAllocationStall": "zgc-allocation-stall",
    "StwtopVerdictAotSigillAdapter": "aot-sigill-adapter",
}

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


def render(text, labels, value):
    """Render the template constructs the rules use: {{ $labels.X }}, {{ . }} inside
    {{ with $labels.X }}..{{ else }}..{{ end }}, {{ $value | humanizePercentage }}."""
    out, stack, pos = [], [], 0  # stack of (emitting?, dot, branch_taken)

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
        else:
            sys.exit("prom-rules-tests.py: template construct not known here: {{ %s }}" % act)
    if stack:
        sys.exit("prom-rules-tests.py: unbalanced {{ with }} in %r" % text)
    out.append(text[pos:])
    return "".join(out)


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
        exp_labels["severity"] = self.severity[name]
        ann = {k: render(v, labels, value) for k, v in rule.get("annotations", {}).items()}
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


def verdict_groups(g):
    for name, vid in CRIT_VERDICTS.items():
        crit = dict(POD, id=vid, severity="crit")
        warn = dict(POD, id=vid, severity="warn")
        total, active = "stwtop_verdicts_total", "stwtop_verdict_active"
        g.severity[name] = "crit"
        # a counter created at 0 when stwtop starts; one crit verdict at minute 6, active
        # for a minute (an incident verdict is final 30 s after its incident)
        g.group("%s: a crit %s on a counter that starts at 0" % (name, vid),
                [(sel(total, crit), "0x5 1x30"), (sel(active, crit), "0x5 1 0x30"),
                 (sel(total, warn), "0x36"), (sel(active, warn), "0x36")],
                [(5, name, []), (7, name, [g.expect(name, crit)]),
                 (15, name, [g.expect(name, crit)]), (17, name, [])])
        # a counter created at its first verdict: it starts at 1 and increase() sees nothing
        g.group("%s: a crit %s on a counter created by the verdict" % (name, vid),
                [(sel(total, crit), "_x6 1x30")],
                [(5, name, []), (6, name, [g.expect(name, crit)]), (15, name, [g.expect(name, crit)]),
                 (17, name, [])])
        # the same from a node_exporter textfile: no pod label, the instance names the place
        node = dict(NODE, id=vid, severity="crit")
        g.group("%s: a crit %s read through node_exporter's textfile collector" % (name, vid),
                [(sel(total, node), "0x5 2x30")],
                [(7, name, [g.expect(name, node)])])
        # still raised long after it was counted (a whole-run verdict such as gc-overhead, or
        # one that rose from warn to crit)
        g.group("%s: %s raised as warn, crit for 40 minutes" % (name, vid),
                [(sel(total, warn), "0x5 1x60"), (sel(total, crit), "0x65"),
                 (sel(active, warn), "0x5 1 0x60"), (sel(active, crit), "0x6 1x40 0x20")],
                [(6, name, []), (30, name, [g.expect(name, crit)]), (46, name, [g.expect(name, crit)]),
                 (48, name, [])])
        # verdict_active is a count: two incidents' crit verdicts active at once give 2
        g.group("%s: two crit %s verdicts active at once" % (name, vid),
                [(sel(active, crit), "0x5 2x3 0x30")],
                [(5, name, []), (7, name, [g.expect(name, crit)])])
        # must not fire: only warn verdicts of this id
        g.group("%s: only warn %s verdicts" % (name, vid),
                [(sel(total, warn), "0x5 1x10 3x20"), (sel(active, warn), "0x5 1x30"),
                 (sel(total, crit), "0x36"), (sel(active, crit), "0x36")],
                [(7, name, []), (20, name, [])])
        # must not fire: old verdicts (counted 20 minutes before), then stwtop restarts: the
        # counter falls back to 0 (or its series disappears) with no new verdict
        g.group("%s: old crit %s verdicts, stwtop restarted" % (name, vid),
                [(sel(total, crit), "3x20 0x20"), (sel(total, dict(crit, pod="other-pod")), "3x20 _x20"),
                 (sel(active, crit), "0x40")],
                [(15, name, []), (21, name, []), (22, name, []), (30, name, [])])
        # fires: after the restart a new crit verdict (3 -> 0 -> 1: a reset, then an increase)
        g.group("%s: a crit %s after stwtop restarted" % (name, vid),
                [(sel(total, crit), "3x20 0x2 1x20")],
                [(22, name, []), (24, name, [g.expect(name, crit)])])


def sustained_groups(g):
    labels = dict(POD)

    # GC overhead: stwtop_gc_pause_seconds_sum grows by paused seconds (one sample a minute)
    gc = "stwtop_gc_pause_seconds_sum"
    g.severity["StwtopGcOverheadSustained"] = "warn"
    g.severity["StwtopGcOverheadSustainedCrit"] = "crit"
    g.group("GC overhead: paused 60 % of the time for 30 minutes",
            [(sel(gc, labels), "0+36x30")],
            [(5, "StwtopGcOverheadSustained", []), (5, "StwtopGcOverheadSustainedCrit", []),
             (12, "StwtopGcOverheadSustained", [g.expect("StwtopGcOverheadSustained", labels, 0.6)]),
             (12, "StwtopGcOverheadSustainedCrit", [g.expect("StwtopGcOverheadSustainedCrit", labels, 0.6)])])
    g.group("GC overhead: paused 40 % of the time: warn, not crit",
            [(sel(gc, labels), "0+24x30")],
            [(12, "StwtopGcOverheadSustained", [g.expect("StwtopGcOverheadSustained", labels, 0.4)]),
             (12, "StwtopGcOverheadSustainedCrit", [])])
    # a 2-minute burst (120 s paused): the 5-minute rate is 0.4 for four evaluations only
    g.group("GC overhead: a 2-minute burst is shorter than for: 5m",
            [(sel(gc, labels), "0x10 60 120x20")],
            [(m, "StwtopGcOverheadSustained", []) for m in (12, 14, 15, 17, 20)])
    # stwtop restarted: the counter falls from 1000 s to 0, then grows 6 s a minute (10 %)
    g.group("GC overhead: a counter reset is not a pause",
            [(sel(gc, labels), "0+6x20 0+6x20")],
            [(m, a, []) for m in (21, 22, 25, 30) for a in ("StwtopGcOverheadSustained",
                                                            "StwtopGcOverheadSustainedCrit")])
    # stwtop restarted and counted again what is still on disk: the counter jumps in one scrape;
    # a 5-minute rate holds the jump for five evaluations, less than for: 5m needs
    g.group("GC overhead: a jump in one scrape is not sustained",
            [(sel(gc, labels), "0+6x20 300+6x20")],
            [(m, a, []) for m in (21, 23, 25, 26, 30) for a in ("StwtopGcOverheadSustained",
                                                                "StwtopGcOverheadSustainedCrit")])
    g.group("GC overhead: healthy, 1 % paused",
            [(sel(gc, labels), "0+0.6x60")],
            [(30, "StwtopGcOverheadSustained", []), (30, "StwtopGcOverheadSustainedCrit", [])])

    # stop time: stwtop_stop_seconds_sum
    st = "stwtop_stop_seconds_sum"
    g.severity["StwtopStopTimeSustained"] = "warn"
    g.group("stop time: stopped 20 % of the time",
            [(sel(st, labels), "0+12x30")],
            [(5, "StwtopStopTimeSustained", []),
             (12, "StwtopStopTimeSustained", [g.expect("StwtopStopTimeSustained", labels, 0.2)])])
    g.group("stop time: 5 % is below the threshold",
            [(sel(st, labels), "0+3x30")],
            [(12, "StwtopStopTimeSustained", [])])
    g.group("stop time: a 2-minute burst is shorter than for: 5m",
            [(sel(st, labels), "0x10 30 60x20")],
            [(m, "StwtopStopTimeSustained", []) for m in (12, 14, 15, 17, 20)])
    g.group("stop time: a counter reset is not a stop",
            [(sel(st, labels), "0+3x20 0+3x20")],
            [(m, "StwtopStopTimeSustained", []) for m in (21, 22, 25)])

    # throttling: stwtop_cgroup_throttled_seconds_total
    th = "stwtop_cgroup_throttled_seconds_total"
    g.severity["StwtopCpuThrottledSustained"] = "warn"
    g.group("throttling: throttled 10 % of the time",
            [(sel(th, labels), "0+6x30")],
            [(5, "StwtopCpuThrottledSustained", []),
             (12, "StwtopCpuThrottledSustained", [g.expect("StwtopCpuThrottledSustained", labels, 0.1)])])
    # throttled in bursts: 12 s every other minute, 8-12 % of every 5 minutes; the last interval
    # alone (irate) would say 0 half of the time
    g.group("throttling: 12 s every other minute is sustained",
            [(sel(th, labels), " ".join(str(12 * ((t + 1) // 2)) for t in range(31)))],
            [(12, "StwtopCpuThrottledSustained", [g.expect("StwtopCpuThrottledSustained", labels, 0.08)])])
    g.group("throttling: 2 % is below the threshold",
            [(sel(th, labels), "0+1.2x30")],
            [(12, "StwtopCpuThrottledSustained", [])])
    g.group("throttling: a 2-minute burst is shorter than for: 5m",
            [(sel(th, labels), "0x10 10 20x20")],
            [(m, "StwtopCpuThrottledSustained", []) for m in (12, 14, 15, 17, 20)])
    g.group("throttling: a jump in one scrape is not sustained",
            [(sel(th, labels), "0+1.2x20 100+1.2x20")],
            [(m, "StwtopCpuThrottledSustained", []) for m in (21, 23, 25, 26, 30)])
    g.group("throttling: a counter reset (stwtop restarted) is not throttling",
            [(sel(th, labels), "500+1.2x20 0+1.2x20")],
            [(m, "StwtopCpuThrottledSustained", []) for m in (21, 22, 25)])


def source_groups(g):
    up = "stwtop_source_up"
    gcl = dict(POD, source="gc.log")
    g.severity["StwtopSourceDown"] = "warn"
    g.group("source down: gc.log unreadable for 20 minutes",
            [(sel(up, gcl), "1x5 0x20"), (sel(up, dict(POD, source="access.log")), "1x25")],
            [(7, "StwtopSourceDown", []), (10, "StwtopSourceDown", [g.expect("StwtopSourceDown", gcl)])])
    g.group("source down: a rotation that lasted a minute",
            [(sel(up, gcl), "1x5 0 0 1x20")],
            [(m, "StwtopSourceDown", []) for m in (7, 8, 9, 12)])

    g.severity["StwtopDown"] = "warn"
    other = {"job": "kubernetes-pods", "instance": "10.1.2.9:8080", "namespace": "shop", "pod": "cart-5c4-zz9"}
    g.group("stwtop down: its target stops answering",
            [(sel("up", POD), "1x10 0x20"), (sel("stwtop_build_info", dict(POD, version="0.1.0")), "1x10 _x20"),
             (sel("up", other), "1x10 0x20")],
            [(14, "StwtopDown", []), (17, "StwtopDown", [g.expect("StwtopDown", POD)])])
    g.group("stwtop down: a restart of 3 minutes",
            [(sel("up", POD), "1x10 0x2 1x20"), (sel("stwtop_build_info", dict(POD, version="0.1.0")), "1x10 _x2 1x20")],
            [(m, "StwtopDown", []) for m in (12, 14, 16, 20)])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: prom-rules-tests.py RULES.yml > RULES.test.yml")
    rules_path = sys.argv[1]
    alerts = load_alerts(rules_path)
    g = Gen(alerts)
    g.severity = {}
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
