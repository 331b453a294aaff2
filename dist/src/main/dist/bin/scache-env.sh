# shellcheck shell=bash
# Sourced by the bin/scache-* scripts: locates the installation, Java and the classpath, and
# implements run/start/stop/status for the daemons.
#
# Environment:
#   JAVA_HOME          Java 17 or newer; else java on PATH
#   SCACHE_CONF_DIR    configuration directory (default: $SCACHE_HOME/conf)
#   SCACHE_JAVA_OPTS   JVM options (default: -Xmx256m -XX:+UseSerialGC; block data lives off the heap)
#   SCACHE_LOG_DIR     log files of started daemons (default: $SCACHE_HOME/logs)
#   SCACHE_PID_DIR     pid files of started daemons (default: $SCACHE_HOME/run)
#   SCACHE_STATE_DIR   state kept across restarts: the master's applications (default: $SCACHE_HOME/state)
#   SCACHE_IDENT       names the pid and log files, so several workers can run on one host
#   SCACHE_START_TIMEOUT  seconds `start` waits for the daemon to listen (default: 20)
#   SCACHE_STOP_TIMEOUT   seconds `stop` waits after SIGTERM before SIGKILL (default: 10)

SCACHE_HOME="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)"
SCACHE_CONF_DIR="${SCACHE_CONF_DIR:-$SCACHE_HOME/conf}"
SCACHE_LOG_DIR="${SCACHE_LOG_DIR:-$SCACHE_HOME/logs}"
SCACHE_PID_DIR="${SCACHE_PID_DIR:-$SCACHE_HOME/run}"
export SCACHE_STATE_DIR="${SCACHE_STATE_DIR:-$SCACHE_HOME/state}"
SCACHE_JAVA_OPTS="${SCACHE_JAVA_OPTS:--Xmx256m -XX:+UseSerialGC}"
SCACHE_START_TIMEOUT="${SCACHE_START_TIMEOUT:-20}"
SCACHE_STOP_TIMEOUT="${SCACHE_STOP_TIMEOUT:-10}"
SCACHE_CLASSPATH="$SCACHE_CONF_DIR:$SCACHE_HOME/lib/*"

scache_die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

scache_find_java() {
  if [[ -n "${JAVA_HOME:-}" ]]; then
    [[ -x "$JAVA_HOME/bin/java" ]] || scache_die "JAVA_HOME is set to $JAVA_HOME, but $JAVA_HOME/bin/java is not executable"
    JAVA="$JAVA_HOME/bin/java"
  elif command -v java >/dev/null 2>&1; then
    JAVA="$(command -v java)"
  else
    scache_die "no Java found: set JAVA_HOME or put java (17 or newer) on PATH"
  fi
  compgen -G "$SCACHE_HOME/lib/*.jar" >/dev/null || scache_die "no jars in $SCACHE_HOME/lib"
}

# Sets SCACHE_JAVA_COMMAND to java, the options of SCACHE_JAVA_OPTS, then the arguments given.
scache_java_command() {
  scache_find_java
  local -a java_opts
  read -r -a java_opts <<<"$SCACHE_JAVA_OPTS"
  SCACHE_JAVA_COMMAND=("$JAVA" "${java_opts[@]}" "$@")
}

# Runs a main class in the foreground with the SCache classpath: scache_exec_java CLASS ARGS...
scache_exec_java() {
  scache_java_command -cp "$SCACHE_CLASSPATH" "$@"
  exec "${SCACHE_JAVA_COMMAND[@]}"
}

# The pid of a live process started from the pid file for MAIN_CLASS, or nothing.
scache_live_pid() {
  local pid_file="$1" main_class="$2" pid
  [[ -f "$pid_file" ]] || return 0
  pid="$(<"$pid_file")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  if kill -0 "$pid" 2>/dev/null && ps -p "$pid" -o args= 2>/dev/null | grep -qF "$main_class"; then
    echo "$pid"
  fi
}

scache_daemon_usage() {
  cat >&2 <<EOF
usage: $(basename "$0") [--conf FILE] [run|start|stop|status] [-Dscache.key=value ...]
  run     run in the foreground until SIGTERM or Ctrl-C (the default)
  start   run in the background; pid in \$SCACHE_PID_DIR, log in \$SCACHE_LOG_DIR
  stop    send SIGTERM, then SIGKILL after \$SCACHE_STOP_TIMEOUT seconds
  status  tell whether it runs (exit 0) or not (exit 3)
  --conf  properties file (default: \$SCACHE_CONF_DIR/scache.properties when it exists)
  -D...   configuration overrides, e.g. -Dscache.worker.rpc.port=17021
Set SCACHE_IDENT (e.g. worker2) to run several instances on one host.
EOF
  exit 2
}

