# run-lib.sh - the helpers of the test scripts (sourced, not run; the
# benchmark scripts use `have` too). A check prints one line, "PASS name",
# "FAIL name" or "SKIP name (why)", which tests/run.sh counts; `status`
# becomes 1 at the first FAIL, for the script's exit status.
status=0

# have CMD: CMD is on PATH.
have() { command -v "$1" >/dev/null 2>&1; }

pass() { echo "PASS $*"; }
skip() { echo "SKIP $*"; }

# fail NAME [LOG]: a FAIL line, then the first lines of LOG, indented.
fail() {
    echo "FAIL $1"
    status=1
    [ -n "${2:-}" ] && [ -s "$2" ] && sed -n '1,15p' "$2" | sed 's/^/    /'
    return 0
}

# begins_with FILE PREFIX: FILE starts with every byte of PREFIX (what a
# reference tool printed before it failed).
begins_with() {
    head -c "$(wc -c < "$2")" "$1" | cmp -s - "$2"
}

# out_dir NAME: T, the script's output folder build/NAME (build/NAME-TAG
# with TDEC_TAG), made empty; X, the CLI to test ($TRACEDEC, default
# build/tracedec: make check also names the sanitized one).
out_dir() {
    T=build/$1${TDEC_TAG:+-$TDEC_TAG}
    X=${TRACEDEC:-build/tracedec}
    rm -rf "$T"
    mkdir -p "$T"
}

# need BINARY NAME: fails NAME unless the Makefile built BINARY.
need() {
    [ -x "$1" ] && return 0
    fail "$2 ($1 is not built: make $1)"
    return 1
}
