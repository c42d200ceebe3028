#!/bin/sh
# Build Knuth's dlx1 (Algorithm 7.2.2.1D, dancing links) as a peer for bench/bench_dlx.py and the
# docs' `dlx1 < FILE.dlx` lines. Knuth's code is not part of polytile: it comes from the public
# ascherer/cwebtest repository (dlx1.w and gb_flip.w), as a work tree or a bare git directory.
#
#   git clone https://github.com/ascherer/cwebtest /tmp/cwebtest
#   sh bench/build_dlx1.sh /tmp/cwebtest [OUT]      # OUT defaults to /tmp/polytile-peers/dlx
#
# Needs ctangle (Debian: apt-get install texlive-binaries) and gcc.
set -eu
src=${1:?usage: build_dlx1.sh CWEBTEST [OUT]}
out=${2:-/tmp/polytile-peers/dlx}
mkdir -p "$out"
for f in dlx1.w gb_flip.w; do
    if [ -f "$src/$f" ]; then
        cp "$src/$f" "$out/$f"
    else
        git --git-dir="$src" show "HEAD:$f" >"$out/$f"
    fi
done
cd "$out"
ctangle gb_flip.w >/dev/null
ctangle dlx1.w >/dev/null
gcc -O3 -march=native -w -o dlx1 dlx1.c gb_flip.c
echo "$out/dlx1"
