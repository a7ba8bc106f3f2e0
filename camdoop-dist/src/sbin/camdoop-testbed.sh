#!/usr/bin/env bash
# camdoop-testbed.sh up|run|check|kill|start|cut|down: a torus of real daemon processes on this one machine, each in its
# own network namespace with its own address, joined by one veth pair per torus link shaped with tc (needs root); with
# --hadoop, a YARN cluster beside it: a switch, a master (ResourceManager, JobHistory server) and NodeManagers that
# host their servers' daemons.
#
#   up [--shape AxBxC] [--link-mbps L] [--work DIR]   namespaces, links, then every daemon (sbin/camdoop-daemons.sh)
#      [--failure-timeout-ms MS]                      camdoop.transport.failure.timeout.ms of every daemon (30000)
#      [--hadoop DIR [--nodemanagers K]]             and Hadoop from DIR (lib/, examples/) with K NodeManagers (9)
#   run [--stock] -- PROGRAM ARGS...                  an examples program from the master, as `hadoop jar` runs it,
#                                                     through Camdoop (--stock: Hadoop's own shuffle)
#   check                                              sbin/camdoop-daemons.sh check over the testbed
#   kill X,Y,Z                                         kill -9 the daemon of that server (its NodeManager, if any)
#   start X,Y,Z                                        start a killed standalone daemon again: a new run of it, which
#                                                     rejoins the torus (docs/recovery.md, "Rejoin")
#   cut X,Y,Z X',Y',Z'                                 take the torus link between two neighbours down
#   down                                               stop everything, remove every namespace, link and file
#
# Server i (index x + A*(y + B*z)) lives in namespace camdoop-x_y_z at 10.77.H.L (i+1 = 256*H + L) on its loopback;
# each torus link is a veth pair tI-J / tJ-I with a /32 route to the neighbour's address, so daemons reach exactly
# their neighbours, over their own link. Every veth end shapes what it sends (tbf) to --link-mbps (0: unshaped).
# The testbed's state is in WORK (default /tmp/camdoop-testbed): topology, camdoop-site.xml, logs, pids.
# CAMDOOP_TESTBED_HADOOP_OPTS (every Hadoop JVM) and CAMDOOP_TESTBED_TASK_OPTS (every task JVM, read by up) add
# JVM options.
set -euo pipefail
HOME_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${CAMDOOP_TESTBED_DIR:-/tmp/camdoop-testbed}"
PORT=7700

