#!/usr/bin/env bash
# install-deps.sh — everything stwtop needs to build and to run its whole test
# suite on Debian 12 (bookworm). Uses sudo only when not already root.
#   build:  cmake, a C compiler, pkg-config, ncursesw, libinotifytools, jansson, zlib (gzip logs),
#           libzstd (zstd logs; optional: without it a .zst is refused with a hint),
#           libmicrohttpd (the --metrics HTTP server)
#   tests:  cmocka; tmux (end-to-end screens), jq (report checks), strace (read-only check), python3
#           (replay/checker tools), nginx-light + curl (real nginx logs),
#           openjdk-17-jdk-headless (real JVM logs and discovery), inotify-tools,
#           prometheus (promtool check metrics, and a real Prometheus scraping --metrics),
#           podman + runc + catatonit (a pod's pause process) + mmdebstrap (tests/e2e/pod.sh:
#           the sidecar manifest run as a real pod, its images built from Debian packages by
#           deploy/container/build-image.sh)
#   fuzz:   clang + libclang-rt-14-dev (libFuzzer, ASan/UBSan)
set -eu
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake pkg-config \
  libncurses-dev libinotifytools0-dev inotify-tools libjansson-dev zlib1g-dev libzstd-dev libcmocka-dev libmicrohttpd-dev \
  tmux jq python3 procps zstd curl nginx-light openjdk-17-jdk-headless strace prometheus python3-yaml tzdata \
  clang libclang-rt-14-dev valgrind podman runc catatonit mmdebstrap >/dev/null
# the Debian nginx package starts a system nginx on port 80 where systemd runs;
# the tests run their own nginx from their own prefix and never need it.
# Likewise the prometheus package's own server (:9090): the metrics tests start
# theirs on a free port with a temporary config and storage.
# podman: crun (Debian's default runtime) fails on this kind of machine ("setrlimit
# RLIMIT_NOFILE: Operation not permitted", even at the current values): run containers with
# runc and pass no default ulimits. Written once, idempotent; an existing file is left alone
# when it already says both.
CONF=/etc/containers/containers.conf
if ! { [ -f "$CONF" ] && grep -q '^runtime = "runc"' "$CONF" && grep -q '^default_ulimits = \[\]' "$CONF"; }; then
  [ -f "$CONF" ] && $SUDO cp "$CONF" "$CONF.stwtop-bak"
  $SUDO mkdir -p /etc/containers
  printf '%s\n' '# written by stwtop scripts/install-deps.sh: crun cannot set rlimits here; runc can' \
    '[containers]' 'default_ulimits = []' '' '[engine]' 'runtime = "runc"' | $SUDO tee "$CONF" >/dev/null
fi
