#!/usr/bin/env bash
# cuzk porep seal / synth-c1 / verify-c1 as a user runs them: the lotus-bench
# 2 KiB sector prints its published comm_r, sealing twice gives the same
# bytes, verify-c1 accepts the C1 and its envelope and refuses a changed
# one (exit 1, one line naming the place), bad arguments exit 2; a synthetic 32 GiB
# C1 verifies; parents writes the 2 KiB and 8 MiB caches of parent_cache.json.
# Usage: test-cli-porep.sh CUZK
set -uo pipefail

cuzk=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

check() { # check NAME EXPECTED_RC CMD...
        local name=$1 want=$2 rc
        shift 2
        "$@" >"$work/out" 2>"$work/err"
        rc=$?
        if [ "$rc" = "$want" ]; then
                echo "PASS: $name"
                passed=$((passed + 1))
        else
                echo "FAIL: $name (exit $rc, expected $want)"
                sed 's/^/    /' "$work/out" "$work/err"
                failed=$((failed + 1))
        fi
}

# What the last check's command printed, kept for the checks that look at it.
keep() { cp "$work/out" "$work/last.out"; cp "$work/err" "$work/last.err"; }

seal() {
        "$cuzk" porep seal --registered-proof StackedDrg2KiBV1_1 --miner t01000 --sector 1 --out "$1" "${@:2}"
}

check "seal the lotus-bench sector" 0 seal "$work/a.json" --envelope "$work/env.json"
cp "$work/out" "$work/seal.out"
check "its comm_r is lotus-bench's" 0 grep -qx 'comm_r: c647b998c78282296cfd1160714228d43f3b054dfbbb77172b68115ba3c3b762' "$work/seal.out"
check "sealing again" 0 seal "$work/b.json"
check "the same bytes" 0 cmp "$work/a.json" "$work/b.json"
check "verify-c1 accepts the C1" 0 "$cuzk" porep verify-c1 "$work/a.json"
check "verify-c1 accepts the envelope" 0 "$cuzk" porep verify-c1 "$work/env.json"
# The last digit of a byte in the first labeling proof's parents changed (still a byte).
python3 - "$work/a.json" "$work/bad.json" <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.index('"labeling_proofs"') + 200
while not (s[i].isdigit() and s[i + 1] in ',]'):
    i += 1
d = int(s[i])
open(sys.argv[2], 'w').write(s[:i] + str(d - 1 if d else 1) + s[i + 1:])
PY
check "verify-c1 refuses a changed C1" 1 "$cuzk" porep verify-c1 "$work/bad.json"
cp "$work/err" "$work/bad.err"
check "and names the place" 0 grep -q 'labeling_proofs\[0\]' "$work/bad.err"
check "synth-c1 of 2 KiB" 0 "$cuzk" porep synth-c1 --registered-proof StackedDrg2KiBV1_1 --out "$work/s.json"
check "verify-c1 says synthetic" 0 grep -q 'synthetic C1' <(OUT=$("$cuzk" porep verify-c1 "$work/s.json"); echo "$OUT")
check "synth-c1 refuses synthetic PoRep" 2 "$cuzk" porep synth-c1 --registered-proof StackedDrg2KiBV1_1_Feat_SyntheticPoRep --out "$work/x.json"
check "an unknown registered proof" 2 "$cuzk" porep seal --registered-proof StackedDrg3KiBV1 --out "$work/x.json"
check "a short ticket" 2 seal "$work/x.json" --ticket 00ff
check "a missing --out" 2 "$cuzk" porep seal --registered-proof StackedDrg2KiBV1_1
check "verify-c1 of a missing file" 2 "$cuzk" porep verify-c1 "$work/none.json"
check "an unknown porep command" 2 "$cuzk" porep unseal

# A genuine 8 MiB sector of zero data (about 7 s on 2 cores, 60 MB): its comm_d is
# the published zero 8 MiB comm_d, and verify-c1 accepts its C1.
check "seal of 8 MiB" 0 "$cuzk" porep seal --registered-proof StackedDrg8MiBV1_1 --out "$work/s8.json"
keep
check "its comm_d is the zero 8 MiB comm_d" 0 grep -qx 'comm_d: 65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c' "$work/last.out"
check "verify-c1 accepts the 8 MiB C1" 0 "$cuzk" porep verify-c1 "$work/s8.json"
rm -f "$work/s8.json"

