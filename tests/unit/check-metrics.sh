#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Parse an --metrics file with prometheus_client's OpenMetrics parser and
# print each family's name, type and sample count. Exit 77 (skip) when no
# python3 has the module (scripts/install-deps.sh installs Debian's
# python3-prometheus-client).
file=${1:?usage: check-metrics.sh FILE}
for py in python3 /usr/bin/python3; do
	if "$py" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
		exec "$py" - "$file" <<'PY'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families

with open(sys.argv[1]) as f:
    text = f.read()
for fam in text_string_to_metric_families(text):
    print(fam.name, fam.type, len(fam.samples))
PY
	fi
done
echo "SKIP: no python3 with prometheus_client (install python3-prometheus-client)"
exit 77
