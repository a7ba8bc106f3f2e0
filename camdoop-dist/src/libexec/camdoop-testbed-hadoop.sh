# Sourced by sbin/camdoop-testbed.sh: the testbed's Hadoop cluster. Needs WORK, HOME_DIR, A, B, C and the functions
# coord_of, ns, addr and die of camdoop-testbed.sh.
#
# The cluster, as the paper's testbed had it beside the torus:
# - a switch: a Linux bridge in namespace camdoop-switch; every Hadoop host has one port on it, a veth pair "sw" (in
#   the host) / "pN" (on the bridge), both ends shaped with tbf to the torus links' rate, so each host has one link of
#   that rate to the switch each way;
# - a master host, namespace camdoop-master (10.78.255.254, host name "master"): ResourceManager, JobHistory server, and
#   the job client (`testbed run`);
# - NodeManager hosts, the torus servers listed in $WORK/nodemanagers: each NodeManager in its server's namespace
#   (10.78.H.L, host name "node-x-y-z") with CamdoopShuffleHandler as mapreduce_shuffle, so that server's Camdoop daemon
#   runs in its NodeManager; the other servers run standalone forwarding-only daemons;
# - one file system every host sees: the default file system is file:/// and jobs use paths on this machine's disk.
#   The namespaces share one mount namespace, so this is a shared directory (as NFS would be on a real cluster); HDFS
#   would add a NameNode and a DataNode per host (memory the 2-core machine needs for tasks) and replication traffic
#   on the switch, and the shuffle never touches the DFS.
# Each Hadoop process runs in its host's namespace and its own UTS namespace named after the host, with an /etc/hosts
# of every Hadoop host (ip netns exec mounts /etc/netns/NS/hosts over /etc/hosts) and no DNS server, so every host
# resolves every name as a cluster's DNS would, without asking this machine's.

SWITCH_NS=camdoop-switch
MASTER_NS=camdoop-master
MASTER_ADDR=10.78.255.254
HADOOP_NS_LIST=()   # filled by hadoop_hosts

# Hadoop's own launcher opens java.base packages to its daemons on Java 17 and later (hadoop-functions.sh,
# hadoop_finalize_jpms_opts); the testbed starts each daemon's JVM itself, so it passes those it needs. Without java.lang
# opened the JobHistory server's Guice may fail to define a class, and the server exits (seen once, 2026-11-27).
HADOOP_JAVA_OPENS="--add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED \
--add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED \
--add-opens java.base/java.net=ALL-UNNAMED --add-opens java.base/java.io=ALL-UNNAMED \
--add-opens java.base/sun.nio.ch=ALL-UNNAMED"

hadoop_addr() { local n=$(($1 + 1)); echo "10.78.$((n / 256)).$((n % 256))"; }
host_name() { echo "node-${1//_/-}"; }   # $1: x_y_z

# The servers that run a NodeManager: K of them, spread over the torus (first by (x+y+z) mod 3, then by index), so
# that on 3x3x3 with K=9 every x,y column holds one.
pick_nodemanagers() {
  local k=$1 n=$((A * B * C)) i x y z
  for ((i = 0; i < n; i++)); do
    x=$((i % A)); y=$(((i / A) % B)); z=$((i / (A * B)))
    echo "$(((x + y + z) % 3)) $i"
  done | sort -n -k1,1 -k2,2 | head -n "$k" | awk '{ print $2 }' | sort -n
}

nodemanager_indexes() { cat "$WORK/nodemanagers"; }

# on_host NS HOSTNAME CMD...: runs CMD in host NS under its own host name.
on_host() {
  local netns="$1" name="$2"; shift 2
  ip netns exec "$netns" unshare --uts -- sh -c 'hostname "$0" && exec "$@"' "$name" "$@"
}

hadoop_classpath() { echo "$1:$HADOOP_DIST/lib/*"; }