# A synthetic 32 GiB C1 (~39 MB of JSON): its comm_d is the published zero 32 GiB comm_d
# (../shared/POREP.md Part B), and verify-c1 accepts it (about 2 s in all on 2 cores).
check "synth-c1 of 32 GiB" 0 "$cuzk" porep synth-c1 --registered-proof StackedDrg32GiBV1_1 --out "$work/s32.json"
keep
check "its comm_d is the zero 32 GiB comm_d" 0 grep -qx 'comm_d: 077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e' "$work/last.out"
check "verify-c1 accepts the 32 GiB synthetic C1" 0 "$cuzk" porep verify-c1 "$work/s32.json"
keep
check "and says it is synthetic" 0 grep -qx 'OK (synthetic C1: not a sealed sector)' "$work/last.out"
rm -f "$work/s32.json"

# cuzk porep parents: the name and the SHA-256 of parent_cache.json (rust-fil-proofs), for
# 2 KiB V1_1 (id 5), 2 KiB V1 (id 0: another porep_id, file and digest) and 8 MiB V1_1
# (id 6; 14 MiB written in about 0.3 s on 2 cores). The digest is checked on the file with
# sha256sum as well as on what cuzk prints.
parents_ok() { # parents_ok NAME_HEX DIGEST ARGS...: a file of that name and digest, "match"
        local name=$1 digest=$2 dir=$work/parents-$RANDOM
        shift 2
        check "parents $* writes v28-sdr-parent-${name:0:8}" 0 "$cuzk" porep parents "$@" --out "$dir"
        keep
        check "and prints its name" 0 grep -qx "file: $dir/v28-sdr-parent-$name.cache" "$work/last.out"
        check "and its digest ${digest:0:8}" 0 grep -qx "sha256: $digest" "$work/last.out"
        check "which parent_cache.json lists" 0 grep -qx 'manifest: match' "$work/last.out"
        check "the file's own SHA-256" 0 grep -q "^$digest " <(sha256sum "$dir/v28-sdr-parent-$name.cache")
        rm -rf "$dir"
}
parents_ok 494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b \
        840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97 --registered-proof StackedDrg2KiBV1_1
parents_ok 3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899 \
        3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d --registered-proof 0
parents_ok 5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5 \
        03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab --sector-size 8MiB
check "parents of a graph the manifest does not list" 0 "$cuzk" porep parents --registered-proof StackedDrg2KiBV1_1_Feat_SyntheticPoRep --out "$work/p-synth"
keep
check "says so" 0 grep -q '^manifest: not listed' "$work/last.out"
check "FIL_PROOFS_PARENT_CACHE is the default directory" 0 env FIL_PROOFS_PARENT_CACHE="$work/p-env" "$cuzk" porep parents --sector-size 2KiB
check "and the file is there" 0 test -s "$work/p-env/v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b.cache"
check "FIL_PROOFS_CACHE_DIR prefixes filecoin-parents" 0 env -u FIL_PROOFS_PARENT_CACHE FIL_PROOFS_CACHE_DIR="$work/c-" "$cuzk" porep parents --sector-size 2048
check "and the file is there" 0 test -s "$work/c-filecoin-parents/v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b.cache"
check "no temporary file left" 0 test -z "$(find "$work/p-env" "$work/c-filecoin-parents" -name '.*tmp*')"
touch "$work/plain-file"
refused() { # refused NAME ARGS...: exit 2 and a message on stderr saying what is wrong
        local name=$1
        shift
        check "parents refuses $name" 2 "$cuzk" porep parents "$@"
        keep
        check "with a message" 0 grep -q 'cuzk porep parents' "$work/last.err"
}
refused "no proof" --out "$work/p-x"
refused "both --sector-size and --registered-proof" --sector-size 2KiB --registered-proof 5 --out "$work/p-x"
refused "a 3KiB sector" --sector-size 3KiB --out "$work/p-x"
refused "an unknown proof" --registered-proof StackedDrg3KiBV1 --out "$work/p-x"
refused "an unknown option" --sector-size 2KiB --size 2 --out "$work/p-x"
refused "an argument" --sector-size 2KiB "$work/p-x"
refused "an --out that is a file" --sector-size 2KiB --out "$work/plain-file"
refused "an empty --out" --sector-size 2KiB --out ''

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
