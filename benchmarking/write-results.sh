#!/usr/bin/env bash
# Replaces what lies between the `results` markers of a report (or those named MARKERS:
# `<!-- MARKERS -->` … `<!-- /MARKERS -->`) with the table on standard input, under a line
# saying when and with which command it was measured.
# Usage: <table> | benchmarking/write-results.sh REPORT COMMAND [MARKERS]
set -euo pipefail
report="$1"
command="$2"
markers="${3:-results}"
if ! grep -qxF "<!-- $markers -->" "$report" || ! grep -qxF "<!-- /$markers -->" "$report"; then
	echo "write-results: no <!-- $markers --> … <!-- /$markers --> in $report" >&2
	exit 1
fi
table=$(cat)
if [[ -z "$table" ]]; then
	echo "write-results: no table on standard input; $report left as it was" >&2
	exit 1
fi
{
	sed "/^<!-- $markers -->\$/q" "$report"
	echo
	echo "Measured $(date -u +%Y-%m-%d) with \`$command\`."
	echo
	echo "$table"
	echo
	sed -n "/^<!-- \/$markers -->\$/,\$p" "$report"
} >"$report.new"
mv "$report.new" "$report"
echo "wrote $report"
