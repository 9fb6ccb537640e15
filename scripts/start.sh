#!/bin/sh
# `npm start`: starts Node with the process's settings of scripts/start.env (what each is for is
# written there), then scripts/start.mjs, which builds only when a source changed and runs the
# bundle in this process. The bench and the tests start the bundle with the same settings, read from
# the same file; a test checks that `npm start` runs with them.
. "$(dirname "$0")/start.env"

GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}$SERVER_GLIBC_TUNABLES"
export GLIBC_TUNABLES
# shellcheck disable=SC2086 # the flags are words of their own
exec node $SERVER_NODE_FLAGS "$(dirname "$0")/start.mjs" "$@"
