#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pod.sh BIN — the repository's own sidecar manifest run as a real pod (docs/fleet.md, "The pod
# test"): podman kube play of deploy/kubernetes/stwtop-sidecar-plain.yaml, with only the images,
# the ports and the replica count changed in a copy.
#
# Images, all built here from Debian 12 packages (no registry is reachable):
#   stwtop  deploy/container/build-image.sh over BIN's build directory (the dynamic binary);
#   JVM     openjdk-17-jdk-headless (jstat and jcmd for the comparison) + procps, running
#           tests/fixtures/java/HelloService.java compiled here with javac, as uid 10001 (with a
#           passwd entry: without one the JVM writes no hsperfdata), -Xmx96m as in
#           throttle_live.sh (young GCs every few hundred ms under load: stops while throttled);
#   nginx   nginx-light, without the package's log files (a Kubernetes emptyDir starts empty;
#           podman would copy them into the volume).
# The bases come from deploy/container/debian-base.sh: cached as images and as rootfs tarballs
# in /var/cache/stwtop-images (STWTOP_IMAGE_CACHE), keyed by their package lists. The test's own
# images (localhost/stwtop-podtest*) stay too; everything else it makes is removed in its trap.
#
# Run 1, the manifest as it is (the JVM gets its logging flags from JAVA_TOOL_OPTIONS; stwtop
# waits for it with pgrep and follows it with --pid):
#  a. the stwtop container runs and does not restart; /metrics answers; a real Prometheus (on a
#     free port, temporary storage) scrapes it: up == 1 and stwtop_source_up == 1 for the GC
#     log, the access log and the probes of --pid (cgroup, hsperfdata, ...), none 0;
#  c. under load through nginx, the JVM container's CPU quota is cut from the host
#     (cgroup v1 cpu.cfs_quota_us of libpod-<ctr>): the sidecar's NDJSON (podman logs) has a new
#     cpu-throttled-during-stop or ttsp-spike, and Prometheus has throttled seconds > 0, read
#     by stwtop's cgroup probe through the JVM's own mounts (its note names libpod-<ctr>);
#  d. kill -SEGV of the JVM: its hs_err_pid<NSpid>.log is on the shared volume, and the sidecar
#     says jvm-exited, crashed, naming that report.
#  e. the JVM container restarts (a new pid): the sidecar keeps running, does not follow the
#     new JVM by itself, and its cgroup source goes down; `kill $(pgrep -o -x stwtop)` in it
#     (the manifest's way) restarts it, and it follows the new JVM (cgroup, hsperfdata up).
# Run 2, flagless (JAVA_TOOL_OPTIONS removed from the copy: the JVM has no logging flag):
#  b. the JVM series from hsperfdata (stwtop_jvm_memory_{used,committed,max}_bytes{pool},
#     stwtop_jvm_gc_collections_total{type}, stwtop_jvm_gc_collection_seconds_total{type},
#     stwtop_jvm_safepoint*) equal what `jstat -gc`, `jstat -gccapacity` and `jcmd
#     PerfCounter.print` run in the JVM's container show, read before and after the scrape.
# Prints "N passed, M failed" and exits 1 on any failure. Needs root (mmdebstrap, podman's
# storage, the cgroup), podman, runc, mmdebstrap (scripts/install-deps.sh), javac, prometheus,
# curl, jq: missing ones are a failure, not a skip (CI installs them); a non-root run or a
# sanitizer build skips (77).
set -u
source "$(dirname "$0")/lib/prometheus.bash"
BIN=$(realpath "${1:?usage: pod.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
ROOT=$(cd "$D/.." && pwd)
B=${STWTOP_BUILD_DIR:-$(dirname "$BIN")}
T0=$(date +%s)
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (mmdebstrap, podman's storage, the JVM container's cgroup)"; exit 77; }
grep -q '^STWTOP_SANITIZE:BOOL=ON' "$B/CMakeCache.txt" 2>/dev/null &&
	{ echo "SKIP: a sanitizer build: the pod test runs in the plain build's ctest"; exit 77; }
for t in podman runc mmdebstrap javac prometheus curl jq python3; do
	command -v $t >/dev/null || { echo "FAIL: $t is not installed: run scripts/install-deps.sh"; exit 1; }
done
export TZ=UTC
T=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-pod.XXXXXX")
# podman's configuration for this test alone (the machine's stays as it is): crun, Debian's
# default runtime, fails on this kind of machine ("setrlimit RLIMIT_NOFILE: Operation not
# permitted", even at the current values); runc with no default ulimits works
# (../shared/FIELD-NOTES.md section 11). deploy/container/build-image.sh inherits it.
printf '%s\n' '[containers]' 'default_ulimits = []' '' '[engine]' 'runtime = "runc"' >"$T/containers.conf"
export CONTAINERS_CONF=$T/containers.conf
PLAYED=""      # the manifest copy currently played
QUOTA=""       # "file value" to restore
PROM=""; LOAD=""
cleanup() {
	[ -n "$LOAD" ] && kill "$LOAD" 2>/dev/null
	[ -n "$PROM" ] && kill "$PROM" 2>/dev/null
	if [ -n "$QUOTA" ]; then set -- $QUOTA; [ -e "$1" ] && echo "$2" >"$1" 2>/dev/null; fi
	[ -n "$PLAYED" ] && podman kube down "$PLAYED" >/dev/null 2>&1
	podman pod rm -f "$NAME-pod-0" "$NAME-pod" >/dev/null 2>&1
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
pass=0 failc=0 FAILED=()
ok() { pass=$((pass + 1)); echo "PASS $*"; }
bad() { failc=$((failc + 1)); FAILED+=("$*"); echo "FAIL $*"; }
now() { date +%s; }
# wait_for SECS CMD...: poll CMD every 0.5 s until it succeeds or SECS pass
wait_for() {
	local end=$(($(now) + $1)); shift
	until "$@"; do [ "$(now)" -ge "$end" ] && return 1; sleep 0.5; done
}
. "$(dirname "$0")/lib/ports.bash"
NAME=stwtop-podtest-$$
read -r NPORT JPORT MPORT PPORT <<<"$(free_ports 4)"

# --- the images -----------------------------------------------------------------------------
t=$(now)
old=$(podman image inspect --format '{{.Id}}' localhost/stwtop-podtest:latest 2>/dev/null)
SIMG=$(STWTOP_IMAGE=localhost/stwtop-podtest "$ROOT/deploy/container/build-image.sh" "$B" 2>"$T/build.err") ||
	{ echo "FAIL: the stwtop image: $(tail -20 "$T/build.err")"; exit 1; }
new=$(podman image inspect --format '{{.Id}}' localhost/stwtop-podtest:latest 2>/dev/null)
[ -n "$old" ] && [ "$old" != "$new" ] && podman rmi "$old" >/dev/null 2>&1   # the previous run's
JBASE=$("$ROOT/deploy/container/debian-base.sh" stwtop-podtest-jvm openjdk-17-jdk-headless,procps 2>>"$T/build.err") ||
	{ echo "FAIL: the JVM base image: $(tail -20 "$T/build.err")"; exit 1; }
NBASE=$("$ROOT/deploy/container/debian-base.sh" stwtop-podtest-nginx nginx-light 2>>"$T/build.err") ||
	{ echo "FAIL: the nginx base image: $(tail -20 "$T/build.err")"; exit 1; }
mkdir -p "$T/jvm/app"
javac -d "$T/jvm/app" "$D/fixtures/java/HelloService.java" || { echo "FAIL: javac"; exit 1; }
# uid 10001 (the manifest's) needs a passwd entry, or the JVM maps no hsperfdata file
podman run --rm --entrypoint cat "$JBASE" /etc/passwd >"$T/jvm/passwd" &&
	{ grep -q '^app:' "$T/jvm/passwd" || echo 'app:x:10001:10001:app:/tmp:/bin/sh' >>"$T/jvm/passwd"; } ||
	{ echo "FAIL: the JVM base's passwd"; exit 1; }
cat >"$T/jvm/Containerfile" <<EOF
FROM $JBASE
COPY passwd /etc/passwd
COPY app /app
WORKDIR /tmp
CMD ["sh", "-c", "exec java -Xmx96m -XX:+UseG1GC -cp /app HelloService \${APP_PORT:-8081} \${WORK_MS:-5}"]
EOF
JIMG=localhost/stwtop-podtest-app:${JBASE##*:}
podman build --quiet -t "$JIMG" "$T/jvm" >/dev/null 2>>"$T/build.err" ||
	{ echo "FAIL: the JVM image: $(tail -20 "$T/build.err")"; exit 1; }
# nginx: Debian's package leaves /var/log/nginx/access.log (0640 www-data:adm) in the image and
# podman copies it into the empty volume, which a Kubernetes emptyDir never does; without it
# nginx creates the log 0644, as in a cluster
mkdir -p "$T/nginx"
printf 'FROM %s\nRUN rm -f /var/log/nginx/access.log /var/log/nginx/error.log\n' "$NBASE" >"$T/nginx/Containerfile"
NIMG=localhost/stwtop-podtest-nginx-run:${NBASE##*:}
podman build --quiet -t "$NIMG" "$T/nginx" >/dev/null 2>>"$T/build.err" ||
	{ echo "FAIL: the nginx image: $(tail -20 "$T/build.err")"; exit 1; }
echo "images: $SIMG $JIMG $NIMG ($(($(now) - t)) s)"

# --- the manifest copy ----------------------------------------------------------------------
# play VARIANT: the plain manifest with images, ports, one replica and a unique name; VARIANT
# "flagless" also drops JAVA_TOOL_OPTIONS. The PodMonitor is left out (podman has no use for it);
# so are the containers' ports (podman 4.3 makes port mappings of them, refused with host
# networking), the probe giving its port by number instead of by name.
play() {
	python3 - "$ROOT/deploy/kubernetes/stwtop-sidecar-plain.yaml" "$T/pod-$1.yaml" "$1" "$NAME" \
		"$SIMG" "$JIMG" "$NIMG" "$NPORT" "$JPORT" "$MPORT" <<'EOF' || return 1
import re, sys, yaml
src, dst, variant, name, simg, jimg, nimg, nport, jport, mport = sys.argv[1:]
docs = [d for d in yaml.safe_load_all(open(src)) if d]
out = []
for d in docs:
    if d["kind"] == "ConfigMap":
        c = d["data"]["nginx.conf"]
        c = c.replace("listen 8080;", "listen 127.0.0.1:%s;" % nport).replace("127.0.0.1:8081", "127.0.0.1:" + jport)
        d["data"]["nginx.conf"] = c
        out.append(d)
    elif d["kind"] == "Deployment":
        d["metadata"]["name"] = name
        d["spec"]["replicas"] = 1
        tpl = d["spec"]["template"]
        tpl["metadata"]["annotations"]["prometheus.io/port"] = mport
        for c in tpl["spec"]["containers"]:
            c["imagePullPolicy"] = "IfNotPresent"
            # with --network=host podman 4.3 refuses port mappings, which it makes of every
            # containerPort: the ports go, and the probe names the port by number
            c.pop("ports", None)
            if "livenessProbe" in c:
                c["livenessProbe"]["httpGet"]["port"] = int(mport)
            if c["name"] == "catalog":
                c["image"] = jimg
                env = [e for e in c.get("env", []) if not (variant == "flagless" and e["name"] == "JAVA_TOOL_OPTIONS")]
                c["env"] = env + [{"name": "APP_PORT", "value": jport}, {"name": "WORK_MS", "value": "5"}]
            elif c["name"] == "nginx":
                c["image"] = nimg
            elif c["name"] == "stwtop":
                c["image"] = simg
            if c["name"] == "stwtop":
                c["command"][-1] = c["command"][-1].replace("0.0.0.0:9612", "127.0.0.1:" + mport)
        out.append(d)
yaml.safe_dump_all(out, open(dst, "w"), sort_keys=False)
EOF
	PLAYED=$T/pod-$1.yaml
	podman kube play --network=host "$PLAYED" >"$T/play-$1.out" 2>&1 || { cat "$T/play-$1.out"; return 1; }
	POD=$(podman pod ps --filter "name=^$NAME" --format '{{.Id}}' | head -1)
	ctr() { podman ps -a --filter "pod=$POD" --format '{{.ID}} {{.Names}}' | awk -v n="-$1\$" '$2 ~ n {print $1; exit}'; }
	JC=$(ctr catalog); SC=$(ctr stwtop); NC=$(ctr nginx)
	[ -n "$POD" ] && [ -n "$JC" ] && [ -n "$SC" ] && [ -n "$NC" ] || { cat "$T/play-$1.out"; return 1; }
}
unplay() {
	podman kube down "$PLAYED" >/dev/null 2>&1 || bad "podman kube down $PLAYED"
	podman pod exists "$POD" 2>/dev/null && { podman pod rm -f "$POD" >/dev/null 2>&1; bad "kube down left the pod"; }
	PLAYED=""
}
state() { podman inspect --format '{{.State.Status}} {{.RestartCount}}' "$1" 2>/dev/null; }
running() { [ "$(state "$1" | cut -d' ' -f1)" = running ]; }
metrics_up() { curl -sf --max-time 2 "http://127.0.0.1:$MPORT/metrics" >"$T/scrape"; }
ndjson() { podman logs "$SC" 2>/dev/null | grep '^{' >"$T/side.ndjson"; }
jvm_pid() { podman inspect --format '{{.State.Pid}}' "$JC"; }
q() {   # q PROMQL: the values of the result, one per line, "labels value"
	curl -sf --max-time 5 "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode "query=$1" |
		jq -r '.data.result[] | "\(.metric | del(.__name__, .job, .instance) | tojson) \(.value[1])"'
}

# ============================ run 1: the manifest as it is =================================
t1=$(now)
if ! play manifest; then
	bad "podman kube play of the manifest copy failed"
else
	echo "run 1: pod ${POD:0:12} (catalog ${JC:0:12}, stwtop ${SC:0:12}, nginx ${NC:0:12})"
	# a. the sidecar runs and serves /metrics
	wait_for 60 metrics_up && ok "a: /metrics answers on 127.0.0.1:$MPORT" ||
		bad "a: /metrics never answered: $(state "$SC"); $(podman logs --tail 5 "$SC" 2>&1)"
	wait_for 30 running "$JC" && ok "a: the JVM container runs" || bad "a: the JVM container: $(state "$JC"): $(podman logs --tail 5 "$JC" 2>&1)"
	prom_start "$T" "$MPORT" "$PPORT"
	PROM=$PROM_PID
	# load through nginx, as in throttle_live.sh: a request every 25 ms
	( while :; do curl -s -o /dev/null --max-time 12 "http://127.0.0.1:$NPORT/x" & sleep 0.025; done ) >/dev/null 2>&1 &
	LOAD=$!
	# the files of STWTOP_SOURCES and the probes of --pid: each up, none down
	sources_up() {
		q 'stwtop_source_up' >"$T/up" 2>/dev/null
		for s in /logs/gc.log /var/log/nginx/access.log cgroup hsperfdata; do
			grep -qF "{\"source\":\"$s\"} 1" "$T/up" || return 1
		done
		! grep -q ' 0$' "$T/up"
	}
	wait_for 60 sh -c "[ \"\$(curl -sf 'http://127.0.0.1:$PPORT/api/v1/query?query=up' | jq -r '.data.result[0].value[1]')\" = 1 ]" &&
		ok "a: Prometheus scrapes the sidecar (up == 1)" || bad "a: Prometheus never scraped the sidecar: $(tail -3 "$T/prometheus.log")"
	wait_for 60 sources_up && ok "a: stwtop_source_up == 1 for every source: $(tr '\n' ' ' <"$T/up")" ||
		bad "a: stwtop_source_up: $(tr '\n' ' ' <"$T/up") (want 1 for /logs/gc.log, the access log, cgroup, hsperfdata, and no 0)"

	# c. cut the JVM container's CPU quota while it is busy
	QF=$(ls -d /sys/fs/cgroup/cpu*/libpod_parent/*/libpod-"$JC"*/cpu.cfs_quota_us 2>/dev/null | head -1)
	if [ -z "$QF" ]; then
		bad "c: no cgroup v1 cpu.cfs_quota_us for the JVM container $JC under /sys/fs/cgroup/cpu*/libpod_parent"
	else
		sleep 4
		QUOTA="$QF $(cat "$QF")"
		echo "c: $QF: $(cat "$QF") -> 5000 for 8 s"
		echo 5000 >"$QF"
		sleep 8
		echo "${QUOTA#* }" >"$QF"
		QUOTA=""
		throttled() {
			ndjson
			jq -r 'select(.type=="verdict" and .event=="new") | .id' "$T/side.ndjson" 2>/dev/null |
				grep -Eq '^(cpu-throttled-during-stop|ttsp-spike)$'
		}
		wait_for 60 throttled && ok "c: the sidecar's NDJSON has $(jq -r 'select(.type=="verdict" and .event=="new") | .id' "$T/side.ndjson" | grep -E 'cpu-throttled|ttsp' | sort -u | tr '\n' ' ')" ||
			bad "c: no new cpu-throttled-during-stop or ttsp-spike in the sidecar's NDJSON; verdicts: $(jq -r 'select(.type=="verdict") | .id' "$T/side.ndjson" | sort -u | tr '\n' ' ')"
		th=$(q 'stwtop_cgroup_cpu_cfs_throttled_seconds_total' | awk '{print $2}')
		awk -v v="$th" 'BEGIN { exit !(v + 0 > 0) }' && ok "c: Prometheus has stwtop_cgroup_cpu_cfs_throttled_seconds_total $th" ||
			bad "c: stwtop_cgroup_cpu_cfs_throttled_seconds_total is '$th'"
		# and those are the JVM container's seconds, read by the probe through the JVM's mounts,
		# not the sidecar's own (its limit is 200m: it can be throttled too): the host's cpu.stat
		# of each container's cgroup, throttled_time in ns
		hth() { awk '$1 == "throttled_time" { printf "%.6f", $2 / 1e9 }' "$(dirname "$QF")"/../libpod-"$1"*/cpu.stat 2>/dev/null; }
		jth=$(hth "$JC"); sth=$(hth "$SC")
		awk -v v="$th" -v j="$jth" -v s="$sth" 'BEGIN { d = v - j; e = v - s; if (d < 0) d = -d; if (e < 0) e = -e
			exit !(j != "" && s != "" && v + 0 > 0 && v <= j + 0.5 && d < e) }' &&
			ok "c: those are the JVM container's throttled seconds (host cpu.stat: JVM container $jth s, the sidecar's own $sth s)" ||
			bad "c: stwtop_cgroup_cpu_cfs_throttled_seconds_total $th is not the JVM container's: host cpu.stat throttled_time JVM container '$jth' s, sidecar '$sth' s"
	fi
	kill "$LOAD" 2>/dev/null; wait "$LOAD" 2>/dev/null; LOAD=""
	s=$(state "$SC"); [ "$s" = "running 0" ] && ok "a: the sidecar ran the whole run without a restart" || bad "a: the sidecar is '$s' (state, restarts)"

	# d. the JVM crashes
	HP=$(jvm_pid)
	NSPID=$(awk '/^NSpid:/ {print $NF}' "/proc/$HP/status")
	echo "d: kill -SEGV $HP (pid $NSPID in the pod)"
	kill -SEGV "$HP"
	hs_err() { podman exec "$SC" ls /logs 2>/dev/null | grep -q "^hs_err_pid$NSPID.log$"; }
	wait_for 30 hs_err && ok "d: /logs/hs_err_pid$NSPID.log (the JVM's pid in its namespace) is on the shared volume" ||
		bad "d: no /logs/hs_err_pid$NSPID.log: $(podman exec "$SC" ls /logs 2>&1 | tr '\n' ' ')"
	crashed() {
		ndjson
		jq -c 'select(.type=="verdict" and .id=="jvm-exited")' "$T/side.ndjson" 2>/dev/null >"$T/exited"
		grep -q crashed "$T/exited" && grep -q "hs_err_pid$NSPID.log" "$T/exited"
	}
	wait_for 45 crashed && ok "d: jvm-exited says crashed and names hs_err_pid$NSPID.log: $(head -1 "$T/exited" | jq -r .title)" ||
		bad "d: no jvm-exited saying crashed with hs_err_pid$NSPID.log in the sidecar's NDJSON: $(head -c 400 "$T/exited")"

	# e. the JVM container is restarted (a new JVM, a new pid): the sidecar keeps following the
	# old one, as the manifest says, until it is restarted itself the way the manifest says
	jrestarted() { s=$(state "$JC"); [ "${s%% *}" = running ] && [ "${s#* }" -ge 1 ] && podman exec "$JC" pgrep -x java >/dev/null 2>&1; }
	if ! wait_for 60 jrestarted; then
		bad "e: the JVM container was not restarted after the crash: $(state "$JC")"
	else
		NP=$(jvm_pid); NNS=$(awk '/^NSpid:/ {print $NF}' "/proc/$NP/status")
		echo "e: the JVM runs again as $NP (pid $NNS in the pod)"
		sleep 3
		s=$(state "$SC"); [ "$s" = "running 0" ] && ok "e: the sidecar still runs after the JVM's crash, not restarted" ||
			bad "e: the sidecar is '$s' after the JVM's crash"
		podman logs "$SC" >"$T/side.all" 2>&1
		grep -Eq "(process |/proc/)$NNS\b" "$T/side.all" && bad "e: the sidecar found the new JVM (pid $NNS) by itself: the manifest's comment is wrong" ||
			ok "e: the sidecar does not follow the new JVM (pid $NNS) by itself (documented)"
		# what says so in Prometheus: the cgroup probe of the exited JVM is down (its files went
		# with the JVM's /proc/PID/root), so StwtopSourceDown fires
		probes_down() { metrics_up && grep -q '^stwtop_source_up{source="cgroup"} 0' "$T/scrape"; }
		wait_for 20 probes_down && ok "e: meanwhile its cgroup probe of the exited JVM is down: $(grep -E '^stwtop_source_up\{source="(cgroup|hsperfdata)"\}' "$T/scrape" | tr '\n' ' ')" ||
			bad "e: after the JVM's exit the sidecar's cgroup probe is still up: $(grep '^stwtop_source_up' "$T/scrape" | tr '\n' ' ')"
		# stwtop is the container's main process: the exec session may end with the container
		# it stops (podman then reports a missing "exec died" event, kubectl a closed stream).
		# Its effect is what counts: the restart and the new JVM followed, checked below.
		podman exec "$SC" sh -c 'kill $(pgrep -o -x stwtop)' >"$T/kill.out" 2>&1 || true
		follows() {
			s=$(state "$SC"); [ "${s%% *}" = running ] && [ "${s#* }" -ge 1 ] || return 1
			podman logs "$SC" >"$T/side.all" 2>&1
			grep -Eq "(process |/proc/)$NNS\b" "$T/side.all" && metrics_up &&
				grep -q '^stwtop_source_up{source="hsperfdata"} 1' "$T/scrape" &&
				grep -q '^stwtop_source_up{source="cgroup"} 1' "$T/scrape"
		}
		wait_for 60 follows && ok "e: restarted by the manifest's kill, the sidecar follows the new JVM (pid $NNS; cgroup and hsperfdata up)" ||
			bad "e: after the manifest's kill ($(head -c 200 "$T/kill.out")) the sidecar is '$(state "$SC")' and does not follow pid $NNS: $(grep -a '^stwtop:' "$T/side.all" | tail -5)"
	fi
	kill "$PROM" 2>/dev/null; wait "$PROM" 2>/dev/null; PROM=""
	podman logs "$SC" >"$T/run1-stwtop.log" 2>&1
	unplay
fi
echo "run 1: $(($(now) - t1)) s"

# ============================ run 2: flagless ==============================================
t2=$(now)
if ! play flagless; then
	bad "podman kube play of the flagless copy failed"
else
	echo "run 2: pod ${POD:0:12} (catalog ${JC:0:12}, stwtop ${SC:0:12})"
	wait_for 60 metrics_up && ok "b: /metrics answers" || bad "b: /metrics never answered: $(podman logs --tail 5 "$SC" 2>&1)"
	wait_for 30 running "$JC" || bad "b: the JVM container: $(state "$JC")"
	# some young GCs (each request allocates 64 KB arrays for 5 ms), then a full one
	for i in $(seq 200); do curl -s -o /dev/null --max-time 5 "http://127.0.0.1:$NPORT/x"; done
	JP=$(podman exec "$JC" pgrep -o -x java)
	J() { podman exec "$JC" env -u JAVA_TOOL_OPTIONS "$@"; }
	J jcmd "$JP" GC.run >/dev/null 2>&1
	has_jvm() { metrics_up && grep -q '^stwtop_jvm_memory_used_bytes{' "$T/scrape"; }
	wait_for 20 has_jvm || echo "b: no stwtop_jvm_* series yet (these come with the hsperfdata metrics branch)"
	sleep 2
	snap() {   # snap N: jstat -gc, -gccapacity and the safepoint counters into $T/jN
		{
			J jstat -gc "$JP" | awk 'NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i } NR == 2 { for (i = 1; i <= NF; i++) print h[i], $i }'
			J jstat -gccapacity "$JP" | awk 'NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i } NR == 2 { for (i = 1; i <= NF; i++) print "cap." h[i], $i }'
			J jcmd "$JP" PerfCounter.print | grep -E '^sun\.(rt\.safepoint(s|Time|SyncTime)|os\.hrt\.frequency)=' | tr '=' ' '
		} >"$T/j$1"
	}
	cat >"$T/cmp.py" <<'EOF'
import re, sys
def jfile(fn):
    return {k: float(v) for k, v in (l.split() for l in open(fn) if len(l.split()) == 2)}
j1, j2 = jfile(sys.argv[1]), jfile(sys.argv[2])
m = {}
for line in open(sys.argv[3]):
    mm = re.match(r'^(stwtop_jvm_[a-z_]+)(\{[^}]*\})? (\S+)$', line.strip())
    if mm:
        m[mm.group(1) + (mm.group(2) or "")] = float(mm.group(3))
KB = 1024.0
def val(j, expr):
    return eval(expr, {}, {"j": j, "KB": KB, "f": j.get("sun.os.hrt.frequency", 1e9)})
want = [  # series, from jstat/jcmd, tolerance (jstat prints KB with one decimal, seconds with three)
    ('stwtop_jvm_memory_used_bytes{pool="eden"}', 'j["EU"]*KB', 0.1 * KB),
    ('stwtop_jvm_memory_used_bytes{pool="survivor"}', '(j["S0U"]+j["S1U"])*KB', 0.2 * KB),
    ('stwtop_jvm_memory_used_bytes{pool="old"}', 'j["OU"]*KB', 0.1 * KB),
    ('stwtop_jvm_memory_used_bytes{pool="metaspace"}', 'j["MU"]*KB', 0.1 * KB),
    ('stwtop_jvm_memory_used_bytes{pool="compressed_class"}', 'j["CCSU"]*KB', 0.1 * KB),
    ('stwtop_jvm_memory_committed_bytes{pool="eden"}', 'j["EC"]*KB', 0.1 * KB),
    ('stwtop_jvm_memory_committed_bytes{pool="survivor"}', '(j["S0C"]+j["S1C"])*KB', 0.2 * KB),
    ('stwtop_jvm_memory_committed_bytes{pool="old"}', 'j["OC"]*KB', 0.1 * KB),
    ('stwtop_jvm_memory_committed_bytes{pool="metaspace"}', 'j["MC"]*KB', 0.1 * KB),
    ('stwtop_jvm_memory_committed_bytes{pool="compressed_class"}', 'j["CCSC"]*KB', 0.1 * KB),
    ('stwtop_jvm_memory_max_bytes{pool="old"}', 'j["cap.OGCMX"]*KB', 0.1 * KB),
    ('stwtop_jvm_memory_max_bytes{pool="metaspace"}', 'j["cap.MCMX"]*KB', 0.1 * KB),
    ('stwtop_jvm_memory_max_bytes{pool="compressed_class"}', 'j["cap.CCSMX"]*KB', 0.1 * KB),
    ('stwtop_jvm_gc_collections_total{type="young"}', 'j["YGC"]', 0),
    ('stwtop_jvm_gc_collections_total{type="full"}', 'j["FGC"]', 0),
    ('stwtop_jvm_gc_collections_total{type="concurrent"}', 'j["CGC"]', 0),
    ('stwtop_jvm_gc_collection_seconds_total{type="young"}', 'j["YGCT"]', 0.0011),
    ('stwtop_jvm_gc_collection_seconds_total{type="full"}', 'j["FGCT"]', 0.0011),
    ('stwtop_jvm_gc_collection_seconds_total{type="concurrent"}', 'j["CGCT"]', 0.0011),
    ('stwtop_jvm_safepoints_total', 'j["sun.rt.safepoints"]', 0),
    ('stwtop_jvm_safepoint_seconds_total', 'j["sun.rt.safepointTime"]/f', 1e-6),
    ('stwtop_jvm_safepoint_sync_seconds_total', 'j["sun.rt.safepointSyncTime"]/f', 1e-6),
]
for name, expr, tol in want:
    try:
        a, b = val(j1, expr), val(j2, expr)
    except KeyError as e:
        print("FAIL b: %s: jstat/jcmd gave no %s" % (name, e))
        continue
    lo, hi = min(a, b) - tol, max(a, b) + tol
    got = m.get(name)
    if got is None:
        print("FAIL b: %s missing from /metrics (jstat: %.6g)" % (name, a))
    elif lo <= got <= hi:
        print("PASS b: %s %.6g = jstat/jcmd %.6g..%.6g" % (name, got, a, b))
    else:
        print("FAIL b: %s %.6g, jstat/jcmd %.6g..%.6g" % (name, got, a, b))
EOF
	# stwtop reads the counters once an interval (1 s), so what it serves can be up to a
	# second older than snap 1: a safepoint in that second failed a right comparison in CI
	# (290 served, 291 in both snaps). So after snap 1 stwtop gets more than an interval to
	# read again before the scrape: its read then falls between the two snaps. A comparison
	# that still fails is taken again, twice at most: a race does not repeat, a wrong value does.
	for try in 1 2 3; do
		snap 1; sleep 1.5; metrics_up; snap 2
		python3 "$T/cmp.py" "$T/j1" "$T/j2" "$T/scrape" >"$T/cmp"
		grep -q '^FAIL' "$T/cmp" || break
		[ "$try" -lt 3 ] && echo "b: try $try: $(grep -c '^FAIL' "$T/cmp") values outside jstat's two reads, taken again"
	done
	while IFS= read -r line; do
		case $line in PASS*) ok "${line#PASS }" ;; FAIL*) bad "${line#FAIL }" ;; esac
	done <"$T/cmp"
	[ "$(grep -c . "$T/cmp")" -ge 22 ] || bad "b: the comparison did not run: $(head -c 300 "$T/j1")"
	s=$(state "$SC"); [ "$s" = "running 0" ] && ok "b: the sidecar ran without a restart" || bad "b: the sidecar is '$s'"
	unplay
fi
echo "run 2: $(($(now) - t2)) s"

echo
echo "pod: $pass passed, $failc failed ($(($(now) - T0)) s)"
if [ "$failc" -gt 0 ]; then
	echo "failed:"
	for f in "${FAILED[@]}"; do echo "  - $f"; done
	exit 1
fi
