#!/usr/bin/env bash
# camdoop-daemons.sh start|stop|status|check: camdoop-daemon.sh on every server of the topology file, like Hadoop's
# hadoop-daemons.sh over its workers file. start and stop run on all hosts at once; check prints one line per daemon
# (its links up of all) and exits 1 when any daemon or any link is down.
#
# Environment (all optional; the CAMDOOP_* of camdoop-daemon.sh are passed on to every host):
#   CAMDOOP_TOPOLOGY    the topology file (default: camdoop.topology.file of CAMDOOP_CONF_DIR/camdoop-site.xml)
#   CAMDOOP_REMOTE_CMD  how to run a command on a server, {host} and {coord} (x_y_z) replaced
#                       (default: ssh -o BatchMode=yes -o ConnectTimeout=10 {host};
#                       the testbed uses: ip netns exec camdoop-{coord}; empty: run here, without ssh)
#   CAMDOOP_REMOTE_HOME where the distribution is on the servers (default: where it is here)
#   CAMDOOP_SERVERS     a file of coordinates (x,y,z, one per line) that start and stop act on, e.g. the servers
#                       without a NodeManager when the others' daemons run in their NodeManagers (default: every server
#                       of the topology); status and check always cover every server
set -uo pipefail
usage() { echo "usage: $(basename "$0") start|stop|status|check" >&2; exit 2; }
[ $# -eq 1 ] || usage
case "$1" in start|stop|status|check) ;; *) usage ;; esac

HOME_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CONF_DIR="${CAMDOOP_CONF_DIR:-$HOME_DIR/conf}"
REMOTE_HOME="${CAMDOOP_REMOTE_HOME:-$HOME_DIR}"
DEFAULT_REMOTE_CMD='ssh -o BatchMode=yes -o ConnectTimeout=10 {host}'
REMOTE_CMD="${CAMDOOP_REMOTE_CMD-$DEFAULT_REMOTE_CMD}"
TOPOLOGY="${CAMDOOP_TOPOLOGY:-}"
if [ -z "$TOPOLOGY" ]; then
  # The value of camdoop.topology.file in camdoop-site.xml (one <value> after its <name>).
  TOPOLOGY="$(sed -n '/<name>camdoop.topology.file<\/name>/,/<\/property>/s:.*<value>\(.*\)</value>.*:\1:p' \
      "$CONF_DIR/camdoop-site.xml" 2>/dev/null | head -n 1)"
fi
[ -n "$TOPOLOGY" ] && [ -r "$TOPOLOGY" ] || { echo "camdoop-daemons.sh: no readable topology file (set CAMDOOP_TOPOLOGY or camdoop.topology.file in $CONF_DIR/camdoop-site.xml)" >&2; exit 2; }

# One "coord host" pair per server line (comments, blank lines and the shape line skipped).
servers() {
  awk '!/^[[:space:]]*(#|$)/ && $1 != "shape" { n = split($2, a, ":"); host = a[1]; for (i = 2; i < n; i++) host = host ":" a[i]; gsub(/[][]/, "", host); print $1, host }' "$TOPOLOGY"
}

# The servers start and stop act on: those of CAMDOOP_SERVERS, or all.
own_servers() {
  if [ -z "${CAMDOOP_SERVERS:-}" ]; then servers; return; fi
  [ -r "$CAMDOOP_SERVERS" ] || { echo "camdoop-daemons.sh: cannot read CAMDOOP_SERVERS file $CAMDOOP_SERVERS" >&2; exit 2; }
  servers | awk 'NR == FNR { if ($1 !~ /^[[:space:]]*(#|$)/) keep[$1] = 1; next } $1 in keep' "$CAMDOOP_SERVERS" -
}

# Runs camdoop-daemon.sh ACTION for the server at COORD on HOST, with this side's settings.
on_server() {
  local coord="$1" host="$2" action="$3" ident prefix
  ident="${CAMDOOP_IDENT_STRING:-${USER:-camdoop}}-${coord//,/_}"
  prefix="${REMOTE_CMD//\{host\}/$host}"
  prefix="${prefix//\{coord\}/${coord//,/_}}"
  local envs=(CAMDOOP_IDENT_STRING="$ident" CAMDOOP_COORDINATE="$coord" CAMDOOP_CONF_DIR="$CONF_DIR")
  local v
  for v in CAMDOOP_LOG_DIR CAMDOOP_PID_DIR CAMDOOP_JAVA_OPTS CAMDOOP_STOP_TIMEOUT CAMDOOP_START_WAIT; do
    [ -z "${!v:-}" ] || envs+=("$v=${!v}")
  done
  local cmd=(env "${envs[@]}" "$REMOTE_HOME/sbin/camdoop-daemon.sh" "$action")
  if [[ "$prefix" == ssh* ]]; then
    # ssh joins its arguments into one command for the remote shell: quote each (JVM options hold spaces).
    # shellcheck disable=SC2086
    $prefix "$(printf '%q ' "${cmd[@]}")"
  else
    # shellcheck disable=SC2086
    $prefix "${cmd[@]}"
  fi
}

case "$1" in
  start|stop)
    failed=0
    pids=()
    while read -r coord host; do
      on_server "$coord" "$host" "$1" 2>&1 | sed "s/^/$coord ($host): /" &
      pids+=($!)
    done < <(own_servers)
    for p in "${pids[@]}"; do wait "$p" || failed=1; done
    exit $failed ;;
  status)
    failed=0
    while read -r coord host; do
      on_server "$coord" "$host" status 2>&1 | sed "s/^/$coord ($host): /" || failed=1
    done < <(servers)
    exit $failed ;;
  check)
    bad=0
    printf '%-10s %-22s %-7s %s\n' server host daemon links
    while read -r coord host; do
      if out="$(on_server "$coord" "$host" status 2>/dev/null)"; then
        up="$(grep -c '^link .* up$' <<<"$out")"
        all="$(grep -c '^link ' <<<"$out")"
        down="$(awk '/^link .* down$/ { printf "%s%s to %s", sep, $2, $3; sep = ", " }' <<<"$out")"
        printf '%-10s %-22s %-7s %s\n' "$coord" "$host" up "$up of $all up${down:+; down: $down}"
        [ "$up" -eq "$all" ] || bad=1
      else
        printf '%-10s %-22s %-7s %s\n' "$coord" "$host" DOWN -
        bad=1
      fi
    done < <(servers)
    exit $bad ;;
esac
