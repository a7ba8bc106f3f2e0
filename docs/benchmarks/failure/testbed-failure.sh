#!/usr/bin/env bash
# Figure 9 with kill -9 on the testbed (docs/recovery.md, "On the testbed"): wordcount through Camdoop with one reduce
# on the testbed cluster. The shuffle is timed from the root daemon's "starting shuffle" log line to the job's end
# (S); first without a fault (S and the job time T: medians of RUNS jobs), then with the daemon of a forwarding-only
# server killed (kill -9) at 0.25, 0.5 and 0.75 of S after its shuffle started: a random one (neither the root nor a
# neighbour of it, as in the paper), and a neighbour of the
# shuffle's root (the reduce's server). After each faulted job the killed daemon is started again and rejoins the torus
# before the next job. Every output must equal the first fault-free one. Prints one line per job, with the shuffle's
# stretch (its time over S) and the job's (over T).
#
#   docs/benchmarks/failure/testbed-failure.sh HOME [RUNS] [MB] [VOCABULARY]
#
# HOME: an unpacked distribution whose testbed is up with Hadoop (sbin/camdoop-testbed.sh up --hadoop ...; a short
# --failure-timeout-ms keeps the detection a small part of the shuffle), CAMDOOP_TESTBED_DIR set as for it. RUNS:
# fault-free jobs (3). MB: corpus size in MiB (16), nine files. VOCABULARY: distinct words the corpus draws from,
# uniformly (1000000000: nearly every word once, so the combiner hardly shrinks anything: the paper's S=1, the case
# where a failure costs most; 20000 makes the shuffle a second or two). Needs root, like the testbed.
set -euo pipefail
HOME_DIR="$1"; RUNS="${2:-3}"; MB="${3:-16}"; VOCAB="${4:-1000000000}"
TB="$HOME_DIR/sbin/camdoop-testbed.sh"
WORK="${CAMDOOP_TESTBED_DIR:-/tmp/camdoop-testbed}"
OUT="$(mktemp -d /tmp/camdoop-fig9-XXXX)"
chmod 755 "$OUT"
[ -f "$WORK/daemon-servers" ] || { echo "no testbed with Hadoop is up in $WORK" >&2; exit 1; }
mapfile -t forwarding < "$WORK/daemon-servers"
read -r A B C < <(awk '$1 == "shape" { split($2, s, "x"); print s[1], s[2], s[3] }' "$WORK/topology")

mkdir -p "$OUT/in"
for i in $(seq 1 9); do
  awk -v seed="$i" -v bytes=$((MB * 1024 * 1024 / 9)) -v vocab="$VOCAB" 'BEGIN { srand(seed); n = 0
    while (n < bytes) { w = "w" int(vocab * rand()); printf "%s ", w; n += length(w) + 1
      if (rand() < 0.1) { printf "\n"; n++ } } }' > "$OUT/in/part-$i.txt"
done
chmod -R a+rX "$OUT"

now() { date +%s.%N; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# The forwarding-only neighbours of server $1 (x,y,z) on the torus.
neighbours() {
  local x y z d
  IFS=, read -r x y z <<<"$1"
  for d in "$(((x + 1) % A)),$y,$z" "$(((x + A - 1) % A)),$y,$z" "$x,$(((y + 1) % B)),$z" "$x,$(((y + B - 1) % B)),$z" \
      "$x,$y,$(((z + 1) % C))" "$x,$y,$(((z + C - 1) % C))"; do
    printf '%s\n' "${forwarding[@]}" | grep -qxF "$d" && echo "$d"
  done | sort -u
}

# job OUTDIR [VICTIM_KIND FRACTION S]: runs wordcount; sets JOB_S (job seconds), SHUFFLE_S (seconds from the shuffle's
# start to the job's end), ROOT and VICTIM (the server killed, if any).
job() {
  local dir="$1" kind="${2:-}" frac="${3:-}" s="${4:-}" start id="" line="" t0="" pid
  start=$(now); VICTIM=""; ROOT=""
  "$TB" run -- wordcount -Dmapreduce.job.reduces=1 "$OUT/in" "$dir" > "$dir.log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null && [ -z "$line" ]; do
    [ -n "$id" ] || id=$(grep -ao "Running job: job_[0-9_]*" "$dir.log" | head -1 | cut -d' ' -f3 || true)
    [ -z "$id" ] || line=$(cat "$WORK"/logs/*.log | grep -a "starting shuffle $id partition 0 attempt 0" | head -1 || true)
    [ -n "$line" ] && t0=$(now) || sleep 0.1
  done
  [ -n "$line" ] || { wait "$pid" || true; cat "$dir.log" >&2; echo "no shuffle of $id started" >&2; exit 1; }
  ROOT=$(sed 's/.*-> root \([0-9,]*\).*/\1/' <<<"$line")
  if [ -n "$kind" ]; then
    if [ "$kind" = neighbour ]; then
      mapfile -t pick < <(neighbours "$ROOT")
    else
      # The paper's random server is neither the root nor one of its neighbours.
      mapfile -t pick < <(printf '%s\n' "${forwarding[@]}" | grep -vxF -e "$ROOT" $(neighbours "$ROOT" | sed 's/^/-e /'))
    fi
    [ "${#pick[@]}" -gt 0 ] || { echo "no forwarding-only $kind of root $ROOT" >&2; wait "$pid"; return 1; }
    VICTIM="${pick[RANDOM % ${#pick[@]}]}"
    sleep "$(awk -v s="$s" -v f="$frac" -v a="$t0" -v b="$(now)" 'BEGIN { d = s * f - (b - a); print (d > 0 ? d : 0) }')"
    "$TB" kill "$VICTIM" > /dev/null
  fi
  wait "$pid" || { cat "$dir.log" >&2; exit 1; }
  local end; end=$(now)
  JOB_S=$(minus "$end" "$start"); SHUFFLE_S=$(minus "$end" "$t0")
  cmp -s "$OUT/base-1/part-r-00000" "$dir/part-r-00000" || { echo "$dir differs from the first output" >&2; exit 1; }
}

jobs_t=(); shuffles=()
for r in $(seq 1 "$RUNS"); do
  job "$OUT/base-$r"
  echo "no fault, run $r: job ${JOB_S} s, shuffle ${SHUFFLE_S} s (root $ROOT)"
  jobs_t+=("$JOB_S"); shuffles+=("$SHUFFLE_S")
done
T=$(median "${jobs_t[@]}"); S=$(median "${shuffles[@]}")
echo "medians of $RUNS: job T = $T s, shuffle S = $S s"

for kind in random neighbour; do
  for at in 0.25 0.5 0.75; do
    job "$OUT/$kind-$at" "$kind" "$at" "$S" || continue
    stock=$(grep -ao "Reduce attempts on the stock shuffle=[0-9]*" "$OUT/$kind-$at.log" | cut -d= -f2 || true)
    echo "$kind: kill -9 of $VICTIM (root $ROOT) at ${at}S: shuffle ${SHUFFLE_S} s, stretch $(ratio "$SHUFFLE_S" "$S");" \
        "job ${JOB_S} s, stretch $(ratio "$JOB_S" "$T"); output identical; reduce attempts on the stock shuffle:" \
        "${stock:-0}"
    "$TB" start "$VICTIM" > /dev/null
    for _ in $(seq 1 120); do "$TB" check > /dev/null 2>&1 && break; sleep 0.5; done
    sleep 2 # the rejoin floods one hop at a time; every daemon had it back within about 2 s (TestbedClusterTest)
  done
done
rm -rf "$OUT"
