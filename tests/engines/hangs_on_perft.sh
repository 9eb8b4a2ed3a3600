#!/bin/sh
# Answers the handshake, then starts a divide and never finishes it.
while read -r cmd rest; do
    case "$cmd" in
        uci) echo "uciok" ;;
        isready) echo "readyok" ;;
        go) echo "a2a3: 1" ;;
        quit) exit 0 ;;
    esac
done
