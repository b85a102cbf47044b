#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cgroup2_vm.sh path/to/stwtop — stwtop on a real cgroup v2 kernel, end to end. The machines the
# other tests run on may mount cgroup v1 only; Kubernetes nodes mostly run v2, which the unit
# tests only see as staged trees. So this boots Debian 12's own kernel under qemu with
# systemd.unified_cgroup_hierarchy=1 cgroup_no_v1=all, the host's root shared read-only over 9p
# (java, bash and this build's stwtop come from there) and an initramfs of busybox-static and the
# 9p/virtio modules (cgroup2_vm/init). Inside (cgroup2_vm/guest.sh): cgroup2 at /sys/fs/cgroup,
# +cpu +memory, and per case a new cgroup holding a real JVM (cgroup2_vm/Burn.java), stwtop
# following it from the root cgroup with --plain --json --record:
#   oom:     cpu.max "20000 100000", memory.max 128 MiB, -Xmx1g: 4 threads burn CPU for 4 s (throttled
#            at 0.2 CPU), then it keeps 1 MiB every 5 ms until the kernel's OOM killer kills it.
#   sigkill: the limits on a parent cgroup, the JVM in its child, which has none of its own (a pod's
#            cgroup and its container; a systemd slice and its service): cpu.max "50000 100000",
#            memory.max 128 MiB; 2 threads burn CPU, SIGKILL 3 s after stwtop started, well under
#            the limit.
# Checked from stwtop's own output (its recording and NDJSON), against the files the guest read
# at the end:
#   (a) the cgroup is v2, at the right path (the recording's note, cg_version 2);
#   (b) throttling: nr_throttled and throttled_us grow, and end at cpu.stat's own values (nested:
#       the parent's, where the kernel counts the throttling its quota does);
#   (c) memory.current, memory.max (the limit; nested: the parent's) and memory.stat anon as the
#       guest had them;
#   (d) memory.events oom_kill 0 -> 1 and jvm-exited "killed by the kernel's OOM killer" with the
#       counter's rise; for the SIGKILL, the counter did not rise and no OOM killer is named.
# The kernel: the newest /var/cache/stwtop/vm/linux-image-*.deb (scripts/install-deps.sh puts one
# there with `apt-get download`; STWTOP_VM_KERNEL_DEB names another); only its vmlinuz and a few
# modules are unpacked, into the test's temporary directory. KVM when /dev/kvm is a hardware one
# (kvm_intel/kvm_amd); under PVM (kvm_pvm: a VM's /dev/kvm without hardware virtualisation, which
# boots only PVM guest kernels: Debian's hangs in its decompressor) qemu's TCG instead, about 1 min
# slower. STWTOP_VM_ACCEL=kvm|tcg overrides.
# STWTOP_VM_SAVE=DIR: copy what the guest left (outputs, cgroup files) to DIR.
# Without /dev/kvm at all (a VM without nested virtualisation) it runs under TCG too.
# 77 (skipped) without qemu-system-x86_64, busybox-static, the kernel package, java/javac/jq.
set -u
BIN=$(realpath "${1:?usage: cgroup2_vm.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
D=$(realpath "$D")
VM=$D/e2e/cgroup2_vm
skip() { echo "SKIP: $*"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed (qemu-system-x86)"
BB=/bin/busybox
[ -x $BB ] && ldd $BB 2>&1 | grep -q 'not a dynamic' || skip "no static busybox at $BB (busybox-static)"
for c in java javac jq dpkg-deb gzip; do
	command -v $c >/dev/null || skip "$c not installed"
done
DEB=${STWTOP_VM_KERNEL_DEB:-$(ls -1 /var/cache/stwtop/vm/linux-image-*-amd64_*.deb 2>/dev/null | sort -V | tail -1)}
[ -n "$DEB" ] && [ -f "$DEB" ] || skip "no Debian kernel package in /var/cache/stwtop/vm (scripts/install-deps.sh downloads it)"
ACCEL=${STWTOP_VM_ACCEL:-}
if [ -z "$ACCEL" ]; then
	if [ -c /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then ACCEL=kvm
	elif [ -c /dev/kvm ]; then ACCEL=tcg; echo "note: /dev/kvm is not hardware KVM ($(cd /sys/module && echo kvm_*)): using TCG"
	else ACCEL=tcg; echo "note: no /dev/kvm here: using TCG"
	fi
fi

T=$(mktemp -d -t stwtop-cgroup2-vm.XXXXXX); QPID=""
cleanup() {
	[ -n "$QPID" ] && kill -TERM "$QPID" 2>/dev/null && wait "$QPID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
T0=$(date +%s)

# the kernel and its 9p/virtio modules, resolved through their depends= (the package has no modules.dep)
mkdir -p "$T/k" "$T/ird/bin" "$T/ird/modules" "$T/ird/proc" "$T/ird/sys" "$T/ird/dev" "$T/out"
dpkg-deb --fsys-tarfile "$DEB" | tar -x -C "$T/k" --wildcards './boot/vmlinuz-*' \
	'./lib/modules/*/kernel/net/9p/*' './lib/modules/*/kernel/fs/9p/*' './lib/modules/*/kernel/fs/netfs/*' \
	'./lib/modules/*/kernel/fs/fscache/*' './lib/modules/*/kernel/drivers/virtio/*' \
	|| { echo "FAIL: unpacking $DEB"; exit 1; }
KERNEL=$(ls "$T"/k/boot/vmlinuz-* 2>/dev/null | head -1)
[ -n "$KERNEL" ] || { echo "FAIL: no vmlinuz in $DEB"; exit 1; }
declare -A done_mod=()
add_mod() {
	local m=$1 f d
	[ -n "${done_mod[$m]:-}" ] && return 0
	f=$(find "$T/k/lib/modules" -name "$m.ko" | head -1)
	[ -n "$f" ] || { echo "FAIL: module $m not in $DEB"; exit 1; }
	done_mod[$m]=1
	for d in $(tr '\0' '\n' <"$f" | sed -n 's/^depends=//p' | tr ',' ' '); do add_mod "$d"; done
	cp "$f" "$T/ird/modules/" && echo "$m" >>"$T/ird/modules.order"
}
for m in virtio_pci 9pnet_virtio 9p; do add_mod $m; done
cp $BB "$T/ird/bin/busybox" && cp "$VM/init" "$T/ird/init" && chmod +x "$T/ird/init"
(cd "$T/ird" && find . | $BB cpio -o -H newc 2>/dev/null) | gzip -1 >"$T/initrd.gz" || { echo "FAIL: initramfs"; exit 1; }

javac -d "$T/out/classes" "$VM/Burn.java" || { echo "FAIL: javac"; exit 1; }
# the binary and the guest script go through the output share (at /tmp/out in the guest): the
# guest covers the host's /tmp, /run and /var/tmp, where a CI clone may well be, with its own tmpfs
cp "$BIN" "$T/out/stwtop" && cp "$VM/guest.sh" "$T/out/guest.sh" || { echo "FAIL: staging stwtop"; exit 1; }
MEM_MAX=$((128 << 20))
# C1 only: less JIT work to start a JVM held to 0.2 CPU (under TCG that start is most of the run)
cat >"$T/out/env" <<EOF
STWTOP=/tmp/out/stwtop
JAVA_OPTS="-Xmx1g -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
CASES="oom sigkill"
CASE_oom='"20000 100000" $MEM_MAX 0 0 4 4000 1024 5'
CASE_sigkill='"50000 100000" $MEM_MAX 3 1 2 10000 64 200'
EOF
# a sanitizer build's settings (.ci/run) reach stwtop in the guest too
for v in ASAN_OPTIONS UBSAN_OPTIONS; do [ -n "${!v:-}" ] && printf 'export %s=%q\n' "$v" "${!v}" >>"$T/out/env"; done

# the guest: 1 vCPU; it powers itself off at the end (-no-reboot turns a panic's reboot into an exit)
QOPTS=(-machine pc -m 1024 -smp 1 -display none -nodefaults -no-reboot -serial "file:$T/console.log"
	-kernel "$KERNEL" -initrd "$T/initrd.gz"
	-append "console=ttyS0 panic=-1 quiet systemd.unified_cgroup_hierarchy=1 cgroup_no_v1=all psi=1 stwtop.guest=/tmp/out/guest.sh"
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
	-virtfs "local,path=$T/out,mount_tag=out,security_model=none")
if [ "$ACCEL" = kvm ]; then QOPTS+=(-accel kvm -cpu host); else QOPTS+=(-accel tcg); fi
T1=$(date +%s)
# (timeout passes a TERM from the cleanup on to qemu)
timeout 300 qemu-system-x86_64 "${QOPTS[@]}" >"$T/qemu.out" 2>&1 &
QPID=$!
wait $QPID; qrc=$?; QPID=""
echo "guest ($ACCEL): $(( $(date +%s) - T1 )) s, qemu exit $qrc; $(grep -a '^guest: ' "$T/console.log" | tr '\n' ';')"
# STWTOP_VM_SAVE=DIR keeps what the guest left (the fixture tests/fixtures/probe/v2-vm-ancestor came from there)
[ -n "${STWTOP_VM_SAVE:-}" ] && mkdir -p "$STWTOP_VM_SAVE" && cp -a "$T/out/." "$T/console.log" "$STWTOP_VM_SAVE/"
grep -aq '^guest: done' "$T/console.log" || { echo "FAIL: the guest did not finish:"; tail -30 "$T/console.log"; cat "$T/qemu.out"; exit 1; }
echo "kernel: $(cat "$T/out/kernel")"

O=$T/out
FIN=""
final() { FIN=$(jq -c 'select(.type=="verdict" and .id=="jvm-exited" and .event=="final")' "$O/$1/stwtop.ndjson"); }
title_has() { echo "$FIN" | jq -e --arg t "$2" '.title | contains($t)' >/dev/null || fail "$1: the title lacks \"$2\": $(echo "$FIN" | jq -r .title)"; }
title_hasnt() { echo "$FIN" | jq -e --arg t "$2" '.title | contains($t) | not' >/dev/null || fail "$1: the title says \"$2\": $(echo "$FIN" | jq -r .title)"; }
evid_has() { echo "$FIN" | jq -e --arg t "$2" '[.evidence[] | select(contains($t))] | length > 0' >/dev/null || fail "$1: no evidence with \"$2\": $(echo "$FIN" | jq -c .evidence)"; }
kv() { sed -n "s/^$2 //p" "$1"; }
rec() { jq -c "select(.kind==\"$2\")" "$O/$1/rec.ndjson"; }
for c in oom sigkill; do
	case $c in
	oom) cg=/stwtop-oom; from=""; q="quota 0.20 CPU";;
	*) cg=/stwtop-sigkill/jvm; from=", from its ancestor /sys/fs/cgroup/stwtop-sigkill"; q="quota 0.50 CPU";;
	esac
	E=$O/$c/cg/end; L=$E; [ -n "$from" ] && L=$O/$c/cg/end-parent # where the limits are
	[ "$(cat "$O/$c/stwtop.rc" 2>/dev/null)" = 0 ] || fail "$c: stwtop exited $(cat "$O/$c/stwtop.rc" 2>/dev/null): $(head -c 300 "$O/$c/stwtop.err")"
	[ "$(cat "$O/$c/cg/proc-pid-cgroup")" = "0::$cg" ] || fail "$c: the JVM's /proc/PID/cgroup is $(cat "$O/$c/cg/proc-pid-cgroup")"
	# (a) v2 at the right path
	note=$(jq -r 'select(.kind=="meta" and .note) | .note' "$O/$c/rec.ndjson" | head -1)
	echo "$c: stwtop polled: $note"
	want="cgroup v2 cpu /sys/fs/cgroup$cg ($q$from), memory /sys/fs/cgroup$cg (limit 128M$from)"
	[[ $note == "$want"* ]] || fail "$c: the recording's note is not \"$want...\": $note"
	rec "$c" cpu | jq -e 'select(.cg_version != 2)' >/dev/null && fail "$c: a cpu sample is not cg_version 2"
	rec "$c" cpu | tail -1 >"$T/$c.cpu"; rec "$c" mem >"$T/$c.mem"
	# (b) the last cpu sample (the JVM dead: nothing runs there any more) is cpu.stat at the end;
	# throttling grew under stwtop, with the quota of cpu.max
	for k in nr_periods:nr_periods nr_throttled:nr_throttled throttled_us:throttled_usec; do
		got=$(jq ".${k%%:*}" "$T/$c.cpu"); want=$(kv "$L/cpu.stat" "${k#*:}")
		[ "$got" = "$want" ] || fail "$c: stwtop's last ${k%%:*} is $got, $L/cpu.stat ${k#*:} at the end is $want"
	done
	[ "$(jq .usage_us "$T/$c.cpu")" = "$(kv "$E/cpu.stat" usage_usec)" ] || fail "$c: stwtop's last usage_us is not usage_usec $(kv "$E/cpu.stat" usage_usec)"
	jq -s -e --argjson q "$(cut -d' ' -f1 "$L/cpu.max")" 'map(select(.kind=="cpu")) | (.[0].nr_throttled < .[-1].nr_throttled
		and .[0].throttled_us < .[-1].throttled_us and .[-1].quota_us == $q and .[-1].period_us == 100000)' "$O/$c/rec.ndjson" >/dev/null \
		|| fail "$c: nr_throttled/throttled_us did not grow under stwtop, or the quota is not $(cat "$L/cpu.max"): $(rec $c cpu | sed -n '1p;$p')"
	echo "$c: cpu.stat at the end: $(tr '\n' ' ' <"$L/cpu.stat")"
	echo "$c: stwtop's last cpu sample: $(cat "$T/$c.cpu")"
	# (c) memory: the limit is memory.max; the last usage is memory.current at the end, give or take
	# 1 MiB (after the kill the kernel still frees some of the dead JVM's pages and kernel memory:
	# 35418112 at stwtop's last poll and 35151872 a second later, in one run)
	jq -e --argjson m "$(cat "$L/memory.max")" 'select(.limit_bytes != $m)' "$T/$c.mem" >/dev/null \
		&& fail "$c: a mem sample's limit_bytes is not memory.max $(cat "$L/memory.max")"
	u=$(tail -1 "$T/$c.mem" | jq .usage_bytes); cur=$(cat "$E/memory.current")
	[ "$u" -ge 0 ] && [ $(( u > cur ? u - cur : cur - u )) -le $((1 << 20)) ] \
		|| fail "$c: stwtop's last usage_bytes $(tail -1 "$T/$c.mem" | jq .usage_bytes) is not memory.current $(cat "$E/memory.current") within 1 MiB"
	peak=$(jq -s 'map(.usage_bytes) | max' "$T/$c.mem"); anon=$(jq -s 'map(.anon_bytes) | max' "$T/$c.mem")
	echo "$c: stwtop saw memory.current up to $peak (anon up to $anon) of memory.max $(cat "$L/memory.max"); oom_kill $(jq -s -c 'map(.oom_kill) | unique' "$T/$c.mem")"
	[ "$peak" -gt $((16 << 20)) ] && [ "$peak" -le "$MEM_MAX" ] && [ "$anon" -gt $((8 << 20)) ] \
		|| fail "$c: memory.current up to $peak, anon up to $anon: not a JVM's under its limit"
	final "$c"
	[ -n "$FIN" ] || { fail "$c: no final jvm-exited: $(tail -c 600 "$O/$c/stwtop.ndjson")"; continue; }
	echo "$c: JVM exit status $(cat "$O/$c/jvm.rc"); $(echo "$FIN" | jq -r .title)"
done

# oom: throttled, then killed by the kernel at memory.max
c=oom; S=$O/$c/cg/start; E=$O/$c/cg/end
jq -s -e 'map(select(.type=="status" and (.throttled_ms // 0) > 0)) | length > 0' "$O/$c/stwtop.ndjson" >/dev/null \
	|| fail "$c: no status line has throttled_ms > 0"
[ "$(kv "$S/memory.events" oom_kill)" = 0 ] && [ "$(kv "$E/memory.events" oom_kill)" = 1 ] && [ "$(cat "$O/$c/jvm.rc")" = 137 ] \
	|| fail "$c: memory.events oom_kill $(kv "$S/memory.events" oom_kill) -> $(kv "$E/memory.events" oom_kill), exit status $(cat "$O/$c/jvm.rc") (want 0 -> 1, 137): the test did not make its case"
grep -aq "Memory cgroup out of memory: Killed process" "$T/console.log" || fail "$c: the kernel did not say it killed the JVM"
[ "$(head -1 "$T/$c.mem" | jq .oom_kill)" = 0 ] && [ "$(tail -1 "$T/$c.mem" | jq .oom_kill)" = 1 ] \
	|| fail "$c: stwtop's oom_kill went $(head -1 "$T/$c.mem" | jq .oom_kill) -> $(tail -1 "$T/$c.mem" | jq .oom_kill), not 0 -> 1"
final $c
title_has $c "The JVM was killed by the kernel's OOM killer (its memory cgroup's limit) between "
evid_has $c "OOM-kill counter rose from 0 to 1"
s=$(date -d "$(echo "$FIN" | jq -r .start)" +%s%3N); e=$(date -d "$(echo "$FIN" | jq -r .end)" +%s%3N); end=$(cat "$O/$c/jvm.end_ms")
[ "$s" -le $((end + 50)) ] && [ $((e - s)) -le 1500 ] || fail "$c: the interval $(echo "$FIN" | jq -c '[.start, .end]') does not hold the end ($end)"

# sigkill: the same memory limit, not reached: the counter did not move, and no OOM killer is named
c=sigkill; E=$O/$c/cg/end
[ "$(kv "$E/memory.events" oom_kill)" = 0 ] && [ "$(cat "$O/$c/jvm.rc")" = 137 ] \
	|| fail "$c: memory.events oom_kill $(kv "$E/memory.events" oom_kill), exit status $(cat "$O/$c/jvm.rc") (want 0, 137)"
final $c
title_has $c "The JVM was killed or died without a word between "
title_hasnt $c "OOM killer"
evid_has $c "OOM-kill counter did not rise (oom_kill 0): not its memory limit"

echo "cgroup2_vm: $(( $(date +%s) - T0 )) s in all"
[ $fails = 0 ] && echo "cgroup2_vm: all passed" || { echo "cgroup2_vm: $fails failed"; exit 1; }
