# SPDX-License-Identifier: GPL-2.0-or-later
# prometheus.bash — a real Prometheus for a test, sourced by the e2e scripts that scrape
# stwtop's /metrics (metrics_prometheus.sh, flagless_outputs.sh, pod.sh).
#
# prom_start DIR TARGET_PORT PROM_PORT: scrape 127.0.0.1:TARGET_PORT every second (job
# "stwtop"), storage and config under DIR, listening on 127.0.0.1:PROM_PORT, in the
# background; its pid is in PROM_PID (the caller kills it), its log in DIR/prometheus.log.
prom_start() {
	local dir=$1 target=$2 port=$3
	cat >"$dir/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: stwtop
    static_configs:
      - targets: ['127.0.0.1:$target']
YML
	prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/tsdb" \
		--web.listen-address="127.0.0.1:$port" --log.level=warn >"$dir/prometheus.log" 2>&1 &
	PROM_PID=$!
}
