#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the game server's store tests, listening only on a Unix socket.
#
#   scripts/postgres.sh start DIR   # creates and starts a cluster in DIR; prints its DSN
#   scripts/postgres.sh stop DIR    # stops it (DIR can then be removed)
#
# Uses Debian's PostgreSQL (apt-get install postgresql). Run as root, it runs the cluster as the
# postgres user, since PostgreSQL refuses to run as root.
set -euo pipefail
action="${1:?start or stop}"
dir="$(realpath -m "${2:?a directory for the cluster}")"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -x "$bin/pg_ctl" ] || { echo "no PostgreSQL found: apt-get install -y postgresql" >&2; exit 1; }
as=()
if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); fi
case "$action" in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    "${as[@]}" "$bin/initdb" -D "$dir/data" -U chickenfoot --auth=trust >/dev/null
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
      -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=on" start >/dev/null
    echo "postgresql://chickenfoot@/postgres?host=$dir"
    ;;
  stop)
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  *) echo "start or stop, not $action" >&2; exit 2 ;;
esac