camdoop_jar() { ls "$HOME_DIR"/share/camdoop/camdoop-hadoop-*.jar | head -n 1; }

java_home() { dirname "$(dirname "$(readlink -f "$(command -v java)")")"; }

# Writes Hadoop's configuration for host NAME into DIR; with COORD (x_y_z), a NodeManager host's, with camdoop-site.xml
# (the master's has none: its conf dir is on the tasks' class path, and the cluster secret is for daemons only).
write_hadoop_conf() {
  local dir="$1" name="$2" coord="${3:-}" jar
  jar="$(camdoop_jar)"
  mkdir -p "$dir"
  prop() { printf '  <property><name>%s</name><value>%s</value></property>\n' "$1" "$2"; }
  { echo "<configuration>"
    prop fs.defaultFS "file:///"
    prop hadoop.tmp.dir "$WORK/hosts/$name/tmp"
    echo "</configuration>"; } > "$dir/core-site.xml"
  { echo "<configuration>"
    prop yarn.resourcemanager.hostname master
    # FIFO: one queue, no capacity-scheduler.xml to ship; the testbed runs one job at a time.
    prop yarn.resourcemanager.scheduler.class org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler
    prop yarn.nodemanager.address '${yarn.nodemanager.hostname}:45454'
    prop yarn.nodemanager.local-dirs "$WORK/hosts/$name/nm-local"
    prop yarn.nodemanager.log-dirs "$WORK/hosts/$name/nm-logs"
    # Room for two 512 MB containers (or a 768 MB reduce): FIFO fills a node before the next, and a host's worth of
    # 2 GB would put every map of a small job on one or two hosts, where the paper runs maps on every server.
    prop yarn.nodemanager.resource.memory-mb 1280
    prop yarn.nodemanager.resource.cpu-vcores 2
    prop yarn.scheduler.minimum-allocation-mb 256
    prop yarn.nodemanager.vmem-check-enabled false
    prop yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage 99
    prop yarn.nodemanager.delete.debug-delay-sec 0
    # Containers are handed out on NodeManager heartbeats: every 250 ms, not Hadoop's default second, as the mini
    # cluster does. The testbed's jobs are short, and each phase (master, maps, reduces) waited up to a second.
    prop yarn.resourcemanager.nodemanagers.heartbeat-interval-ms 250
    # A dead NodeManager (testbed kill) is noticed in 20 s, not the default 10 minutes.
    prop yarn.nm.liveness-monitor.expiry-interval-ms 20000
    # ... and an ApplicationMaster stops trying to clean up its containers on a dead NodeManager after 20 s, not 3
    # minutes (it re-runs the lost maps only then).
    prop yarn.client.nodemanager-connect.max-wait-ms 20000
    prop yarn.application.classpath "$WORK/hadoop/conf,$HADOOP_DIST/lib/*"
    # docs/getting-started.md, step 4: Camdoop's subclass of ShuffleHandler as mapreduce_shuffle, from the jar.
    prop yarn.nodemanager.aux-services mapreduce_shuffle
    prop yarn.nodemanager.aux-services.mapreduce_shuffle.class org.camdoop.shuffle.daemon.CamdoopShuffleHandler
    prop yarn.nodemanager.aux-services.mapreduce_shuffle.classpath "$jar"
    echo "</configuration>"; } > "$dir/yarn-site.xml"
  { echo "<configuration>"
    prop mapreduce.framework.name yarn
    prop yarn.app.mapreduce.am.staging-dir "$WORK/fs/staging"
    prop mapreduce.jobhistory.address master:10020
    prop mapreduce.jobhistory.webapp.address master:19888
    prop mapreduce.jobhistory.intermediate-done-dir "$WORK/fs/history/intermediate"
    prop mapreduce.jobhistory.done-dir "$WORK/fs/history/done"
    # docs/getting-started.md, step 2: the jar on every host, on the tasks' class path.
    prop mapreduce.application.classpath "$WORK/hadoop/conf,$HADOOP_DIST/lib/*,$jar"
    prop yarn.app.mapreduce.am.resource.mb 512
    # The ApplicationMaster asks for containers and hears of finished ones every 250 ms, not every second.
    prop yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms 250
    # CAMDOOP_TESTBED_TASK_OPTS: more options for every task JVM (docs/testbed.md, JVM options).
    prop yarn.app.mapreduce.am.command-opts "-Xmx400m${CAMDOOP_TESTBED_TASK_OPTS:+ $CAMDOOP_TESTBED_TASK_OPTS}"
    prop mapreduce.map.memory.mb 512
    prop mapreduce.map.java.opts "-Xmx400m${CAMDOOP_TESTBED_TASK_OPTS:+ $CAMDOOP_TESTBED_TASK_OPTS}"
    prop mapreduce.reduce.memory.mb 768
    prop mapreduce.reduce.java.opts "-Xmx600m${CAMDOOP_TESTBED_TASK_OPTS:+ $CAMDOOP_TESTBED_TASK_OPTS}"
    echo "</configuration>"; } > "$dir/mapred-site.xml"
  if [ -n "$coord" ]; then
    # docs/getting-started.md, step 3: camdoop-site.xml next to yarn-site.xml, readable by the NodeManager only. The
    # daemon finds its coordinate itself: its torus address is on this host.
    { echo "<configuration>"
      prop camdoop.topology.file "$WORK/topology"
      prop camdoop.cluster.secret "$(sed -n 's:.*<name>camdoop.cluster.secret</name><value>\(.*\)</value>.*:\1:p' \
          "$WORK/conf/camdoop-site.xml")"
      prop camdoop.daemon.vertex.threads 1
      prop camdoop.transport.failure.timeout.ms "$(sed -n \
          's:.*<name>camdoop.transport.failure.timeout.ms</name><value>\(.*\)</value>.*:\1:p' "$WORK/conf/camdoop-site.xml")"
      prop camdoop.daemon.status-file "$WORK/pids/camdoop-testbed-$coord-daemon.status"
      echo "</configuration>"; } > "$dir/camdoop-site.xml"
    chmod 600 "$dir/camdoop-site.xml"
  fi
  cat > "$dir/log4j.properties" <<'LOG4J'
hadoop.root.logger=INFO,console
log4j.rootLogger=${hadoop.root.logger}
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n
log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
LOG4J
}

