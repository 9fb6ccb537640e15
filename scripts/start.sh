#!/bin/sh
# `npm start`: starts Node with the settings below, then scripts/start.mjs (which builds only when
# a source changed, and runs the bundle in this process). Whatever else starts the bundle reads them
# from here (scripts/process-settings.ts): the build's training start, whose V8 code cache a process
# takes only under the same Node flags (under others it compiles from source, about 130 ms more), the
# bench and the tests. A test checks that `npm start` runs with them and with the code cache.
#
# The first two keep memory the server has touched rather than giving it back and touching it
# afresh. On a virtual machine the first touch of a page is slow: about 11 us a page on this 2-core
# VM (64 MiB, 16 384 page faults, took 185 ms). A hostile list body of 1.5 MiB (received, joined, transcoded,
# parsed) faulted in 400 to 2 000 pages, 5 to 20 ms of its answer (issue 10, point 3).
# - glibc's malloc: a block of up to 32 MiB comes from its heap rather than from a mapping of its
#   own, which is unmapped when freed; the heap's free top is kept up to 1 GiB, not trimmed past
#   128 KiB. A caller's own GLIBC_TUNABLES come first and are kept.
# - V8: the young generation starts at 16 MiB a semi-space (the most --min-semi-space-size takes),
#   half of what it grows to under load, and never shrinks below that. By default it starts at
#   1 MiB, grows as large bodies come, and shrinks again.
# With both, five hostile bodies sent in turn 20 times after a start were answered in 8.9 ms on
# average and at most 19 ms after the first five, against 13.9 ms and 44 ms with neither
# (bench/README.md, "Pages touched afresh"). The cost: a start takes 50 to 80 ms longer (the young
# generation's pages, touched by the start's own allocations), and an idle server holds 160 MB
# rather than 131 MB.
#
# A third keeps the peak within issue 12's 200 MB: V8 lets its old generation grow to twice what it
# held after its last full collection (--heap-growing-percent=100), not to up to four times. Under a
# full create load it fills with requests promoted while they waited for their flush; on a VM twice
# as fast (1 850 creates/s) the peak reached 212-215 MB by default and 188-189 MB with this, at the
# same rate. At 50 the peak was 177-185 MB, but the first hostile bodies after a start took up to
# 51 ms (bench/README.md, "Peak RSS").
SERVER_GLIBC_TUNABLES='glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824'
SERVER_NODE_FLAGS='--min-semi-space-size=16 --heap-growing-percent=100'

GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}$SERVER_GLIBC_TUNABLES"
export GLIBC_TUNABLES
# shellcheck disable=SC2086 # the flags are words of their own
exec node $SERVER_NODE_FLAGS "$(dirname "$0")/start.mjs" "$@"