die() { echo "camdoop-testbed: $*" >&2; exit 1; }
usage() { sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
cmd="$1"; shift
[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, veth pairs, tc)"
command -v ip >/dev/null && command -v tc >/dev/null || die "needs ip and tc (Debian: apt-get install iproute2)"

# shellcheck source=../libexec/camdoop-testbed-hadoop.sh
. "$HOME_DIR/libexec/camdoop-testbed-hadoop.sh"

addr() { local n=$(($1 + 1)); echo "10.77.$((n / 256)).$((n % 256))"; }
ns() { echo "camdoop-$1"; }   # $1: x_y_z

# Reads the shape of a running testbed.
load_shape() {
  [ -f "$WORK/topology" ] || die "no testbed in $WORK (run: up)"
  read -r A B C < <(awk '$1 == "shape" { split($2, s, "x"); print s[1], s[2], s[3] }' "$WORK/topology")
}
idx() { echo $(($1 + A * ($2 + B * $3))); }
coord_of() { local i=$1; echo "$((i % A))_$(((i / A) % B))_$((i / (A * B)))"; }

daemons() {
  CAMDOOP_CONF_DIR="$WORK/conf" CAMDOOP_TOPOLOGY="$WORK/topology" CAMDOOP_PID_DIR="$WORK/pids" \
  CAMDOOP_LOG_DIR="$WORK/logs" CAMDOOP_IDENT_STRING=testbed CAMDOOP_REMOTE_CMD="ip netns exec camdoop-{coord}" \
  CAMDOOP_SERVERS="${CAMDOOP_SERVERS:-}" \
  CAMDOOP_JAVA_OPTS="${CAMDOOP_JAVA_OPTS:--Xmx192m -XX:+UseSerialGC -XX:TieredStopAtLevel=1}" \
      "$HOME_DIR/sbin/camdoop-daemons.sh" "$@"
}

# Neighbour pairs (i j), each link once: +x, +y, +z of every server, skipping a dimension of size 1 and the repeat of
# a size-2 dimension's single link.
links() {
  local x y z i
  for ((z = 0; z < C; z++)); do for ((y = 0; y < B; y++)); do for ((x = 0; x < A; x++)); do
    i=$(idx $x $y $z)
    if [ "$A" -gt 2 ] || { [ "$A" -eq 2 ] && [ $x -eq 0 ]; }; then echo "$i $(idx $(((x + 1) % A)) $y $z)"; fi
    if [ "$B" -gt 2 ] || { [ "$B" -eq 2 ] && [ $y -eq 0 ]; }; then echo "$i $(idx $x $(((y + 1) % B)) $z)"; fi
    if [ "$C" -gt 2 ] || { [ "$C" -eq 2 ] && [ $z -eq 0 ]; }; then echo "$i $(idx $x $y $(((z + 1) % C)))"; fi
  done; done; done
}

up() {
  local shape=3x3x3 mbps=50 nms=9 failure_ms=30000
  HADOOP_DIST=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --shape) shape="$2"; shift ;;
      --link-mbps) mbps="$2"; shift ;;
      --hadoop) HADOOP_DIST="$(cd "$2" && pwd)" || die "no directory $2"; shift ;;
      --nodemanagers) nms="$2"; shift ;;
      --work) WORK="$2"; shift ;;
      --failure-timeout-ms) failure_ms="$2"; shift ;;
      *) usage ;;
    esac
    shift
  done
  [[ "$shape" =~ ^[1-9][0-9]*x[1-9][0-9]*x[1-9][0-9]*$ ]] || die "--shape must be AxBxC, not $shape"
  [[ "$mbps" =~ ^[0-9]+$ ]] || die "--link-mbps must be a whole number of Mbit/s, not $mbps"
  [[ "$failure_ms" =~ ^[1-9][0-9]*$ ]] || die "--failure-timeout-ms must be a positive whole number of ms, not $failure_ms"
  [ ! -f "$WORK/topology" ] || die "a testbed is already up in $WORK (run: down)"
  mkdir -p "$WORK/conf" "$WORK/pids" "$WORK/logs"
  IFS=x read -r A B C <<<"$shape"
  local n=$((A * B * C)) i j c
  { echo "shape $shape"; for ((i = 0; i < n; i++)); do c=$(coord_of $i); echo "${c//_/,} $(addr $i):$PORT"; done; } \
      > "$WORK/topology"
  cat > "$WORK/conf/camdoop-site.xml" <<XML
<configuration>
  <property><name>camdoop.topology.file</name><value>$WORK/topology</value></property>
  <property><name>camdoop.cluster.secret</name><value>$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')</value></property>
  <property><name>camdoop.daemon.local-dirs</name><value>$WORK/local/\${env.CAMDOOP_IDENT_STRING}</value></property>
  <property><name>camdoop.daemon.vertex.threads</name><value>1</value></property>
  <property><name>camdoop.transport.failure.timeout.ms</name><value>$failure_ms</value></property>