# /etc/hosts and an empty resolv.conf for namespace NS (ip netns exec mounts them over /etc's).
write_name_service() {
  local netns="$1" i c
  mkdir -p "/etc/netns/$netns"
  { echo "127.0.0.1 localhost"
    echo "$MASTER_ADDR master"
    while read -r i; do c=$(coord_of "$i"); echo "$(hadoop_addr "$i") $(host_name "$c")"; done < "$WORK/nodemanagers"
  } > "/etc/netns/$netns/hosts"
  echo "# camdoop testbed: names come from /etc/hosts only" > "/etc/netns/$netns/resolv.conf"
}

# Gives namespace NS a port on the switch: sw (address ADDR/16) there, PORT on the bridge, both shaped to MBPS.
switch_port() {
  local netns="$1" address="$2" port="$3" mbps="$4"
  ip link add "$port" type veth peer name "$port-h"
  ip link set "$port-h" netns "$netns"
  ip link set "$port" netns "$SWITCH_NS"
  ip netns exec "$netns" ip link set "$port-h" name sw
  ip netns exec "$netns" ip addr add "$address/16" dev sw
  ip netns exec "$netns" ip link set sw up
  ip netns exec "$SWITCH_NS" ip link set "$port" master br0
  ip netns exec "$SWITCH_NS" ip link set "$port" up
  if [ "$mbps" -gt 0 ]; then
    ip netns exec "$netns" tc qdisc add dev sw root tbf rate "${mbps}mbit" burst 64kb latency 400ms
    ip netns exec "$SWITCH_NS" tc qdisc add dev "$port" root tbf rate "${mbps}mbit" burst 64kb latency 400ms
  fi
}

