#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# throttle_nolog_live.sh path/to/stwtop — throttle_live.sh with a JVM started with no logging
# flag and no --gc: the throttled stop is judged from the JVM's own counters (issue 15).
NOLOG=1 exec bash "$(dirname "$0")/throttle_live.sh" "$@"
