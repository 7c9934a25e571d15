# SPDX-License-Identifier: BSD-2-Clause
# rdmaperf-mesh under mpirun on the test bed: each rxe device stands for a
# node (RDP_MESH_NODE=node%r). Sourced by run.sh: uses WORK, BUILD and
# expect_json.

# mpirun as root, MPI's own traffic on TCP and shared memory, never on
# the devices under test.
mesh_mpirun() {
	local np=$1
	shift
	RDP_MESH_NODE='node%r' run_limited 300 mpirun --allow-run-as-root \
		--oversubscribe -np "$np" -x RDP_MESH_NODE --mca pml ob1 \
		--mca btl self,vader,tcp "$BUILD/rdmaperf-mesh" "$@" \
		>"$WORK/out" 2>&1
}

# Open MPI refuses a host named "(none)", the name of a guest that was
# never given one: name the throw-away guest, never a real host.
mesh_hostname() {
	if [ "${RDP_RXE_MODE:-}" = qemu ] && [ "$(hostname)" = "(none)" ]; then
		hostname rdp-guest
	fi
}

# Why a mesh of N nodes (default 2) cannot run here, or nothing.
mesh_missing() {
	local n=${1:-2}
	if [ ! -x "$BUILD/rdmaperf-mesh" ]; then
		echo "rdmaperf-mesh not built (configure found no MPI: install libopenmpi-dev)"
	elif ! command -v mpirun >/dev/null 2>&1; then
		echo "mpirun not installed (openmpi-bin)"
	elif ! eval "[ -n \"\${RDP_RXE_DEV$((n - 1)):-}\" ]"; then
		echo "needs $n devices (rxe-run --devices $n)"
	fi
}

# mesh_begin DIR TITLE: begin the case TITLE with DIR empty; returns 1
# (the case skipped, with the reason) when a 2-node mesh cannot run here.
mesh_begin() {
	local why
	begin "$2"
	why=$(mesh_missing)
	[ -z "$why" ] || { skip "$why"; return 1; }
	rm -rf "$1"
	mesh_hostname
}

# Two nodes, pairwise: two rounds (A->B, then B->A), two cells, each a
# full rdmaperf result with its data check, and a journal line a round.
t_mesh_pairwise() {
	local dir=$WORK/mesh
	mesh_begin "$dir" \
		"mesh: 2 nodes pairwise, write_bw: 2 cells ok, journal, files" || return
	mesh_mpirun 2 write_bw -d "$RDP_RXE_DEV0,$RDP_RXE_DEV1" -n 200 \
		-s 4096 --tolerance 90 --output-dir "$dir" ||
		{ fail "exit $?"; return; }
	expect_out "^rail 0: sender rows, receiver columns" \
		"2 cells, 0 flagged or failed" || return
	expect_json "$dir/mesh.json" \
		'.nodes | length == 2' \
		'.cells | length == 2' \
		'[.cells[] | .status == "ok"] | all' \
		'[.cells[].tx] | sort == ["node0", "node1"]' \
		'[.cells[] | .result.results[-1].bw_avg_gbps > 0] | all' \
		'[.cells[] | .result.results[-1].data_check.ok] | all' \
		|| return
	[ "$(wc -l <"$dir/rounds.jsonl")" = 2 ] ||
		{ fail "rounds.jsonl: $(wc -l <"$dir/rounds.jsonl") lines, not 2"; return; }
	expect_file "$dir/cells.csv" "^node0,node1,0,1,ok," \
		"^node1,node0,0,2,ok," || return
	[ -s "$dir/matrix-rail0.csv" ] && [ -s "$dir/outliers.txt" ] ||
		{ fail "matrix-rail0.csv or outliers.txt missing"; return; }
	pass
}

# The same over RDMA CM (-R): each side binds its own device's address,
# though both devices share one subnet.
t_mesh_cm() {
	local dir=$WORK/mesh-cm
	mesh_begin "$dir" \
		"mesh: 2 nodes, write_bw -R: connected through RDMA CM, 2 cells ok" || return
	mesh_mpirun 2 write_bw -R -d "$RDP_RXE_DEV0,$RDP_RXE_DEV1" -n 200 \
		-s 4096 --tolerance 90 --output-dir "$dir" ||
		{ fail "exit $?"; return; }
	expect_json "$dir/mesh.json" '.cells | length == 2' \
		'[.cells[] | .status == "ok"] | all' \
		'[.cells[] | .result.results[-1].data_check.ok] | all' || return
	pass
}

# A device that is not there: every rank ends as rdmaperf would (exit 1),
# the missing device named by its rank and by rank 0, no round run.
t_mesh_missing_device() {
	local dir=$WORK/mesh-nodev rc
	mesh_begin "$dir" \
		"mesh: a device that is not there: every rank exits 1, the device named" || return
	mesh_mpirun 2 write_bw -d "$RDP_RXE_DEV0,nosuchdev" -n 200 \
		--output-dir "$dir"
	rc=$?
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; return; }
	expect_out "device 'nosuchdev' not found" \
		"rank 1 \\(.*, nosuchdev\\) could not start" || return
	[ ! -s "$dir/rounds.jsonl" ] || { fail "a round ran"; return; }
	pass
}

t_mesh() {
	t_mesh_pairwise
	t_mesh_cm
	t_mesh_missing_device
}