# start_hadoop_process NS NAME CONF_DIR WHAT CLASS HEAP: one Hadoop daemon in the background, its pid in
# $WORK/pids/hadoop-NAME-WHAT.pid, its log in $WORK/logs/hadoop-NAME-WHAT.log.
start_hadoop_process() {
  local netns="$1" name="$2" conf="$3" what="$4" class="$5" heap="$6"
  local log="$WORK/logs/hadoop-$name-$what.log"
  mkdir -p "$WORK/hosts/$name/logs"
  local pidfile="$WORK/pids/hadoop-$name-$what.pid" t
  rm -f "$pidfile"
  # The JVM writes its own pid (the shell that execs it): ip netns exec and unshare may run it under another process,
  # and kill must reach the JVM itself.
  # shellcheck disable=SC2016,SC2086
  on_host "$netns" "$name" sh -c 'echo $$ > "$0" && exec "$@"' "$pidfile" \
      env JAVA_HOME="$(java_home)" HADOOP_CONF_DIR="$conf" \
      java "-Xmx$heap" -XX:+UseSerialGC $HADOOP_JAVA_OPENS -Dhadoop.log.dir="$WORK/hosts/$name/logs" \
      -Dyarn.log.dir="$WORK/hosts/$name/logs" ${CAMDOOP_TESTBED_HADOOP_OPTS:-} \
      -cp "$(hadoop_classpath "$conf")" "$class" > "$log" 2>&1 < /dev/null &
  for ((t = 0; t < 100; t++)); do
    [ -s "$pidfile" ] && return 0
    sleep 0.1
  done
  die "$name: $what did not start (no $pidfile after 10 s; see $log)"
}

hadoop_up() {
  local mbps="$1" nms="$2" i c name
  [ -d "$HADOOP_DIST/lib" ] && ls "$HADOOP_DIST"/examples/hadoop-mapreduce-examples-*.jar >/dev/null 2>&1 \
      || die "--hadoop $HADOOP_DIST has no lib/ and examples/hadoop-mapreduce-examples-*.jar (build camdoop-testbed)"
  [ "$nms" -ge 1 ] && [ "$nms" -le $((A * B * C)) ] || die "--nodemanagers must be 1 to $((A * B * C)), not $nms"
  echo "$HADOOP_DIST" > "$WORK/hadoop-dist"
  pick_nodemanagers "$nms" > "$WORK/nodemanagers"
  mkdir -p "$WORK/fs/staging" "$WORK/fs/history" "$WORK/hadoop"
  ip netns add "$SWITCH_NS"
  ip netns exec "$SWITCH_NS" ip link set lo up
  ip netns exec "$SWITCH_NS" ip link add br0 type bridge
  ip netns exec "$SWITCH_NS" ip link set br0 up
  ip netns add "$MASTER_NS"
  ip netns exec "$MASTER_NS" ip link set lo up
  switch_port "$MASTER_NS" "$MASTER_ADDR" pm "$mbps"
  write_name_service "$MASTER_NS"
  write_hadoop_conf "$WORK/hadoop/conf" master
  while read -r i; do
    c=$(coord_of "$i"); name=$(host_name "$c")
    switch_port "$(ns "$c")" "$(hadoop_addr "$i")" "p$i" "$mbps"
    write_name_service "$(ns "$c")"
    write_hadoop_conf "$WORK/hosts/$name/conf" "$name" "$c"
    echo "${c//_/,}"
  done < "$WORK/nodemanagers" > "$WORK/nodemanager-servers"
  echo "camdoop-testbed: a switch for the master and $nms NodeManager hosts at ${mbps} Mbit/s per port each way"
  start_hadoop_process "$MASTER_NS" master "$WORK/hadoop/conf" resourcemanager \
      org.apache.hadoop.yarn.server.resourcemanager.ResourceManager 512m
  start_hadoop_process "$MASTER_NS" master "$WORK/hadoop/conf" historyserver \
      org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer 320m
  while read -r i; do
    c=$(coord_of "$i"); name=$(host_name "$c")
    start_hadoop_process "$(ns "$c")" "$name" "$WORK/hosts/$name/conf" nodemanager \
        org.apache.hadoop.yarn.server.nodemanager.NodeManager 384m
    # camdoop-daemons.sh status and check look for the daemon's pid here: it is the NodeManager's.
    cp "$WORK/pids/hadoop-$name-nodemanager.pid" "$WORK/pids/camdoop-testbed-$c-daemon.pid"
  done < "$WORK/nodemanagers"
}

