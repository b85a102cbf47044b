# SPDX-License-Identifier: GPL-2.0-or-later
# nginx.bash — a private nginx in front of one upstream, for the live e2e tests.
# start_nginx DIR NPORT UPORT CONNECT_TIMEOUT READ_TIMEOUT: writes DIR/nginx.conf (the lab
# log_format into DIR/logs/access.log), starts nginx with its pid in DIR/nginx.pid; LAB is
# the format. Exits 1 when nginx does not start.
LAB='$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time urt=$upstream_response_time rt=$request_time'
. "$(dirname "${BASH_SOURCE[0]}")/ports.bash"

start_nginx() {
	local dir=$1 nport=$2 uport=$3 ct=$4 rt=$5
	local bin
	bin=$(command -v nginx || echo /usr/sbin/nginx)
	mkdir -p "$dir/logs"
	cat >"$dir/nginx.conf" <<EOF
worker_processes 1;
error_log $dir/logs/error.log;
events { worker_connections 512; }
http {
	log_format lab '$LAB';
	access_log $dir/logs/access.log lab;
	server {
		listen 127.0.0.1:$nport;
		location / { proxy_pass http://127.0.0.1:$uport; proxy_connect_timeout $ct; proxy_read_timeout $rt; }
	}
}
EOF
	"$bin" -p "$dir" -c "$dir/nginx.conf" -g "pid $dir/nginx.pid;" || { echo "FAIL: nginx did not start"; exit 1; }
}
