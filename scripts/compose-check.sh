#!/usr/bin/env bash
# compose.yaml, proven without a Docker engine, the way scripts/image-check.sh proves the
# Dockerfile: a throwaway PostgreSQL (the `db` service), two copies of the runtime image's
# root file system each running the staged demo as the image's user with the app
# services' environment read from compose.yaml (`app1`, `app2`), and this machine's
# nginx with the very deploy/nginx.conf that the `nginx` service mounts. Then, through
# nginx and directly, scripts/compose-smoke.py: /readyz, one durable room shared across
# the two processes, two browsers spread by nginx, and a SIGTERM to app1 that its
# clients survive by resuming on app2. Both apps must exit 0 from SIGTERM within 10 s.
#   scripts/compose-check.sh STAGE    STAGE from `scripts/release.sh build STAGE`
# Needs root, debootstrap, nginx, PostgreSQL's server binaries and Python's websockets
# (.ci/run and scripts/setup.sh --test install them). Cleans up after itself, also on
# failure; logs of a failed run are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=$(cd "${1:?usage: compose-check.sh STAGE}" && pwd)
started=$(date +%s)
# shellcheck source=scripts/lib/rootfs.sh
. scripts/lib/rootfs.sh

work=$(mktemp -d)
apps=()       # the demo processes (app1, app2), killed if still running at the end
nginx_pid=""
postgres_dir=""
passed=""

