#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# The instruction mix of a CUDA file's kernels in SASS, per kernel (the
# device functions it calls are counted in its section), without a GPU:
# the file is compiled to an sm_90 cubin with the build's flags and
# disassembled. The FMA-pipe column counts a wide or high IMAD
# (IMAD.WIDE*, IMAD.HI*) as 2 issues and any other IMAD as 1, the model
# of cuda/README.md ("Field arithmetic") that the H100's and H200's
# measured product times follow to 5%.
#
#   cuda/sass-mix.sh FILE.cu [FILTER] [-- NVCC_FLAGS...]
#
# FILTER keeps the kernels whose mangled name contains it; NVCC_FLAGS go
# to nvcc (-DCUZK_FR_KARATSUBA_LEVELS=1, say). With --ops the opcode counts
# of the kept kernels follow each row.
#
# Needs nvcc and a disassembler: nvdisasm from the toolkit, else the one of
# Debian's nvidia-cuda-toolkit (non-free, CUDA 11.8: NVDISASM=/path). That
# one reads the ELF header of CUDA 11's cubins only, so the header is
# rewritten for it (OS/ABI 0x33, ABI version 7, e_flags = sm | sm << 16 |
# 0x500): the instructions are sm_90's either way.
set -euo pipefail

ops=0
if [ "${1:-}" = --ops ]; then
        ops=1
        shift
fi
src=${1:?usage: $0 [--ops] FILE.cu [FILTER] [-- NVCC_FLAGS...]}
shift
filter=
if [ $# -gt 0 ] && [ "$1" != -- ]; then
        filter=$1
        shift
fi
[ "${1:-}" = -- ] && shift

nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
disasm=${NVDISASM:-$(command -v nvdisasm || echo "$(dirname "$nvcc")/nvdisasm")}
if [ ! -x "$disasm" ]; then
        echo "sass-mix: no nvdisasm at $disasm (set NVDISASM=)" >&2
        exit 1
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$nvcc" -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -O3 -cubin -I"$root" -I"$root/cuda" \
        "$@" "$src" -o "$tmp/k.cubin"
if ! "$disasm" -c "$tmp/k.cubin" >"$tmp/k.sass" 2>/dev/null; then
        # An older nvdisasm: give the cubin the header it knows.
        flags=$(od -An -tu4 -j48 -N4 "$tmp/k.cubin" | tr -d ' ')
        sm=$(((flags >> 8) & 255))
        old=$((sm | (sm << 16) | 0x500))
        cp "$tmp/k.cubin" "$tmp/old.cubin"
        printf '\x33\x07' | dd of="$tmp/old.cubin" bs=1 seek=7 conv=notrunc status=none
        printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((old & 255)) $(((old >> 8) & 255)) \
                $(((old >> 16) & 255)) $(((old >> 24) & 255)))" |
                dd of="$tmp/old.cubin" bs=1 seek=48 conv=notrunc status=none
        "$disasm" -c "$tmp/old.cubin" >"$tmp/k.sass"
fi

awk -v filter="$filter" -v ops="$ops" '
function flush() {
        if (name == "" || (filter != "" && index(name, filter) == 0))
                return
        printf "%7d %7d %6d %6d  %s\n", total, 2 * wide + plain, wide, plain, name
        if (ops) {
                sorter = "sort -rn | head -12 | sed \"s/^/       /\""
                for (op in count)
                        printf "%7d %s\n", count[op], op | sorter
                close(sorter)
        }
}
/^[ \t]*\.section[ \t]+\.text\./ {
        flush()
        name = $2
        sub(/^\.text\./, "", name)
        sub(/,.*/, "", name)
        total = wide = plain = 0
        delete count
        next
}
/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]/ {
        op = $2
        if (op ~ /^@/)
                op = $3
        sub(/;$/, "", op)
        if (op !~ /^[A-Z]/)
                next
        total++
        count[op]++
        if (op ~ /^IMAD\.(WIDE|HI)/)
                wide++
        else if (op ~ /^IMAD/)
                plain++
}
END {
        flush()
}
BEGIN {
        printf "%7s %7s %6s %6s  %s\n", "instrs", "FMA", "wide", "IMAD", "kernel"
}' "$tmp/k.sass"
