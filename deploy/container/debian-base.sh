#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# debian-base.sh NAME PKG[,PKG...] — a local base image made from Debian 12 packages, with no
# registry: mmdebstrap writes a slim rootfs (--variant=apt: the Essential packages, apt, and
# the packages named), podman imports it as localhost/NAME:KEY (KEY: a hash of the suite, the
# mirror and the package list). Prints the image's name on stdout.
#
# Reruns are fast: an image already present is reused, and the rootfs tarball is kept in
# $STWTOP_IMAGE_CACHE (default /var/cache/stwtop-images) under the same key, so a removed image
# is imported again without a download. Delete the directory to start clean.
# Needs root (mmdebstrap builds the rootfs as root; podman's storage is /var/lib/containers),
# mmdebstrap and podman (scripts/install-deps.sh installs them), and the Debian mirror.
set -euo pipefail
NAME=${1:?usage: debian-base.sh NAME PKG[,PKG...]}
PKGS=${2:?usage: debian-base.sh NAME PKG[,PKG...]}
SUITE=${STWTOP_DEBIAN_SUITE:-bookworm}
MIRROR=${STWTOP_DEBIAN_MIRROR:-}
CACHE=${STWTOP_IMAGE_CACHE:-/var/cache/stwtop-images}
# the key: what the rootfs is made of (the order of the packages does not matter)
sorted=$(tr ', ' '\n\n' <<<"$PKGS" | sed '/^$/d' | sort -u | paste -sd, -)
KEY=$(printf '%s\n' "$SUITE" "$MIRROR" "$sorted" | sha256sum | cut -c1-12)
IMG=localhost/$NAME:$KEY
if podman image exists "$IMG"; then
	echo "$IMG"
	exit 0
fi
mkdir -p "$CACHE"
TAR=$CACHE/$NAME-$KEY.tar
if [ ! -s "$TAR" ]; then
	echo "debian-base: mmdebstrap $SUITE +$sorted -> $TAR" >&2
	# --variant=apt: no Priority:important extras; docs and man pages dropped to keep it slim
	# (the man1 directory stays: openjdk's update-alternatives fails without it)
	mmdebstrap --setup-hook='mkdir -p "$1/usr/share/man/man1"' \
		--variant=apt --format=tar --include="$sorted" \
		--dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-include=/usr/share/doc/*/copyright' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		"$SUITE" "$TAR.part.tar" ${MIRROR:+"$MIRROR"} >&2
	mv "$TAR.part.tar" "$TAR"
fi
# without ENV=PATH an imported image has no PATH and no command is found
podman import --quiet --change 'ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
	--message "stwtop debian-base $SUITE: $sorted" "$TAR" "$IMG" >/dev/null
echo "$IMG"
