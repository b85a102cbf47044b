#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh OUT — the run of this folder: tests/fixtures/java/Leak.java in http mode (keeps 64 KB of
# every request) with -Xmx64m -XX:+ExitOnOutOfMemoryError, behind a private nginx
# (tests/e2e/lib/nginx.bash: the lab log_format, connect 1 s, read 2 s), under a curl load of about
# 50 starts a second until the JVM ends itself and 8 s after (TAIL_S=N: N s). Writes OUT/gc.log, OUT/stdout.log,
# OUT/stderr.log, OUT/logs/access.log, OUT/logs/error.log, OUT/nginx.conf, OUT/java-rc.txt.
set -u
T=$(realpath "${1:?usage: run.sh OUT}"); mkdir -p "$T"
W=$(cd "$(dirname "$0")/../../.." && pwd)
NPORT=28180; JPORT=28181
. "$W/tests/e2e/lib/nginx.bash"
javac -d "$T/classes" "$W/tests/fixtures/java/Leak.java" || exit 1
start_nginx "$T" $NPORT $JPORT 1s 2s
( cd "$T" && exec java -Xmx64m -XX:+ExitOnOutOfMemoryError "-Xlog:gc*,safepoint:file=$T/gc.log:time,uptime,level,tags" \
	-cp classes Leak http $JPORT 64 ) >"$T/stdout.log" 2>"$T/stderr.log" &
JP=$!
until grep -q READY "$T/stdout.log"; do sleep 0.1; done
( while :; do curl -s -o /dev/null --max-time 3 "http://127.0.0.1:$NPORT/x" & sleep 0.02; done ) &
LP=$!
wait $JP; echo $? >"$T/java-rc.txt"
sleep "${TAIL_S:-8}"
kill $LP; wait $LP 2>/dev/null
sleep 1
kill -QUIT "$(cat "$T/nginx.pid")"; sleep 0.5
rm -rf "$T/classes" "$T/nginx.pid"
