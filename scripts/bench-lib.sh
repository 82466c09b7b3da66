# Shared by the load benchmarks (sourced, not run): builds and ports.

# A free loopback TCP port.
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Builds ghostd at git ref $1 once, in .build-ab/<ref> (a detached worktree),
# and sets `old` to that folder.
build_old() {
    old=.build-ab/$1
    if [ ! -x "$old/.build/release/ghostd" ]; then
        rm -rf "$old"; mkdir -p .build-ab
        git worktree add --detach "$old" "$1" >/dev/null 2>&1 || git -C "$old" checkout -q "$1"
        (cd "$old" && swift build -c release --product ghostd >/dev/null 2>&1)
    fi
}

# This tree's ghostd and ghost-bench, release builds.
build_new() {
    swift build -c release --product ghostd >/dev/null 2>&1
    swift build -c release --product ghost-bench >/dev/null 2>&1
}

# The start of a benchmark on a scratch data folder: release builds, `bench`
# (ghost-bench), `data` (a folder removed at exit), `gpid` (a ghostd to stop
# at exit, once set), and the machine's load.
bench_scratch() {
    build_new
    bench=.build/release/ghost-bench
    data=$(mktemp -d)
    gpid=
    trap '[ -n "$gpid" ] && kill $gpid 2>/dev/null; wait 2>/dev/null; rm -rf "$data"' EXIT
    echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
