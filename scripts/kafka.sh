#!/usr/bin/env bash
# scripts/kafka.sh - a real single-node Apache Kafka (KRaft, combined broker+controller) on
# 127.0.0.1, run from Maven Central jars. Needs Java 17+ and (for the first download) Maven.
#
# Usage:
#   bash scripts/kafka.sh start                  start (idempotent); returns when the broker answers
#   bash scripts/kafka.sh stop [--wipe]          SIGTERM, 30 s, then SIGKILL (idempotent); --wipe deletes data
#   bash scripts/kafka.sh status                 running/stopped + version + port (exit 0 running, 3 stopped)
#   bash scripts/kafka.sh classpath              print the classpath (<libs>/*), downloading jars if needed
#   bash scripts/kafka.sh run-class <Main> [args...]   run a Java main with that classpath, quiet logging
#   bash scripts/kafka.sh consumer-groups [args...]    ConsumerGroupCommand (adds --bootstrap-server if absent)
#   bash scripts/kafka.sh topics [args...]             TopicCommand (adds --bootstrap-server if absent)
#
# Environment:
#   KAFKA_VERSION          Kafka version (default: the version last started on this port, else 4.4.0).
#                          Verified: 4.4.0, 4.3.1, 3.9.2, 3.9.1, 3.9.0 (3.9.x logs via reload4j).
#   KAFKA_PORT             PLAINTEXT listener on 127.0.0.1 (default 9092)
#   KAFKA_CONTROLLER_PORT  KRaft controller listener (default KAFKA_PORT+1)
#   KAFKA_HEAP_OPTS        broker heap (default "-Xmx512m -Xms256m")
#   KAFKA_JVM_OPTS         extra broker JVM options
#   KAFKA_TOOL_OPTS        JVM options for run-class (default "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1")
#   KAFKA_EXTRA_PROPS      extra broker properties, key=value, one per line (appended last, win); without
#                          any newline, commas separate entries (so values holding commas need newlines)
#   KAFKA_START_TIMEOUT    seconds to wait for the broker to answer (default 90)
#   KAFKA_WIPE=1           stop: like --wipe; start: delete the data dir first (e.g. after a version change)
#   GROUPWATCH_CACHE_DIR   jar cache root (default $HOME/.cache/groupwatch)
#   GROUPWATCH_KAFKA_HOME  state root (default $HOME/.cache/groupwatch/run)
#
# Paths:
#   jars:   ${GROUPWATCH_CACHE_DIR:-$HOME/.cache/groupwatch}/kafka/<version>/libs/   (+ .complete marker;
#           once complete, starts are offline and need no mvn; jars come via ~/.m2)
#   state:  ${GROUPWATCH_KAFKA_HOME:-$HOME/.cache/groupwatch/run}/kafka-<port>/
#             data/               log.dirs (KRaft metadata + topic data)
#             logs/server.log     broker log (INFO, includes GroupCoordinator rebalance lines)
#             logs/stdout.log     JVM stdout/stderr
#             pid                 broker pid
#             version             Kafka version that formatted/last ran data/
#             server.properties   rendered from scripts/kafka/server.properties.template
#
# Exit codes: 0 ok, 1 failure (broker died / timeout / port busy / version mismatch), 2 missing or
# too old prerequisite (java, mvn) or usage error, 3 status: stopped.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CONF_DIR="$SCRIPT_DIR/kafka"
DEFAULT_KAFKA_VERSION="4.4.0"

KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}"
CACHE_ROOT="${GROUPWATCH_CACHE_DIR:-$HOME/.cache/groupwatch}"
RUN_ROOT="${GROUPWATCH_KAFKA_HOME:-$HOME/.cache/groupwatch/run}"
STATE_DIR="$RUN_ROOT/kafka-$KAFKA_PORT"
DATA_DIR="$STATE_DIR/data"
LOG_DIR="$STATE_DIR/logs"
PID_FILE="$STATE_DIR/pid"
VERSION_FILE="$STATE_DIR/version"
PROPS_FILE="$STATE_DIR/server.properties"
START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"

