#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# install-deps.sh — everything stwtop needs to build and to run its whole test
# suite on Debian 12 (bookworm). Uses sudo only when not already root.
#   build:  cmake, a C compiler, pkg-config, ncursesw, libinotifytools, jansson, zlib (gzip logs),
#           libzstd (zstd logs; optional: without it a .zst is refused with a hint),
#           libmicrohttpd (the --metrics HTTP server)
#   tests:  cmocka; tmux (end-to-end screens), jq (report checks), strace (read-only check), python3
#           (replay/checker tools), nginx-light + curl (real nginx logs),
#           openjdk-17-jdk-headless (real JVM logs and discovery), inotify-tools,
#           prometheus (promtool check metrics, and a real Prometheus scraping --metrics),
#           prometheus-alertmanager (amtool check-config of deploy/prometheus/alertmanager.yml),
#           podman + runc + catatonit (a pod's pause process) + mmdebstrap (tests/e2e/pod.sh:
#           the sidecar manifest run as a real pod, its images built from Debian packages by
#           deploy/container/build-image.sh), zsh + fish (their completions run in them;
#           without them those two tests are skipped), qemu-system-x86 + busybox-static + a
#           Debian kernel package (tests/e2e/cgroup2_vm.sh: stwtop on a real cgroup v2 kernel
#           in a VM; the package is only downloaded, to /var/cache/stwtop/vm, never installed)
#   fuzz:   clang + libclang-rt-14-dev (libFuzzer, ASan/UBSan)
set -eu
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake pkg-config \
  libncurses-dev libinotifytools0-dev inotify-tools libjansson-dev zlib1g-dev libzstd-dev libcmocka-dev libmicrohttpd-dev \
  tmux jq python3 procps zstd curl nginx-light openjdk-17-jdk-headless strace prometheus prometheus-alertmanager python3-yaml tzdata \
  clang libclang-rt-14-dev valgrind podman runc catatonit mmdebstrap zsh fish \
  qemu-system-x86 busybox-static >/dev/null
# the kernel linux-image-amd64 points at (Debian 12: 6.1), for tests/e2e/cgroup2_vm.sh to boot: the
# test unpacks its vmlinuz and 9p/virtio modules into its own temporary directory
KPKG=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
if [ -n "$KPKG" ] && ! ls /var/cache/stwtop/vm/"$KPKG"_*.deb >/dev/null 2>&1; then
  $SUDO mkdir -p /var/cache/stwtop/vm
  $SUDO sh -c "cd /var/cache/stwtop/vm && rm -f linux-image-*.deb && apt-get download -qq '$KPKG'"
fi
# the Debian nginx package starts a system nginx on port 80 where systemd runs;
# the tests run their own nginx from their own prefix and never need it.
# Likewise the prometheus package's own server (:9090), and alertmanager's (:9093): the metrics tests start
# theirs on a free port with a temporary config and storage.
# podman (the pod test, tests/e2e/pod.sh) runs with runc and a configuration of the test's
# own (CONTAINERS_CONF): nothing here changes the machine's containers.conf.
