#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-bench.sh [BUILD_DIR] — builds bench_sched against BUILD_DIR's libstwtop_core.a
# (default: build; configure it first) and runs it with a 2000-thread C program and
# a 2000-thread JVM (when java/javac exist). Not part of ctest.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(realpath "${1:-$top/build}")
cmake --build "$build" --target stwtop_core >/dev/null
cc -O2 -g -std=gnu11 -D_GNU_SOURCE -I "$top/include" "$here/bench_sched.c" "$build/libstwtop_core.a" \
	$(pkg-config --libs jansson) -lpthread -o "$build/bench_sched"
echo "== C program, 2000 threads"
"$build/bench_sched" --threads 2000 --polls 60
if command -v java >/dev/null && command -v javac >/dev/null; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	javac -d "$tmp" "$top/tests/fixtures/java/ProbeTarget.java"
	echo "== JVM (ProbeTarget: 2 workers + 2000 sleepers, ~2020 threads)"
	"$build/bench_sched" --threads 2000 --polls 60 --java "$tmp"
fi