log() { printf 'kafka.sh: %s\n' "$*" >&2; }
die() {
  local code="$1"
  shift
  printf 'kafka.sh: error: %s\n' "$*" >&2
  exit "$code"
}

usage() { # $1 = exit code (0: to stdout, else to stderr)
  local code="${1:-2}"
  if ((code == 0)); then
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
  else
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&2
  fi
  exit "$code"
}

# ---------------------------------------------------------------- prerequisites

JAVA_BIN=""
find_java() {
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
    JAVA_BIN="$JAVA_HOME/bin/java"
  elif command -v java >/dev/null 2>&1; then
    JAVA_BIN="$(command -v java)"
  else
    die 2 "java not found (Java 17+ needed). Install: apt-get install -y openjdk-17-jre-headless maven"
  fi
  local line major
  line="$("$JAVA_BIN" -version 2>&1 | head -n 1 || true)"
  # openjdk version "17.0.15" 2025-04-15  |  java version "1.8.0_382"
  major="$(sed -n 's/^[^"]*"\([0-9][0-9]*\)\.\{0,1\}\([0-9]*\).*/\1 \2/p' <<<"$line")"
  if [[ "$major" == 1\ * ]]; then major="${major#1 }"; else major="${major%% *}"; fi
  if [[ -z "$major" || ! "$major" =~ ^[0-9]+$ ]]; then
    die 2 "cannot read the Java version from '$line' ($JAVA_BIN). Java 17+ needed: apt-get install -y openjdk-17-jre-headless maven"
  fi
  if ((major < 17)); then
    die 2 "Java $major at $JAVA_BIN is too old: Kafka needs Java 17+. Install: apt-get install -y openjdk-17-jre-headless maven (and set JAVA_HOME)"
  fi
}

need_mvn() {
  command -v mvn >/dev/null 2>&1 ||
    die 2 "mvn not found (needed once to download the Kafka $KAFKA_VERSION jars). Install: apt-get install -y openjdk-17-jre-headless maven"
}

# ---------------------------------------------------------------- version and jars

