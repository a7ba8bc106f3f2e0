#!/usr/bin/env bash
# camdoop-daemon.sh start|stop|status: runs one Camdoop daemon in the background, like Hadoop's daemon scripts.
#
# Environment (all optional):
#   CAMDOOP_CONF_DIR      directory holding camdoop-site.xml          (default: <repo>/conf)
#   CAMDOOP_LOG_DIR       where the log goes                          (default: <repo>/logs)
#   CAMDOOP_PID_DIR       where the pid file goes                     (default: /tmp)
#   CAMDOOP_IDENT_STRING  names the pid and log files                 (default: $USER)
#   CAMDOOP_STOP_TIMEOUT  seconds to wait after SIGTERM before SIGKILL (default: 10)
#   CAMDOOP_JAVA_OPTS     JVM options, e.g. -Xmx2g
set -euo pipefail

usage() { echo "usage: $(basename "$0") start|stop|status" >&2; exit 2; }
[ $# -eq 1 ] || usage

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/build.sh
. "$ROOT/scripts/lib/build.sh"
CONF_DIR="${CAMDOOP_CONF_DIR:-$ROOT/conf}"
LOG_DIR="${CAMDOOP_LOG_DIR:-$ROOT/logs}"
PID_DIR="${CAMDOOP_PID_DIR:-/tmp}"
IDENT="${CAMDOOP_IDENT_STRING:-${USER:-camdoop}}"
PID_FILE="$PID_DIR/camdoop-$IDENT-daemon.pid"
LOG_FILE="$LOG_DIR/camdoop-$IDENT-daemon.log"
STOP_TIMEOUT="${CAMDOOP_STOP_TIMEOUT:-10}"

running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(cat "$PID_FILE")"
  kill -0 "$pid" 2>/dev/null && echo "$pid"
}

case "$1" in
  start)
    if pid="$(running_pid)"; then
      echo "camdoop daemon already running as process $pid; stop it first" >&2
      exit 1
    fi
    mkdir -p "$LOG_DIR" "$PID_DIR"
    # Build first (in the foreground) so a first start does not race the build against the liveness check.
    camdoop_build camdoop-daemon "the daemon"
    echo "starting camdoop daemon, logging to $LOG_FILE"
    nohup "$ROOT/scripts/camdoop" daemon --conf "$CONF_DIR" >>"$LOG_FILE" 2>&1 < /dev/null &
    echo $! > "$PID_FILE"
    sleep 2
    if ! running_pid >/dev/null; then
      echo "camdoop daemon failed to start; last lines of $LOG_FILE:" >&2
      tail -n 20 "$LOG_FILE" >&2
      rm -f "$PID_FILE"
      exit 1
    fi
    ;;
  stop)
    if ! pid="$(running_pid)"; then
      echo "no camdoop daemon to stop"
      rm -f "$PID_FILE"
      exit 0
    fi
    echo "stopping camdoop daemon (process $pid)"
    kill "$pid"
    for _ in $(seq 1 "$STOP_TIMEOUT"); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "camdoop daemon did not stop within ${STOP_TIMEOUT}s; killing it" >&2
      kill -9 "$pid"
    fi
    rm -f "$PID_FILE"
    ;;
  status)
    if pid="$(running_pid)"; then
      echo "camdoop daemon is running as process $pid"
    else
      echo "camdoop daemon is not running"
      exit 1
    fi
    ;;
  *) usage ;;
esac
