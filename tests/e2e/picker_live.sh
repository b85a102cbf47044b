#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# picker_live.sh BIN — two real JVMs and no --pid (issue 15):
#  1. the dashboard puts them on the screen to choose from (pid, user, uptime, main
#     class or jar); Down + Enter watches the second, its pid and jar in the header;
#  2. q in the picker gives the terminal back, lists them on stderr, exits 2;
#  3. --plain, --plain --json and a run without a terminal list them on stderr
#     (nothing on stdout) and exit 2;
#  4. two JVMs of one main class: each row says what tells it apart (port, arguments, -Xmx).
# The JVMs run in a private pid namespace (unshare --pid --mount-proc) so that other
# JVMs on the machine cannot change the answer; stwtop runs in it too and sees only
# them. Skips (77) without java/javac/jar or without the right to make the namespace.
source "$(dirname "$0")/lib/tmux.bash" "$@"

for t in java javac jar unshare; do
	command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
NS=(unshare --pid --fork --mount-proc --kill-child)
[ "$(id -u)" = 0 ] || NS=(unshare --user --map-root-user --pid --fork --mount-proc --kill-child)
"${NS[@]}" true 2>/dev/null || { echo "SKIP: cannot make a pid namespace (${NS[*]})"; exit 77; }

javac -nowarn -d "$TMPD/classes" "$TESTS/fixtures/java/ProbeTarget.java" || { echo "FAIL: javac"; exit 1; }
jar cfe "$TMPD/probe.jar" ProbeTarget -C "$TMPD/classes" . || { echo "FAIL: jar"; exit 1; }

# ns.sh CMD...: pid 1 of the namespace. Two JVMs, one by main class, one by -jar;
# their pids in pid.a / pid.b once both are up; then CMD; its status is ns.sh's.
# When unshare goes (the tmux server killed, the test's trap) --kill-child takes
# pid 1 and with it every process of the namespace.
cat >"$TMPD/ns.sh" <<'EOF'
#!/usr/bin/env bash
set -u
cd "$(dirname "$0")"
JOPTS=(-Xmx32m -XX:+UseSerialGC -XX:TieredStopAtLevel=1)
java "${JOPTS[@]}" -cp "$PWD/classes" ProbeTarget 0 600 >a.out 2>&1 &
A=$!
java "${JOPTS[@]}" -jar "$PWD/probe.jar" 0 600 >b.out 2>&1 &
B=$!
for _ in $(seq 300); do grep -q READY a.out && grep -q READY b.out && break; sleep 0.1; done
echo "$A" >pid.a; echo "$B" >pid.b
"$@"
rc=$?
kill "$A" "$B" 2>/dev/null; wait
exit $rc
EOF

ns_pids() { # waits for pid.a and pid.b of the namespace just started (start_ns removed them)
	for _ in $(seq 300); do [ -s "$TMPD/pid.a" ] && [ -s "$TMPD/pid.b" ] && break; sleep 0.1; done
	PA=$(cat "$TMPD/pid.a" 2>/dev/null) PB=$(cat "$TMPD/pid.b" 2>/dev/null)
	[ -n "$PA" ] && [ -n "$PB" ] || { fail "the JVMs did not start: $(cat "$TMPD"/a.out "$TMPD"/b.out)"; finish; }
}
# the namespace's unshare, a child of the pane's shell: killing it ends the JVMs
stop_ns() {
	local pane u
	pane=$($T display -p -t e2e:0.0 '#{pane_pid}' 2>/dev/null) || return 0
	u=$(pgrep -P "$pane" -x unshare) && kill "$u" 2>/dev/null
	return 0
}
trap 'stop_ns; cleanup' EXIT
start_ns() { rm -f "$TMPD/pid.a" "$TMPD/pid.b"; start 120 40 "${NS[*]} bash '$TMPD/ns.sh' '$BIN'"; }

# 1. the picker, then the dashboard on the JVM chosen
start_ns
ns_pids
[ "$PA" -lt "$PB" ] || fail "the -jar JVM ($PB) did not get the higher pid ($PA)"
expect '2 Java processes are running; choose the one to watch' 20
expect "> $PA +root +[0-9dhms?]+ +ProbeTarget" 5
expect "  $PB +root +[0-9dhms?]+ +-jar probe\.jar" 5
expect 'PID +USER +UPTIME +MAIN CLASS OR JAR' 2
expect 'Enter watch +q quit' 2
keys Down
expect "> $PB +root" 5
keys Enter
expect "live: pid $PB -jar probe\.jar, up " 15
expect '─ Stops ' 5
grep -q "pid $PA" "$TMPD/screen" && fail "the header names the first JVM" || ok "the header names the JVM chosen"
keys q
expect 'EXITED rc=0' 10
stop_ns