# Waits (up to SECONDS) until every NodeManager has registered with the ResourceManager.
hadoop_await() {
  local seconds="$1" want registered=0 t
  want=$(wc -l < "$WORK/nodemanagers")
  for ((t = 0; t < seconds * 2; t++)); do
    registered=$(ip netns exec "$MASTER_NS" curl -s --max-time 2 "http://$MASTER_ADDR:8088/ws/v1/cluster/metrics" \
        | sed -n 's/.*"activeNodes":\([0-9]*\).*/\1/p' || true)
    [ "${registered:-0}" -lt "$want" ] || { echo "camdoop-testbed: $want NodeManagers registered"; return 0; }
    for pid in "$WORK"/pids/hadoop-*.pid; do
      kill -0 "$(cat "$pid")" 2>/dev/null || { tail -n 30 "$WORK/logs/$(basename "$pid" .pid).log" >&2; die "$(basename "$pid" .pid) exited"; }
    done
    sleep 0.5
  done
  die "only ${registered:-0} of $want NodeManagers registered within ${seconds}s (logs in $WORK/logs)"
}

# testbed run [--stock] -- PROGRAM ARGS...: the unmodified examples jar, as `hadoop jar` runs it, from the master.
hadoop_run() {
  local stock=0
  while [ $# -gt 0 ]; do
    case "$1" in
      --stock) stock=1 ;;
      --) shift; break ;;
      *) break ;;
    esac
    shift
  done
  [ $# -ge 1 ] || die "run: say which program, e.g. run -- wordcount IN OUT"
  [ -f "$WORK/hadoop-dist" ] || die "this testbed has no Hadoop (up --hadoop DIR)"
  HADOOP_DIST="$(cat "$WORK/hadoop-dist")"
  local program="$1"; shift
  local examples
  examples="$(ls "$HADOOP_DIST"/examples/hadoop-mapreduce-examples-*.jar | head -n 1)"
  local keys=()
  if [ "$stock" -eq 0 ]; then
    # docs/getting-started.md, step 5: the two job keys.
    keys=(-Dmapreduce.job.map.output.collector.class=org.camdoop.shuffle.hadoop.CamdoopMapOutputCollector
          -Dmapreduce.job.reduce.shuffle.consumer.plugin.class=org.camdoop.shuffle.hadoop.CamdoopShuffle)
  fi
  # shellcheck disable=SC2086
  on_host "$MASTER_NS" master env JAVA_HOME="$(java_home)" HADOOP_CONF_DIR="$WORK/hadoop/conf" \
      java -Xmx512m -Dhadoop.log.dir="$WORK/hosts/master/logs" ${CAMDOOP_TESTBED_HADOOP_OPTS:-} \
      -cp "$(hadoop_classpath "$WORK/hadoop/conf")" org.apache.hadoop.util.RunJar "$examples" "$program" \
      "${keys[@]}" "$@"
}

hadoop_down() {
  local netns
  for netns in "$MASTER_NS" "$SWITCH_NS"; do
    ip netns pids "$netns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$netns" 2>/dev/null || true
    rm -rf "/etc/netns/$netns"
  done
}
