#!/usr/bin/env bash
# Replaces what lies between the `results` markers of a report with the table on standard
# input, under a line saying when and with which command it was measured.
# Usage: <table> | benchmarking/write-results.sh REPORT COMMAND
set -euo pipefail
report="$1"
command="$2"
table=$(cat)
if [[ -z "$table" ]]; then
	echo "write-results: no table on standard input; $report left as it was" >&2
	exit 1
fi
{
	sed '/<!-- results -->/q' "$report"
	echo
	echo "Measured $(date -u +%Y-%m-%d) with \`$command\`."
	echo
	echo "$table"
	echo
	sed -n '/<!-- \/results -->/,$p' "$report"
} >"$report.new"
mv "$report.new" "$report"
echo "wrote $report"
