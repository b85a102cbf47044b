#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# build-image.sh [BUILD_DIR] — the stwtop sidecar image, localhost/stwtop:VERSION (and :latest),
# from the dynamic build in BUILD_DIR (default build/; run cmake first) and Debian 12 packages.
#  1. the base: deploy/container/debian-base.sh makes localhost/stwtop-base:KEY from
#     `mmdebstrap --variant=apt` with stwtop's runtime libraries (what `ldd stwtop` needs:
#     libjansson4 libinotifytools0 libncursesw6 libzstd1 zlib1g; libmicrohttpd12, dlopen()ed for
#     --metrics) plus procps (ps for `kubectl exec`); bash and coreutils are Essential;
#  2. `cmake --install` of BUILD_DIR into a staging directory;
#  3. `podman build` of deploy/container/Containerfile FROM that base.
# Checks before building that the binary is the dynamic one and that every library it links is
# in the base. Prints the image's name. Env: STWTOP_IMAGE (name, default localhost/stwtop),
# STWTOP_IMAGE_CACHE (debian-base.sh's rootfs cache). Needs root, podman, mmdebstrap.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
B=$(cd "${1:-$ROOT/build}" && pwd)
IMAGE=${STWTOP_IMAGE:-localhost/stwtop}
PKGS=libjansson4,libinotifytools0,libncursesw6,libzstd1,libmicrohttpd12,zlib1g,procps
[ -x "$B/stwtop" ] || { echo "build-image: no $B/stwtop (cmake -S . -B build && cmake --build build)" >&2; exit 1; }
if ! ldd "$B/stwtop" >/dev/null 2>&1; then
	echo "build-image: $B/stwtop is statically linked: it cannot load libmicrohttpd for --metrics;" \
		"build the dynamic binary (without -DSTWTOP_STATIC=ON)" >&2
	exit 1
fi
grep -q '^STWTOP_SANITIZE:BOOL=ON' "$B/CMakeCache.txt" 2>/dev/null &&
	{ echo "build-image: $B is a sanitizer build" >&2; exit 1; }
VERSION=$("$B/stwtop" --version 2>/dev/null | awk '{print $NF; exit}')
VERSION=${VERSION:-dev}
BASE=$("$HERE/debian-base.sh" stwtop-base "$PKGS")

CTX=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-image.XXXXXX")
trap 'rm -rf "$CTX"' EXIT
cmake --install "$B" --prefix "$CTX/stage" >/dev/null
# strip the debug info of RelWithDebInfo: the image needs no symbols
strip --strip-debug "$CTX/stage/bin/stwtop" 2>/dev/null || true
cp "$HERE/Containerfile" "$CTX/"
# every library the binary links resolves inside the base (a missing one is a crash loop)
missing=$(podman run --rm --user 0 -v "$CTX/stage/bin/stwtop:/x:ro" --entrypoint /usr/bin/ldd "$BASE" /x 2>&1 |
	grep 'not found' || true)
[ -z "$missing" ] || { echo "build-image: missing in $BASE: $missing" >&2; exit 1; }
podman build --quiet --build-arg "BASE=$BASE" -t "$IMAGE:$VERSION" -t "$IMAGE:latest" -f "$CTX/Containerfile" "$CTX" >/dev/null
echo "$IMAGE:$VERSION"