KAFKA_VERSION="${KAFKA_VERSION:-}"
VERSION_EXPLICIT=0
resolve_version() {
  if [[ -n "$KAFKA_VERSION" ]]; then
    VERSION_EXPLICIT=1
  elif [[ -s "$VERSION_FILE" ]]; then
    KAFKA_VERSION="$(<"$VERSION_FILE")"
  else
    KAFKA_VERSION="$DEFAULT_KAFKA_VERSION"
  fi
  [[ "$KAFKA_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die 2 "bad KAFKA_VERSION '$KAFKA_VERSION' (want e.g. 4.4.0)"
  KAFKA_MAJOR="${KAFKA_VERSION%%.*}"
  ((KAFKA_MAJOR >= 3)) || die 2 "KAFKA_VERSION $KAFKA_VERSION: only 3.9.x and 4.x are supported"
  LIBS_DIR="$CACHE_ROOT/kafka/$KAFKA_VERSION/libs"
  if ((KAFKA_MAJOR >= 4)); then
    LOGGING=log4j2
  else
    LOGGING=reload4j
  fi
}

libs_stamp() {
  # Changes when the pom changes, so the cache is refreshed after an edit of pom.xml.
  printf '%s %s %s\n' "$KAFKA_VERSION" "$LOGGING" "$(sha256sum "$CONF_DIR/pom.xml" | cut -d' ' -f1)"
}

ensure_libs() {
  local marker="$LIBS_DIR/.complete" stamp
  stamp="$(libs_stamp)"
  if [[ -f "$marker" && "$(<"$marker")" == "$stamp" ]]; then return 0; fi
  need_mvn
  local vdir="$CACHE_ROOT/kafka/$KAFKA_VERSION"
  mkdir -p "$vdir"
  (
    exec 8>"$vdir/.lock"
    flock -w 600 8 || die 1 "timed out waiting for another download of Kafka $KAFKA_VERSION"
    if [[ -f "$marker" && "$(<"$marker")" == "$stamp" ]]; then exit 0; fi
    local tmp="$vdir/libs.tmp.$$"
    rm -rf "$tmp"
    log "downloading Kafka $KAFKA_VERSION jars with Maven into $LIBS_DIR (once) ..."
    # Output goes to a log (mvn -q still prints colour codes on stdout; keep stdout clean for `classpath`).
    if ! mvn -B -q -Dstyle.color=never -f "$CONF_DIR/pom.xml" dependency:copy-dependencies \
      -Dkafka.version="$KAFKA_VERSION" -Dkafka.logging="$LOGGING" \
      -DoutputDirectory="$tmp" >"$vdir/mvn.log" 2>&1 8>&-; then
      rm -rf "$tmp"
      tail -n 30 "$vdir/mvn.log" >&2
      die 1 "mvn could not fetch org.apache.kafka:kafka_2.13:$KAFKA_VERSION (is the version served by Maven Central? full log: $vdir/mvn.log)"
    fi
    [[ -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" && -f "$tmp/kafka-tools-$KAFKA_VERSION.jar" ]] ||
      die 1 "mvn finished but kafka jars are missing in $tmp"
    printf '%s\n' "$stamp" >"$tmp/.complete"
    rm -rf "$LIBS_DIR"
    mv "$tmp" "$LIBS_DIR"
    log "cached $(find "$LIBS_DIR" -name '*.jar' | wc -l) jars in $LIBS_DIR"
  )
}

log_config() { # $1 = broker|tools
  if [[ "$LOGGING" == log4j2 ]]; then
    printf '%s\n' "-Dlog4j2.configurationFile=$CONF_DIR/log4j2-$1.properties"
  else
    printf '%s\n' "-Dlog4j.configuration=file:$CONF_DIR/log4j-$1.properties"
  fi
}

# ---------------------------------------------------------------- process helpers

pid_is_broker() { # $1 = pid; true if it is the broker of this state dir
  local pid="$1" cmd
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [[ -r "/proc/$pid/cmdline" ]] || return 1
  cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)"
  [[ "$cmd" == *kafka.Kafka* && "$cmd" == *"$PROPS_FILE"* ]]
}

# Prints the broker pid if running (pid file, else a scan of /proc for our server.properties).
broker_pid() {
  local pid=""
  if [[ -s "$PID_FILE" ]]; then
    pid="$(<"$PID_FILE")"
    if pid_is_broker "$pid"; then
      printf '%s\n' "$pid"
      return 0
    fi
  fi
  local f p
  for f in /proc/[0-9]*/cmdline; do
    p="${f#/proc/}"
    p="${p%/cmdline}"
    if pid_is_broker "$p"; then
      printf '%s\n' "$p"
      return 0
    fi
  done
  return 1
}

port_open() { # $1 = port
  (exec 3<>"/dev/tcp/127.0.0.1/$1") >/dev/null 2>&1
}

TOOL_ARGV=()
tool_argv() { # $1 = main class, rest = args; sets TOOL_ARGV (quiet logging, tool JVM options)
  local main="$1"
  shift
  local -a opts
  read -r -a opts <<<"${KAFKA_TOOL_OPTS:--Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1}"
  TOOL_ARGV=("$JAVA_BIN" "${opts[@]}" "$(log_config tools)" -cp "$LIBS_DIR/*" "$main" "$@")
}

java_tool() { # exec a tool: $1 = main class, rest = args
  tool_argv "$@"
  exec "${TOOL_ARGV[@]}"
}

show_log_tail() {
  local f
  for f in "$LOG_DIR/server.log" "$LOG_DIR/stdout.log"; do
    if [[ -s "$f" ]]; then
      printf -- '----- last 40 lines of %s -----\n' "$f" >&2
      tail -n 40 "$f" >&2
    fi
  done
}

# Waits until the broker process answers a real Admin request, or fails.
wait_ready() { # $1 = pid
  local pid="$1" deadline now left
  deadline=$((SECONDS + START_TIMEOUT))
  while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
      show_log_tail
      die 1 "Kafka $KAFKA_VERSION (pid $pid) died during startup; see $LOG_DIR/server.log"
    fi
    if port_open "$KAFKA_PORT"; then
      now=$SECONDS
      left=$((deadline - now))
      ((left > 5)) || left=5
      tool_argv org.apache.kafka.tools.TopicCommand --bootstrap-server "127.0.0.1:$KAFKA_PORT" --list
      if timeout "$left" "${TOOL_ARGV[@]}" >/dev/null 2>"$LOG_DIR/probe.log"; then
        return 0
      fi
    fi
    if ((SECONDS >= deadline)); then
      show_log_tail
      [[ -s "$LOG_DIR/probe.log" ]] && { echo '----- probe -----' >&2; tail -n 10 "$LOG_DIR/probe.log" >&2; }
      die 1 "Kafka $KAFKA_VERSION (pid $pid) did not answer on 127.0.0.1:$KAFKA_PORT within ${START_TIMEOUT}s (KAFKA_START_TIMEOUT); it is left running, stop it with: bash scripts/kafka.sh stop"
    fi
    sleep 0.5
  done
}

# ---------------------------------------------------------------- server.properties

render_props() {
  local tmp="$PROPS_FILE.tmp"
  sed -e "s|@PORT@|$KAFKA_PORT|g" -e "s|@CONTROLLER_PORT@|$KAFKA_CONTROLLER_PORT|g" \
    -e "s|@DATA_DIR@|$DATA_DIR|g" "$CONF_DIR/server.properties.template" >"$tmp"
  {
    echo
    echo "# ---- added by scripts/kafka.sh for Kafka $KAFKA_VERSION"
    # Dynamic KRaft quorum of one (formatted with --standalone; works on 3.9 and 4.x).
    echo "controller.quorum.bootstrap.servers=127.0.0.1:$KAFKA_CONTROLLER_PORT"
    if ((KAFKA_MAJOR >= 4)); then
      # Consumer-protocol (KIP-848) groups: min values first, each <= its default,
      # heartbeat < session timeout.
      echo "group.consumer.min.session.timeout.ms=1000"
      echo "group.consumer.session.timeout.ms=6000"
      echo "group.consumer.min.heartbeat.interval.ms=500"
      echo "group.consumer.heartbeat.interval.ms=1000"
      echo "share.coordinator.state.topic.num.partitions=3"
      echo "share.coordinator.state.topic.replication.factor=1"
      echo "share.coordinator.state.topic.min.isr=1"
    fi
    if [[ -n "${KAFKA_EXTRA_PROPS:-}" ]]; then
      echo "# ---- KAFKA_EXTRA_PROPS"
      local kv
      while IFS= read -r kv; do
        kv="${kv#"${kv%%[![:space:]]*}"}"
        kv="${kv%"${kv##*[![:space:]]}"}"
        [[ -z "$kv" ]] && continue
        [[ "$kv" == *=* ]] || die 2 "KAFKA_EXTRA_PROPS entry '$kv' is not key=value"
        printf '%s\n' "$kv"
      done < <(if [[ "$KAFKA_EXTRA_PROPS" == *$'\n'* ]]; then printf '%s\n' "$KAFKA_EXTRA_PROPS"; else tr ',' '\n' <<<"$KAFKA_EXTRA_PROPS"; fi)
    fi
  } >>"$tmp"
  mv "$tmp" "$PROPS_FILE"
}

# ---------------------------------------------------------------- commands

cmd_start() {
  find_java
  resolve_version
  mkdir -p "$STATE_DIR" "$LOG_DIR"
  exec 9>"$STATE_DIR/.lock"
  flock -w "$((START_TIMEOUT + 30))" 9 || die 1 "another start on port $KAFKA_PORT holds $STATE_DIR/.lock"

  local pid running_version
  if pid="$(broker_pid)"; then
    running_version="$(cat "$VERSION_FILE" 2>/dev/null || echo "$KAFKA_VERSION")"
    if ((VERSION_EXPLICIT)) && [[ "$running_version" != "$KAFKA_VERSION" ]]; then
      die 1 "Kafka $running_version is already running on 127.0.0.1:$KAFKA_PORT (pid $pid), not $KAFKA_VERSION; stop it first: bash scripts/kafka.sh stop"
    fi
    KAFKA_VERSION="$running_version"
    resolve_version
    ensure_libs
    wait_ready "$pid"
    echo "Kafka $KAFKA_VERSION already running on 127.0.0.1:$KAFKA_PORT (pid $pid, state $STATE_DIR)"
    return 0
  fi

  local p
  for p in "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"; do
    if port_open "$p"; then
      die 1 "port 127.0.0.1:$p is already in use by another process (set KAFKA_PORT / KAFKA_CONTROLLER_PORT)"
    fi
  done

  if [[ "${KAFKA_WIPE:-0}" == 1 ]]; then
    log "KAFKA_WIPE=1: deleting $DATA_DIR"
    rm -rf "$DATA_DIR" "$VERSION_FILE"
  fi
  if [[ -s "$VERSION_FILE" && -d "$DATA_DIR" ]] && [[ "$(<"$VERSION_FILE")" != "$KAFKA_VERSION" ]]; then
    die 1 "$DATA_DIR was formatted by Kafka $(<"$VERSION_FILE"), not $KAFKA_VERSION; wipe it first: bash scripts/kafka.sh stop --wipe (or KAFKA_WIPE=1)"
  fi

  ensure_libs
  render_props

  if [[ ! -f "$DATA_DIR/meta.properties" ]]; then
    local cluster_id
    mkdir -p "$DATA_DIR"
    tool_argv kafka.tools.StorageTool random-uuid
    cluster_id="$("${TOOL_ARGV[@]}" 2>"$LOG_DIR/format.log" | tail -n 1)"
    [[ "$cluster_id" =~ ^[A-Za-z0-9_-]{22}$ ]] || die 1 "StorageTool random-uuid gave '$cluster_id'"
    log "formatting $DATA_DIR (cluster id $cluster_id)"
    tool_argv kafka.tools.StorageTool format -t "$cluster_id" -c "$PROPS_FILE" --standalone
    "${TOOL_ARGV[@]}" >>"$LOG_DIR/format.log" 2>&1 || {
      cat "$LOG_DIR/format.log" >&2
      die 1 "kafka-storage format failed"
    }
  fi
  printf '%s\n' "$KAFKA_VERSION" >"$VERSION_FILE"

  local -a heap jvm
  read -r -a heap <<<"${KAFKA_HEAP_OPTS:--Xmx512m -Xms256m}"
  read -r -a jvm <<<"${KAFKA_JVM_OPTS:-}"
  rm -f "$PID_FILE"
  : >"$LOG_DIR/stdout.log"
  # setsid: own session, so the broker survives the caller's terminal/process group;
  # the inner bash writes its pid and execs java, so the pid file holds the JVM's pid.
  # fd 9 (the start lock) must not leak into the broker.
  # shellcheck disable=SC2016 # $$, $1, $@ are for the inner bash
  nohup setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' kafka-broker "$PID_FILE" \
    "$JAVA_BIN" "${heap[@]}" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
    -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true "${jvm[@]}" \
    "-Dkafka.logs.dir=$LOG_DIR" "$(log_config broker)" \
    -cp "$LIBS_DIR/*" kafka.Kafka "$PROPS_FILE" \
    </dev/null >>"$LOG_DIR/stdout.log" 2>&1 9>&- &

  for _ in $(seq 1 50); do
    [[ -s "$PID_FILE" ]] && break
    sleep 0.1
  done
  [[ -s "$PID_FILE" ]] || die 1 "broker process did not start (see $LOG_DIR/stdout.log)"
  pid="$(<"$PID_FILE")"
  log "started Kafka $KAFKA_VERSION (pid $pid), waiting for 127.0.0.1:$KAFKA_PORT to answer ..."
  wait_ready "$pid"
  cat <<EOF
Kafka $KAFKA_VERSION running on 127.0.0.1:$KAFKA_PORT (controller 127.0.0.1:$KAFKA_CONTROLLER_PORT), pid $pid
  bootstrap:  127.0.0.1:$KAFKA_PORT
  state:      $STATE_DIR
  data:       $DATA_DIR
  log:        $LOG_DIR/server.log
  properties: $PROPS_FILE
  jars:       $LIBS_DIR
EOF
}

cmd_stop() {
  local wipe="${KAFKA_WIPE:-0}" arg
  for arg in "$@"; do
    case "$arg" in
      --wipe) wipe=1 ;;
      *) die 2 "stop: unknown argument '$arg' (only --wipe)" ;;
    esac
  done
  local pid
  if pid="$(broker_pid)"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.5
    done
    if kill -0 "$pid" 2>/dev/null; then
      log "pid $pid still alive after 30 s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      for _ in $(seq 1 20); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.25
      done
    fi
    echo "Kafka on 127.0.0.1:$KAFKA_PORT stopped (pid $pid)"
  else
    echo "Kafka on 127.0.0.1:$KAFKA_PORT is not running"
  fi
  rm -f "$PID_FILE"
  if [[ "$wipe" == 1 ]]; then
    rm -rf "$DATA_DIR" "$VERSION_FILE"
    echo "wiped $DATA_DIR"
  fi
}

cmd_status() {
  local pid version
  version="$(cat "$VERSION_FILE" 2>/dev/null || echo none)"
  if pid="$(broker_pid)"; then
    if port_open "$KAFKA_PORT"; then
      echo "running version=$version port=$KAFKA_PORT controller_port=$KAFKA_CONTROLLER_PORT pid=$pid state=$STATE_DIR"
    else
      echo "running (not listening yet) version=$version port=$KAFKA_PORT controller_port=$KAFKA_CONTROLLER_PORT pid=$pid state=$STATE_DIR"
    fi
    return 0
  fi
  echo "stopped version=$version port=$KAFKA_PORT state=$STATE_DIR"
  return 3
}

has_bootstrap() {
  local a
  for a in "$@"; do
    [[ "$a" == --bootstrap-server || "$a" == --bootstrap-server=* ]] && return 0
  done
  return 1
}

main() {
  local cmd="${1:-}"
  [[ $# -gt 0 ]] && shift
  case "$cmd" in
    start) cmd_start "$@" ;;
    stop) cmd_stop "$@" ;;
    status) cmd_status "$@" ;;
    classpath)
      find_java
      resolve_version
      ensure_libs
      printf '%s\n' "$LIBS_DIR/*"
      ;;
    run-class)
      [[ $# -ge 1 ]] || die 2 "usage: run-class <main class> [args...]"
      find_java
      resolve_version
      ensure_libs
      java_tool "$@"
      ;;
    consumer-groups | topics)
      find_java
      resolve_version
      ensure_libs
      local main=org.apache.kafka.tools.consumer.group.ConsumerGroupCommand
      [[ "$cmd" == topics ]] && main=org.apache.kafka.tools.TopicCommand
      if has_bootstrap "$@"; then
        java_tool "$main" "$@"
      else
        java_tool "$main" --bootstrap-server "127.0.0.1:$KAFKA_PORT" "$@"
      fi
      ;;
    -h | --help | help) usage 0 ;;
    "") usage 2 ;;
    *)
      log "unknown command '$cmd'"
      usage 2
      ;;
  esac
}

main "$@"