# The whole daemon script: scache_daemon ROLE MAIN_CLASS "$@".
scache_daemon() {
  local role="$1" main_class="$2"
  shift 2
  local command="run" conf="" arg
  local -a props=()
  while (($# > 0)); do
    arg="$1"
    shift
    case "$arg" in
      run | start | stop | status) command="$arg" ;;
      --conf)
        (($# > 0)) || scache_die "--conf needs a file"
        conf="$1"
        shift
        ;;
      --conf=*) conf="${arg#--conf=}" ;;
      -D?*) props+=("$arg") ;;
      -h | --help) scache_daemon_usage ;;
      *)
        echo "$(basename "$0"): unknown argument: $arg" >&2
        scache_daemon_usage
        ;;
    esac
  done
  if [[ -z "$conf" && -f "$SCACHE_CONF_DIR/scache.properties" ]]; then
    conf="$SCACHE_CONF_DIR/scache.properties"
  fi
  local -a conf_args=()
  if [[ -n "$conf" ]]; then
    [[ -r "$conf" ]] || scache_die "cannot read configuration file $conf"
    conf_args=(--conf "$(readlink -f "$conf")")
  fi

  local name="scache-$role${SCACHE_IDENT:+-$SCACHE_IDENT}"
  local pid_file="$SCACHE_PID_DIR/$name.pid"
  local log_file="$SCACHE_LOG_DIR/$name.log"
  local label="scache $role${SCACHE_IDENT:+ ($SCACHE_IDENT)}"
  local pid

  case "$command" in
    run)
      scache_java_command "${props[@]}" -cp "$SCACHE_CLASSPATH" "$main_class" "${conf_args[@]}"
      exec "${SCACHE_JAVA_COMMAND[@]}"
      ;;
    status)
      pid="$(scache_live_pid "$pid_file" "$main_class")"
      if [[ -n "$pid" ]]; then
        echo "$label is running as pid $pid (log: $log_file)"
        return 0
      fi
      echo "$label is not running"
      return 3
      ;;
    stop)
      scache_stop "$label" "$pid_file" "$main_class"
      ;;
    start)
      scache_java_command "${props[@]}" -cp "$SCACHE_CLASSPATH" "$main_class" "${conf_args[@]}"
      scache_start "$label" "$pid_file" "$log_file" "$main_class"
      ;;
  esac
}

scache_stop() {
  local label="$1" pid_file="$2" main_class="$3" pid
  pid="$(scache_live_pid "$pid_file" "$main_class")"
  if [[ -z "$pid" ]]; then
    rm -f "$pid_file"
    echo "$label is not running"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + SCACHE_STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      echo "$label (pid $pid) did not stop within $SCACHE_STOP_TIMEOUT s; killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.1
  done
  rm -f "$pid_file"
  echo "$label stopped (pid $pid)"
}

# Starts SCACHE_JAVA_COMMAND in the background: scache_start LABEL PID_FILE LOG_FILE MAIN_CLASS
scache_start() {
  local label="$1" pid_file="$2" log_file="$3" main_class="$4"
  local pid line deadline

  pid="$(scache_live_pid "$pid_file" "$main_class")"
  [[ -z "$pid" ]] || scache_die "$label is already running as pid $pid; stop it first"
  mkdir -p "$SCACHE_PID_DIR" "$SCACHE_LOG_DIR"
  [[ ! -f "$log_file" ]] || mv -f "$log_file" "$log_file.1"

  nohup "${SCACHE_JAVA_COMMAND[@]}" >"$log_file" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$pid_file"

  deadline=$((SECONDS + SCACHE_START_TIMEOUT))
  while ((SECONDS < deadline)); do
    line="$(grep -m1 'listening on' "$log_file" 2>/dev/null || true)"
    if [[ -n "$line" ]]; then
      echo "$line (pid $pid, log $log_file)"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$pid_file"
      echo "$label failed to start; last lines of $log_file:" >&2
      tail -n 25 "$log_file" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "$label (pid $pid) is not listening after $SCACHE_START_TIMEOUT s; it may still be starting" \
    "(raise SCACHE_START_TIMEOUT for a large pre-touched reserve). Last lines of $log_file:" >&2
  tail -n 25 "$log_file" >&2
  exit 1
}
