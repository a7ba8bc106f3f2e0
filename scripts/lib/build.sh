# Sourced by scripts/camdoop (needs ROOT set): builds a module's run-time class path on
# first use, and again when any source or build file changed since its last build.

# camdoop_build MODULE WHAT [PRODUCT]: runs `mvn package -pl MODULE -am` (tests skipped) unless MODULE's last build is
# newer than every pom and source of the camdoop-* modules and PRODUCT (default: target/lib, where MODULE copies its
# run-time dependencies) exists.
camdoop_build() {
  local module="$1" what="$2" product="${3:-target/lib}"
  local stamp="$ROOT/$module/target/camdoop-build.stamp"
  if [ -f "$stamp" ] && [ -e "$ROOT/$module/$product" ] \
      && [ -z "$(find "$ROOT"/pom.xml "$ROOT"/camdoop-*/pom.xml "$ROOT"/camdoop-*/src -newer "$stamp" -type f 2>/dev/null | head -n 1)" ]; then
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || { echo "camdoop: Maven (mvn) is needed to build $what; install it first" >&2; exit 1; }
  echo "camdoop: building $what (mvn package, tests skipped)..." >&2
  local log
  log="$(mktemp -t camdoop-build.XXXXXX)"
  # Stamped when the build starts: a source edited while it runs makes the next use build again.
  mkdir -p "$ROOT/$module/target"
  touch "$stamp.new"
  if ! (cd "$ROOT" && mvn -B -DskipTests package -pl "$module" -am) >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "camdoop: the build failed; full log in $log" >&2
    rm -f "$stamp.new"
    exit 1
  fi
  mv "$stamp.new" "$stamp"
  rm -f "$log"
}