# 2. q in the picker: the list on stderr, exit 2
fresh
start_ns
ns_pids
expect 'choose the one to watch' 20
keys q
expect 'EXITED rc=2' 10
expect "stwtop: 2 Java processes are running; choose one with --pid PID" 2
expect "^  $PA +root +[0-9dhms?]+ +ProbeTarget" 2
expect "^  $PB +root +[0-9dhms?]+ +-jar probe\.jar" 2
stop_ns
fresh

# 3. --plain, --plain --json, and the dashboard without a terminal (a pipe): the list
#    on stderr, exit 2, stdout empty (--no-color stands for the dashboard: no --plain)
for mode in "--plain" "--plain --json" "--no-color"; do
	rm -f "$TMPD/pid.a" "$TMPD/pid.b"
	"${NS[@]}" bash "$TMPD/ns.sh" "$BIN" $mode >"$TMPD/out" 2>"$TMPD/err" </dev/null
	rc=$?
	PA=$(cat "$TMPD/pid.a" 2>/dev/null) PB=$(cat "$TMPD/pid.b" 2>/dev/null)
	[ $rc = 2 ] && ok "$mode: exit 2" || fail "$mode: exit $rc, not 2: $(cat "$TMPD/err")"
	grep -q '^stwtop: 2 Java processes are running; choose one with --pid PID:$' "$TMPD/err" \
		&& ok "$mode: says to choose with --pid" || fail "$mode: no listing: $(cat "$TMPD/err")"
	grep -Eq "^  PID +USER +UPTIME +MAIN$" "$TMPD/err" && ok "$mode: column names" || fail "$mode: no column names"
	grep -Eq "^  $PA +root +[0-9dhms]+ +ProbeTarget$" "$TMPD/err" && ok "$mode: the first JVM ($PA)" \
		|| fail "$mode: $PA not listed: $(cat "$TMPD/err")"
	grep -Eq "^  $PB +root +[0-9dhms]+ +-jar probe\.jar$" "$TMPD/err" && ok "$mode: the second JVM ($PB)" \
		|| fail "$mode: $PB not listed: $(cat "$TMPD/err")"
	[ ! -s "$TMPD/out" ] && ok "$mode: nothing on stdout" || fail "$mode: stdout has $(head -c 200 "$TMPD/out")"
done

# 4. two JVMs of the same main class (issue 26: rows "4767 root 7s Svc" / "4782 root 7s
#    Svc" told nothing apart): each row says what differs, its listening port, arguments
#    and -Xmx, and the two rows are not the same past the pid and uptime columns.
javac -nowarn -d "$TMPD/classes" "$TESTS/fixtures/java/HelloService.java" || fail "javac HelloService"
P1=$(( 20000 + ($$ * 7) % 20000 )); P2=$((P1 + 1))
cat >"$TMPD/ns2.sh" <<EOF
#!/usr/bin/env bash
cd "\$(dirname "\$0")"
java -Xmx32m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "\$PWD/classes" HelloService $P1 2 >c.out 2>&1 &
C=\$!
java -Xmx48m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "\$PWD/classes" HelloService $P2 2 >d.out 2>&1 &
D=\$!
for _ in \$(seq 300); do grep -q READY c.out && grep -q READY d.out && break; sleep 0.1; done
echo "\$C" >pid.a; echo "\$D" >pid.b
"\$@"
rc=\$?
kill "\$C" "\$D" 2>/dev/null; wait
exit \$rc
EOF
fresh
rm -f "$TMPD/pid.a" "$TMPD/pid.b"
start 160 40 "${NS[*]} bash '$TMPD/ns2.sh' '$BIN'"
ns_pids
expect '2 Java processes are running; choose the one to watch' 20
expect 'WHAT TELLS IT APART' 5
expect "> $PA +root +[0-9dhms?]+ +HelloService +port $P1 +args $P1 2 +-Xmx32m" 5
expect "  $PB +root +[0-9dhms?]+ +HelloService +port $P2 +args $P2 2 +-Xmx48m" 5
ra=$(grep -E "^ . $PA " "$TMPD/screen" | cut -c4- | sed -E 's/^[0-9]+ +[^ ]+ +[^ ]+ //')
rb=$(grep -E "^ . $PB " "$TMPD/screen" | cut -c4- | sed -E 's/^[0-9]+ +[^ ]+ +[^ ]+ //')
[ -n "$ra" ] && [ "$ra" != "$rb" ] && ok "the rows differ past pid and uptime: '$ra' / '$rb'" ||
	fail "the rows are the same past pid and uptime: '$ra'"
keys q
expect 'EXITED rc=2' 10
stop_ns

# no JVM of ours outlives the test's namespaces
sleep 0.5
left=$(pgrep -f "java .*$TMPD/(classes|probe\.jar)" | wc -l)
[ "$left" = 0 ] && ok "the JVMs are gone" || fail "$left JVM(s) still run"
finish
