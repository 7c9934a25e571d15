# SPDX-License-Identifier: BSD-2-Clause
# The doctor's topology lines (hwloc: PCIe path, GPUs near the NIC) and its
# C-state line on a real rxe device. Sourced by run.sh: uses DEV, WORK,
# BUILD and expect_jq from placement.sh.

t_topo_doctor_json() {
	local idle=false
	# The doctor checks the idle states of CPU 0 when the NIC has no
	# local CPUs, as rxe has none.
	[ -d /sys/devices/system/cpu/cpu0/cpuidle ] && idle=true
	begin "doctor --json: the topology object and the pcie_path, gpus and cstates checks"
	run_limited 30 "$BUILD/rdmaperf" doctor -d "$DEV" --json >"$WORK/out" 2>"$WORK/err" ||
		{ fail "exit $?: $(cat "$WORK/err")"; return; }
	expect_jq "$WORK/out" \
		'.topology | type == "object"' \
		'.topology.gpus | type == "array"' \
		'[.checks[] | select(.id == "pcie_path" or .id == "gpus" or .id == "cstates")] | length == 3' \
		'. as $d | if .topology.nic == null then
			(.checks[] | select(.id == "pcie_path") | .verdict == "SKIP" and (.value | contains($d.device)))
		 else
			(.checks[] | select(.id == "pcie_path") | .value | contains($d.topology.nic.pcie_path[0].bus_id))
		 end' \
		'. as $d | if (.topology.gpus | length) == 0 then
			(.checks[] | select(.id == "gpus") | .verdict == "SKIP" and (.value | test("^none found")))
		 else
			(.checks[] | select(.id == "gpus") | .value | contains($d.topology.gpus[0].bus_id))
		 end' \
		".checks[] | select(.id == \"cstates\") | (.verdict == \"SKIP\") == ($idle | not)" \
		'.checks[] | select(.id == "cstates") | .verdict != "WARN" or (.fix | test("cpupower idle-set"))' \
		'.summary.fail == 0' \
		>"$WORK/why" || { fail "$(cat "$WORK/why")"; return; }
	pass
}

t_topo_doctor_text() {
	begin "doctor text: PCIe path, GPUs near NIC and C-states lines"
	run_limited 30 "$BUILD/rdmaperf" doctor -d "$DEV" >"$WORK/out" 2>&1 ||
		{ fail "exit $?"; return; }
	expect_out "^ (PASS|WARN|SKIP)  PCIe path  " \
		"^ (PASS|WARN|SKIP)  GPUs near NIC  " \
		"^ (PASS|WARN|SKIP)  C-states  " || return
	pass
}

t_topo() {
	t_topo_doctor_json
	t_topo_doctor_text
}
