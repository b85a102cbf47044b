# SPDX-License-Identifier: GPL-2.0-or-later
# ports.bash — TCP ports for the e2e tests, as the kernel hands them out.
# free_ports N: N distinct ports that were free a moment ago (all bound at once, then let go).
# free_port: one such port. A port worked out from $$ can be one that a connection of an
# earlier test still holds: a JVM then dies on "Address already in use" (seen in CI).
free_ports() {
	python3 -c 'import socket, sys
ss = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in ss: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))' "$1"
}
free_port() { free_ports 1; }
