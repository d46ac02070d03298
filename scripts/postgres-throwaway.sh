#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests: a fresh cluster in a temporary directory,
# listening on 127.0.0.1 only, on a free port, trust authentication, fsync on.
#   scripts/postgres-throwaway.sh start         prints "URL DIR" on one line:
#                                               postgres://postgres@127.0.0.1:PORT/postgres /tmp/...
#   scripts/postgres-throwaway.sh restart DIR   restarts it (same port, same data)
#   scripts/postgres-throwaway.sh pause DIR     stops the server, keeping its data (an outage)
#   scripts/postgres-throwaway.sh resume DIR    starts it again on the same port
#   scripts/postgres-throwaway.sh stop DIR      stops it and deletes DIR
# PostgreSQL refuses to run as root: as root, the server runs as the `postgres` system
# user that Debian's postgresql package creates (scripts/setup.sh --test installs it).
set -euo pipefail

bindir() {
  if [ -n "${POSTGRES_BIN:-}" ]; then echo "$POSTGRES_BIN"; return; fi
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
    pg_config --bindir; return
  fi
  local newest
  newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$newest" ]; then
    echo "PostgreSQL server binaries not found: run scripts/setup.sh --test" >&2
    exit 1
  fi
  echo "$newest"
}

# Runs a command as the user owning the cluster.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  local bin dir port
  bin=$(bindir)
  dir=$(mktemp -d "${TMPDIR:-/tmp}/statecast-postgres-XXXXXX")
  chmod 700 "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; rm -rf "$dir"; exit 1; }
  port=$(free_port)
  cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = on
max_connections = 200
CONF
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null \
    || { cat "$dir/server.log" >&2; rm -rf "$dir"; exit 1; }
  echo "postgres://postgres@127.0.0.1:$port/postgres $dir"
}

restart() {
  local dir=$1
  as_owner "$(bindir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -m fast restart >/dev/null
}

pause() {
  local dir=$1
  as_owner "$(bindir)/pg_ctl" -D "$dir/data" -w -t 60 -m fast stop >/dev/null
}

resume() {
  local dir=$1
  as_owner "$(bindir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
}

stop() {
  local dir=$1
  [ -f "$dir/data/PG_VERSION" ] || { echo "not a throwaway cluster: $dir" >&2; exit 1; }
  as_owner "$(bindir)/pg_ctl" -D "$dir/data" -w -t 60 -m fast stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  restart) restart "${2:?usage: $0 restart DIR}" ;;
  pause) pause "${2:?usage: $0 pause DIR}" ;;
  resume) resume "${2:?usage: $0 resume DIR}" ;;
  stop) stop "${2:?usage: $0 stop DIR}" ;;
  *) echo "usage: $0 start | restart DIR | pause DIR | resume DIR | stop DIR" >&2; exit 2 ;;
esac
