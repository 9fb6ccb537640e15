#!/bin/sh
# `npm start`: starts Node with the settings below, then scripts/start.mjs (which builds only when
# a source changed, and runs the bundle in this process). Whatever else starts the bundle reads them
# from here (scripts/process-settings.ts): the build's training start, whose V8 code cache a process
# takes only under the same Node flags (under others it compiles from source, a slower start), the
# bench and the tests. A test checks that `npm start` runs with them and with the code cache.
#
# The first two keep memory the server has touched rather than giving it back and touching it
# afresh. On a virtual machine the first touch of a page is slow, and a hostile list body (received,
# joined, transcoded, parsed) faults in hundreds to thousands of pages when the memory of the body
# before it was given back (docs/decisions.md, "Keep the memory the process has touched?";
# bench/README.md, "Pages touched afresh").
# - glibc's malloc: a block of up to 32 MiB comes from its heap rather than from a mapping of its
#   own, which is unmapped when freed; the heap's free top is kept up to 1 GiB, not trimmed past
#   128 KiB. A caller's own GLIBC_TUNABLES come first and are kept.
# - V8: the young generation starts at 16 MiB a semi-space (the most --min-semi-space-size takes),
#   half of what it grows to under load, and never shrinks below that. By default it starts at
#   1 MiB, grows as large bodies come, and shrinks again.
# With both, hostile bodies after a start are answered sooner and more steadily. The cost: a longer
# start (the young generation's pages, touched by the start's own allocations), and more memory held
# by an idle server.
#
# A third keeps the peak RSS under a full create load within the bench's target: V8 lets its old
# generation grow to twice what it held after its last full collection (--heap-growing-percent=100),
# not to up to four times. Under that load it fills with requests promoted while they waited for
# their flush. A smaller growth holds less, but its more frequent full collections reach into the
# first hostile bodies after a start (docs/decisions.md, "How far may V8's old generation grow before
# a full collection?"; bench/README.md, "Peak RSS").
SERVER_GLIBC_TUNABLES='glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824'
SERVER_NODE_FLAGS='--min-semi-space-size=16 --heap-growing-percent=100'

GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}$SERVER_GLIBC_TUNABLES"
export GLIBC_TUNABLES
# shellcheck disable=SC2086 # the flags are words of their own
exec node $SERVER_NODE_FLAGS "$(dirname "$0")/start.mjs" "$@"