</configuration>
XML
  echo "camdoop-testbed: $n namespaces, $(links | wc -l) torus links at ${mbps} Mbit/s each way"
  # The root namespace's part (create each pair, move its ends) is one `ip -batch`, each namespace's (addresses,
  # routes, qdiscs) one ip and one tc batch: some 80 processes where one per command was some 750, 10 s of a 3x3x3
  # testbed's start on 2 cores.
  local batches="$WORK/batches" end
  mkdir -p "$batches"
  for ((i = 0; i < n; i++)); do
    ip netns add "$(ns "$(coord_of $i)")"
    printf 'link set lo up\naddr add %s/32 dev lo\n' "$(addr $i)" > "$batches/ip-$i"
    : > "$batches/tc-$i"
  done
  while read -r i j; do
    printf 'link add t%s-%s type veth peer name t%s-%s\n' "$i" "$j" "$j" "$i"
    printf 'link set t%s-%s netns %s\n' "$i" "$j" "$(ns "$(coord_of $i)")"
    printf 'link set t%s-%s netns %s\n' "$j" "$i" "$(ns "$(coord_of $j)")"
    for end in "$i $j" "$j $i"; do
      set -- $end
      printf 'link set t%s-%s up\nroute add %s/32 dev t%s-%s src %s\n' "$1" "$2" "$(addr $2)" "$1" "$2" \
          "$(addr $1)" >> "$batches/ip-$1"
      if [ "$mbps" -gt 0 ]; then
        printf 'qdisc add dev t%s-%s root tbf rate %smbit burst 64kb latency 400ms\n' "$1" "$2" "$mbps" \
            >> "$batches/tc-$1"
      fi
    done
  done < <(links) > "$batches/ip-root"
  [ ! -s "$batches/ip-root" ] || ip -batch "$batches/ip-root"
  for ((i = 0; i < n; i++)); do
    ip -n "$(ns "$(coord_of $i)")" -batch "$batches/ip-$i"
    [ ! -s "$batches/tc-$i" ] || tc -n "$(ns "$(coord_of $i)")" -batch "$batches/tc-$i"
  done
  echo "$mbps" > "$WORK/link-mbps"
  if [ -z "$HADOOP_DIST" ]; then
    daemons start
    return
  fi
  [[ "$nms" =~ ^[0-9]+$ ]] || die "--nodemanagers must be a number, not $nms"
  hadoop_up "$mbps" "$nms"
  # The servers without a NodeManager run standalone, forwarding-only daemons.
  { for ((i = 0; i < n; i++)); do c=$(coord_of $i); echo "${c//_/,}"; done; } \
      | grep -vxF -f "$WORK/nodemanager-servers" > "$WORK/daemon-servers" || true
  CAMDOOP_SERVERS="$WORK/daemon-servers" daemons start
  hadoop_await 180
  await_links 120
}

# Waits (up to SECONDS) until every daemon is up with every link.
await_links() {
  local t
  for ((t = 0; t < $1 * 2; t++)); do
    if daemons check > "$WORK/check.out" 2>&1; then
      echo "camdoop-testbed: every daemon and link is up"; return 0
    fi
    sleep 0.5
  done
  cat "$WORK/check.out" >&2
  die "not every daemon and link came up within $1 s"
}

down() {
  load_shape
  if [ -f "$WORK/daemon-servers" ]; then CAMDOOP_SERVERS="$WORK/daemon-servers" daemons stop || true; else daemons stop || true; fi
  hadoop_down
  local n=$((A * B * C)) i
  for ((i = 0; i < n; i++)); do
    ip netns pids "$(ns "$(coord_of $i)")" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$(ns "$(coord_of $i)")" 2>/dev/null || true   # its veth ends, and so both ends of each pair, go too
    rm -rf "/etc/netns/$(ns "$(coord_of $i)")"
  done
  rm -rf "$WORK"
  echo "camdoop-testbed: down"
}

case "$cmd" in
  up) up "$@" ;;
  down) down ;;
  check) load_shape; daemons check ;;
  run) load_shape; hadoop_run "$@" ;;
  kill)
    load_shape; [ $# -eq 1 ] || usage
    pid_file="$WORK/pids/camdoop-testbed-${1//,/_}-daemon.pid"
    [ -f "$pid_file" ] || die "no daemon of server $1 in this testbed"
    kill -9 "$(cat "$pid_file")" && echo "camdoop-testbed: killed the daemon of $1" ;;
  start)
    load_shape; [ $# -eq 1 ] || usage
    grep -q "^$1 " "$WORK/topology" || die "no server $1 in this testbed"
    ! grep -qxF "$1" "$WORK/nodemanager-servers" 2>/dev/null \
        || die "the daemon of $1 runs inside its NodeManager: restart the NodeManager instead"
    echo "$1" > "$WORK/start-servers"
    CAMDOOP_SERVERS="$WORK/start-servers" daemons start
    echo "camdoop-testbed: started the daemon of $1" ;;
  cut)
    load_shape; [ $# -eq 2 ] || usage
    IFS=, read -r x1 y1 z1 <<<"$1"; IFS=, read -r x2 y2 z2 <<<"$2"
    i=$(idx "$x1" "$y1" "$z1"); j=$(idx "$x2" "$y2" "$z2")
    ip netns exec "$(ns "${1//,/_}")" ip link show "t$i-$j" >/dev/null 2>&1 || die "$1 and $2 are not torus neighbours"
    ip netns exec "$(ns "${1//,/_}")" ip link set "t$i-$j" down
    echo "camdoop-testbed: cut the link between $1 and $2" ;;
  *) usage ;;
esac
