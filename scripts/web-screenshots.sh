#!/usr/bin/env bash
# Screenshots of the web client's screens, English and Dutch, at 360×640 and
# 1280×800, into docs/web/ (taken by EndToEndBrowserLayoutTests, which
# checks each against the page's layout rules as it goes).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs/web
GHOSTD_WEB_SCREENSHOTS="$PWD/docs/web" swift test --filter EndToEndBrowserLayoutTests
ls -la docs/web
