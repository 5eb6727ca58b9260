#!/bin/sh
# npm run bench -- [options]: raises the open-file limit as far as this machine allows (tens of
# thousands of sockets), then runs the benchmark with tsx (it imports the server's TypeScript).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
cd "$(dirname "$0")/.." || exit 1
exec node --import tsx bench/main.ts "$@"
