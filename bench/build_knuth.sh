#!/bin/sh
# Build one of Knuth's dancing-links programs as a peer for the benchmarks. Knuth's code is not
# part of polytile: it comes from the public ascherer/cwebtest repository, as a work tree or a
# bare git directory.
#
#   git clone https://github.com/ascherer/cwebtest /tmp/cwebtest
#   sh bench/build_knuth.sh dlx1 /tmp/cwebtest [OUT]   # OUT defaults to /tmp/polytile-peers/dlx1
#   sh bench/build_knuth.sh dlx6 /tmp/cwebtest [OUT]   # OUT defaults to /tmp/polytile-peers/dlx6
#
# dlx1: Algorithm 7.2.2.1D (dancing links), for bench/bench_dlx.py and the docs' `dlx1 < FILE.dlx`.
# dlx6: exact cover counted through a memo cache of partial solutions (a ZDD), for
#       bench/bench_counting.py. Built as Knuth wrote it: counts in 64 bits (unsigned long long,
#       so counts past 2^64 wrap; it says so on stderr), a hash table of 2^30 entries (8 GB) and
#       a memo cache of 2*10^9 octabytes (16 GB), both malloc'ed at start and touched only as used.
#
# (gb_flip.w and the programs include boilerplate.w.) Needs ctangle (Debian: apt-get install texlive-binaries) and gcc.
set -eu
prog=${1:?usage: build_knuth.sh dlx1|dlx6 CWEBTEST [OUT]}
src=${2:?usage: build_knuth.sh dlx1|dlx6 CWEBTEST [OUT]}
case "$prog" in
    dlx1) files="dlx1.w gb_flip.w boilerplate.w" ;;
    dlx6) files="dlx6.w gb_flip.w boilerplate.w" ;;
    *) echo "build_knuth.sh: $prog: expected dlx1 or dlx6" >&2; exit 2 ;;
esac
out=${3:-/tmp/polytile-peers/$prog}
mkdir -p "$out"
for f in $files; do
    if [ -f "$src/$f" ]; then
        cp "$src/$f" "$out/$f"
    else
        git --git-dir="$src" show "HEAD:$f" >"$out/$f"
    fi
done
cd "$out"
ctangle gb_flip.w >/dev/null
ctangle "$prog.w" >/dev/null
gcc -O3 -march=native -w -o "$prog" "$prog.c" gb_flip.c
echo "$out/$prog"
