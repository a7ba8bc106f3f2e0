#!/usr/bin/env bash
# camdoop-daemon.sh start|stop|status: one Camdoop daemon in the background on this host, like hadoop-daemon.sh.
#
# Environment (all optional):
#   CAMDOOP_CONF_DIR      directory holding camdoop-site.xml                    (default: <dist>/conf)
#   CAMDOOP_LOG_DIR       where the log goes                                    (default: <dist>/logs)
#   CAMDOOP_PID_DIR       where the pid and status files go                     (default: /tmp)
#   CAMDOOP_IDENT_STRING  names the pid, status and log files                   (default: $USER)
#   CAMDOOP_COORDINATE    this daemon's coordinate X,Y,Z (default: camdoop.daemon.coordinate, else the topology
#                         line naming this host)
#   CAMDOOP_STOP_TIMEOUT  seconds to wait after SIGTERM before SIGKILL          (default: 10)
#   CAMDOOP_START_WAIT    seconds start waits for the daemon to be up           (default: 30)
#   CAMDOOP_JAVA_OPTS     JVM options, e.g. -Xmx2g
# The status file (camdoop-IDENT-daemon.status in CAMDOOP_PID_DIR) lists the daemon's links, up or down, while it runs.
set -euo pipefail
usage() { echo "usage: $(basename "$0") start|stop|status" >&2; exit 2; }
[ $# -eq 1 ] || usage

HOME_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CONF_DIR="${CAMDOOP_CONF_DIR:-$HOME_DIR/conf}"
LOG_DIR="${CAMDOOP_LOG_DIR:-$HOME_DIR/logs}"
PID_DIR="${CAMDOOP_PID_DIR:-/tmp}"
IDENT="${CAMDOOP_IDENT_STRING:-${USER:-camdoop}}"
PID_FILE="$PID_DIR/camdoop-$IDENT-daemon.pid"
STATUS_FILE="$PID_DIR/camdoop-$IDENT-daemon.status"
LOG_FILE="$LOG_DIR/camdoop-$IDENT-daemon.log"
STOP_TIMEOUT="${CAMDOOP_STOP_TIMEOUT:-10}"
START_WAIT="${CAMDOOP_START_WAIT:-30}"

running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(cat "$PID_FILE")"
  kill -0 "$pid" 2>/dev/null || return 1
  # A daemon killed with -9 stays a zombie until its parent (init, once the starting shell is gone) reaps it, and
  # kill -0 still finds a zombie: read its state (the field after the command name) where /proc has it.
  if [ -r "/proc/$pid/stat" ] && [ "$(sed 's/.*) //' "/proc/$pid/stat" | cut -d' ' -f1)" = Z ]; then
    return 1
  fi
  echo "$pid"
}

case "$1" in
  start)
    if pid="$(running_pid)"; then
      echo "camdoop daemon $IDENT already running as process $pid; stop it first" >&2
      exit 1
    fi
    mkdir -p "$LOG_DIR" "$PID_DIR"
    rm -f "$STATUS_FILE"
    args=(daemon --conf "$CONF_DIR" --status "$STATUS_FILE")
    [ -z "${CAMDOOP_COORDINATE:-}" ] || args+=(--coordinate "$CAMDOOP_COORDINATE")
    echo "starting camdoop daemon $IDENT, logging to $LOG_FILE"
    nohup "$HOME_DIR/bin/camdoop" "${args[@]}" >>"$LOG_FILE" 2>&1 < /dev/null &
    echo $! > "$PID_FILE"
    # Up means its status file exists (written once the torus port and the local socket are open).
    for _ in $(seq 1 $((START_WAIT * 10))); do
      [ -f "$STATUS_FILE" ] && exit 0
      running_pid >/dev/null || break
      sleep 0.1
    done
    echo "camdoop daemon $IDENT failed to start; last lines of $LOG_FILE:" >&2
    tail -n 20 "$LOG_FILE" >&2
    if pid="$(running_pid)"; then kill -9 "$pid"; fi
    rm -f "$PID_FILE"
    exit 1
    ;;
  stop)
    if ! pid="$(running_pid)"; then
      echo "no camdoop daemon $IDENT to stop"
      rm -f "$PID_FILE" "$STATUS_FILE"
      exit 0
    fi
    echo "stopping camdoop daemon $IDENT (process $pid)"
    kill "$pid"
    for _ in $(seq 1 $((STOP_TIMEOUT * 10))); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "camdoop daemon $IDENT did not stop within ${STOP_TIMEOUT}s; killing it" >&2
      kill -9 "$pid"
    fi
    rm -f "$PID_FILE" "$STATUS_FILE"
    ;;
  status)
    if pid="$(running_pid)"; then
      echo "camdoop daemon $IDENT is running as process $pid"
      [ ! -f "$STATUS_FILE" ] || cat "$STATUS_FILE"
    else
      echo "camdoop daemon $IDENT is not running"
      exit 1
    fi
    ;;
  *) usage ;;
esac
