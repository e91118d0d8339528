#!/usr/bin/env bash
# Fails when a production C/C++/CUDA file is over 600 lines or holds a function over 80 lines
# (issue 19: small files with one job, functions a reader can hold at once).
#
# Files checked: every *.c *.h *.cu *.cuh *.cc *.cpp *.hpp git tracks or would track (tracked,
# plus untracked files .gitignore does not ignore, as scripts/lint-format.sh does), except
#   tests/ fuzz/ bench/    test, fuzzing and benchmark programs, not shipped code
#   test-* *-test.* testdata.*   tests and test data kept beside the code they test
#   *.pb-c.* *.S           generated protobuf code and assembly (lines there are not a choice)
# Offenders listed in scripts/lint-size.allow (a path, or path:function) are reported as
# allowed and do not fail the check: that file names work still to do, and should shrink.
#
# A function is what clang-format (.clang-format, braces attached) makes of one: its
# signature starts at column 0 on a line that is not a preprocessor line, a comment or a
# brace, its signature line(s) end with ") {" (so struct bodies and initialisers are not
# functions), and it ends at the first line that is exactly "}". Its length counts from the
# signature's first line to that "}".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

max_file_lines=600
max_function_lines=80
allow_file=scripts/lint-size.allow

mapfile -t files < <(git ls-files -co --exclude-standard -- \
        '*.c' '*.h' '*.cu' '*.cuh' '*.cc' '*.cpp' '*.hpp' |
        grep -v -E '^(tests|fuzz|bench)/|(^|/)test-[^/]*$|-test\.[^/]*$|(^|/)testdata\.[^/]*$|\.pb-c\.' |
        sort -u)
[ ${#files[@]} -gt 0 ] || exit 0

# The allow-list: one entry a line ("path" or "path:function"), "#" starts a comment.
allowed=""
if [ -f "$allow_file" ]; then
        allowed=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$allow_file")
fi

offences=$(awk -v max_file="$max_file_lines" -v max_fn="$max_function_lines" '
function report_file(path, n) {
        if (n > max_file)
                printf "%s\t%s: %d lines (at most %d)\n", path, path, n, max_file
}
FNR == 1 {
        if (NR != 1)
                report_file(prev_file, prev_lines)
        in_fn = 0
        sig = ""
        sig_start = 0
}
{
        prev_file = FILENAME
        prev_lines = FNR
}
in_fn {
        if ($0 == "}") {
                n = FNR - fn_start + 1
                if (n > max_fn)
                        printf "%s:%s\t%s:%d: function %s is %d lines (at most %d)\n",
                               FILENAME, fn_name, FILENAME, fn_start, fn_name, n, max_fn
                in_fn = 0
        }
        next
}
sig_start == 0 && /^[^ \t#\/*{}]/ {
        sig_start = FNR
        sig = ""
}
sig_start {
        sig = sig " " $0
        if ($0 ~ /\) *\{$/ && sig !~ /=/) {
                # The name is the identifier right before the first "(" that opens the
                # parameter list (attributes such as __attribute__((x)) come first only
                # after it in our style).
                head = sig
                sub(/\(.*/, "", head)
                n_words = split(head, words, /[^A-Za-z0-9_:~]+/)
                fn_name = ""
                for (i = n_words; i >= 1 && fn_name == ""; i--)
                        fn_name = words[i]
                in_fn = 1
                fn_start = sig_start
                sig_start = 0
        } else if ($0 ~ /[;{}]$/ || $0 ~ /^$/ || FNR - sig_start > 20) {
                sig_start = 0
        }
}
END {
        if (NR > 0)
                report_file(prev_file, prev_lines)
}' "${files[@]}")

status=0
while IFS=$'\t' read -r key message; do
        [ -n "$key" ] || continue
        if grep -qxF -- "$key" <<<"$allowed" || grep -qxF -- "${key%%:*}" <<<"$allowed"; then
                echo "$message (allowed: $allow_file)"
        else
                echo "$message"
                status=1
        fi
done <<<"$offences"

# An allow-list entry that no longer matches an offender is stale: say so, so the list shrinks.
while IFS= read -r entry; do
        [ -n "$entry" ] || continue
        if ! cut -f1 <<<"$offences" | grep -qxF -- "$entry" &&
                ! cut -f1 <<<"$offences" | cut -d: -f1 | grep -qxF -- "$entry"; then
                echo "$allow_file: $entry is no longer over the limits; remove it"
                status=1
        fi
done <<<"$allowed"

[ $status -eq 0 ] && echo "lint-size: ${#files[@]} files within $max_file_lines lines," \
        "functions within $max_function_lines"
exit $status
