#!/bin/sh
# Build Knuth's DLX6 (exact cover counted through a memo cache of partial solutions, a ZDD) as a
# peer for bench/bench_counting.py. Knuth's code is not part of polytile: it comes from the public
# ascherer/cwebtest repository (dlx6.w, gb_flip.w and the boilerplate.w it includes), as a work tree or a bare git directory.
#
#   sh bench/build_dlx6.sh CWEBTEST [OUT]      # OUT defaults to /tmp/polytile-peers/dlx6
#
# Needs ctangle (Debian: apt-get install texlive-binaries) and gcc. The program is built as
# Knuth wrote it: counts in 64 bits (unsigned long long, so counts past 2^64 wrap; it says so
# on stderr), a hash table of 2^30 entries (8 GB) and a memo cache of 2*10^9 octabytes (16 GB),
# both malloc'ed at start and touched only as used.
set -eu
src=${1:?usage: build_dlx6.sh CWEBTEST [OUT]}
out=${2:-/tmp/polytile-peers/dlx6}
mkdir -p "$out"
for f in dlx6.w gb_flip.w boilerplate.w; do
    if [ -f "$src/$f" ]; then
        cp "$src/$f" "$out/$f"
    else
        git --git-dir="$src" show "HEAD:$f" >"$out/$f"
    fi
done
cd "$out"
ctangle gb_flip.w >/dev/null
ctangle dlx6.w >/dev/null
gcc -O3 -march=native -w -o dlx6 dlx6.c gb_flip.c
echo "$out/dlx6"