cleanup() {
  # Every step, whatever failed before it.
  set +e
  local pid
  for pid in "${apps[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  # TERM, not KILL: nginx's master then stops its workers (a killed master leaves them).
  if [ -n "$nginx_pid" ]; then
    kill -TERM "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  if [ -z "$passed" ]; then
    for log in "$work"/*.log "$work"/nginx/*.log; do
      [ -s "$log" ] && { echo "--- $log" >&2; tail -n 40 "$log" >&2; }
    done
  fi
  [ -n "$postgres_dir" ] && scripts/postgres-throwaway.sh stop "$postgres_dir"
  unmount_under "$work"
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# 1. The `db` service: a throwaway PostgreSQL on loopback, on a free port, as the
# unprivileged `postgres` user, in a temporary folder.
read -r postgres_url postgres_dir < <(scripts/postgres-throwaway.sh start) || true
[ -n "${postgres_url:-}" ] || { echo "db: PostgreSQL did not start" >&2; exit 1; }
echo "db: PostgreSQL at $postgres_url"

# 2. The `app1` and `app2` services: each its own copy of the image's file system (its
# own /app/data, as each container has), the image's CMD as its user, and the
# environment of compose.yaml's `x-app` block, read from the file, with the addresses
# replaced: STATECAST_POSTGRES names the throwaway server, and each app listens on
# loopback on a free port (in a container, 0.0.0.0:8080 is the container's own network;
# here it would be this machine's). The secret, which compose takes from .env, is made
# up. A value that compose interpolates and this check does not replace fails here.
secret=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
replaced=(STATECAST_POSTGRES="$postgres_url" STATECAST_HOST=127.0.0.1 STATECAST_PORT=0 STATECAST_SECRET="$secret")
app_env=()
while IFS= read -r setting; do
  name=${setting%%=*}
  if [[ $setting == *'${'* ]] && ! printf '%s\n' "${replaced[@]}" | grep -q "^$name="; then
    echo "compose.yaml: $name is interpolated by compose; compose-check.sh must replace it" >&2
    exit 1
  fi
  app_env+=("$setting")
done < <(sed -nE '/^x-app:/,/^[a-z]/ s/^    (STATECAST_[A-Z_]+): "?([^"]*)"?$/\1=\2/p' compose.yaml)
[ ${#app_env[@]} -gt 0 ] || { echo "compose.yaml: no STATECAST_ settings under x-app" >&2; exit 1; }
echo "app environment from compose.yaml: ${app_env[*]%%=*}"
for app in app1 app2; do
  rootfs_mount "$work/$app" "$work/$app-overlay"
  rootfs_install_app "$stage" "$work/$app"
done
help=$(rootfs_run "$work/app1" /app/bin/statecast-demo --help 2>&1 || true)
if ! grep -q -- '--postgres' <<<"$help"; then
  echo "MISSING: this statecast-demo has no --postgres flag, so the apps cannot share" >&2
  echo "sessions and rooms, and the compose scenario cannot pass." >&2
  exit 1
fi
ports=()
for app in app1 app2; do
  # env applies its settings in order, so the replacements win.
  rootfs_run "$work/$app" "${app_env[@]}" "${replaced[@]}" /app/release.sh run /app > "$work/$app.log" 2>&1 &
  apps+=("$!")
done
for i in 0 1; do
  ports+=("$(rootfs_wait_listening "$work/app$((i + 1)).log" "${apps[$i]}")")
  # The compose health check, inside the "container".
  (rootfs_run "$work/app$((i + 1))" /app/release.sh health "${ports[$i]}")
done
echo "app1, app2: healthy on ports ${ports[*]} ($(($(date +%s) - started)) s)"

# 3. The `nginx` service: deploy/nginx.conf as compose mounts it (in the http block of a
# main configuration, as the nginx image's is), with only the app addresses and the
# listen port replaced. Each replacement must hit exactly one line, so that a change to
# the file that this check no longer understands fails here instead of passing untested.
nginx_port=$(free_port)
mkdir -p "$work/nginx"
sed -e "s|server app1:8080 resolve|server 127.0.0.1:${ports[0]}|" \
  -e "s|server app2:8080 resolve|server 127.0.0.1:${ports[1]}|" \
  -e "s|^\( *\)listen 8080;|\1listen 127.0.0.1:$nginx_port;|" \
  deploy/nginx.conf > "$work/nginx/statecast.conf"
for line in "server 127.0.0.1:${ports[0]} " "server 127.0.0.1:${ports[1]} " "listen 127.0.0.1:$nginx_port;"; do
  if [ "$(grep -cF -- "$line" "$work/nginx/statecast.conf")" -ne 1 ]; then
    echo "deploy/nginx.conf: cannot put '$line' in place of compose's address" >&2
    exit 1
  fi
done
cat > "$work/nginx/nginx.conf" <<CONF
# In the foreground, so that this script owns the master process; one worker, so that
# round robin alternates strictly.
daemon off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log info;
events {}
http {
    include /etc/nginx/mime.types;
    log_format upstream '\$request -> \$upstream_addr \$status';
    access_log $work/nginx/access.log upstream;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    include $work/nginx/statecast.conf;
}
CONF
nginx -e "$work/nginx/error.log" -p "$work/nginx" -c "$work/nginx/nginx.conf" -t -q
nginx -e "$work/nginx/error.log" -p "$work/nginx" -c "$work/nginx/nginx.conf" &
nginx_pid=$!
for _ in $(seq 1 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$nginx_port") 2>/dev/null && break
  sleep 0.1
done
echo "nginx: port $nginx_port, round robin over 127.0.0.1:${ports[0]} and 127.0.0.1:${ports[1]}"

# 4. The scenario; it ends with a SIGTERM to app1.
python3 scripts/compose-smoke.py "$nginx_port" "${ports[0]}" "${ports[1]}" "${apps[0]}"

# 5. `docker compose stop`: SIGTERM (app1 has had it), a drain, exit 0, well within the
# compose file's stop_grace_period (15 s); 10 s here.
kill -TERM "${apps[1]}"
for i in 0 1; do
  pid=${apps[$i]}
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  code=0
  if kill -0 "$pid" 2>/dev/null; then
    code=timeout
  else
    wait "$pid" || code=$?
  fi
  if [ "$code" != 0 ] || ! grep -q '^stopped$' "$work/app$((i + 1)).log"; then
    echo "app$((i + 1)) did not stop cleanly within 10 s of SIGTERM (exit $code)" >&2
    exit 1
  fi
done
echo "app1, app2: drained and exited 0 on SIGTERM"
kill -QUIT "$nginx_pid"
wait "$nginx_pid" || true
nginx_pid=""
passed=yes
echo "compose: db, two apps and nginx, no stickiness: shared room, failover, clean stop ($(($(date +%s) - started)) s)"
