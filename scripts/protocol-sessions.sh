#!/usr/bin/env bash
# Writes Protocol.md's annotated sessions from a real run: every session
# (between <!-- session: … --> and <!-- /session -->) is played against a
# fresh ghostd on an ephemeral port with a temporary data folder, and its
# blocks are replaced by what the server sent, keeping the annotations (the
# text from ← on, and indented lines) where the line at their place has the
# same keyword. Random fields keep the document's values.
# ProtocolSessionTests (swift test) checks the same runs against the document.
# Usage: scripts/protocol-sessions.sh   (then review `git diff Protocol.md`)
set -euo pipefail
cd "$(dirname "$0")/.."
GHOSTD_WRITE_SESSIONS=1 swift test --filter 'ProtocolSessionTests/everyAnnotatedSessionIsWhatTheServerSends'
git --no-pager diff --stat -- Protocol.md
