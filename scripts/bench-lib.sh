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
