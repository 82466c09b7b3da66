#!/bin/sh
# Records real ghost-client sessions for the layout test (issue #44); see
# scripts/record_client_sessions.py and docs/testing.md. Builds first.
set -e
cd "$(dirname "$0")/.."
swift build >/dev/null
exec python3 scripts/record_client_sessions.py "$@"
