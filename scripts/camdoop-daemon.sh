#!/usr/bin/env bash
# camdoop-daemon.sh start|stop|status: one Camdoop daemon in the background, from this source tree. It runs the
# distribution's own sbin/camdoop-daemon.sh (the tarball this tree builds, unpacked under camdoop-dist/target), with
# the tree's conf/ and logs/ as defaults; its environment (CAMDOOP_CONF_DIR, CAMDOOP_LOG_DIR, CAMDOOP_PID_DIR,
# CAMDOOP_IDENT_STRING, CAMDOOP_COORDINATE, CAMDOOP_STOP_TIMEOUT, CAMDOOP_START_WAIT, CAMDOOP_JAVA_OPTS) is explained
# there and in docs/daemon.md.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CAMDOOP_CONF_DIR="${CAMDOOP_CONF_DIR:-$ROOT/conf}"
export CAMDOOP_LOG_DIR="${CAMDOOP_LOG_DIR:-$ROOT/logs}"
exec "$ROOT/scripts/camdoop" dist-sbin camdoop-daemon.sh "$@"
