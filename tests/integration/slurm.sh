# SPDX-License-Identifier: BSD-2-Clause
# A one-node Slurm inside the test bed guest, to launch rdmaperf-mesh with
# `srun --mpi=pmix` as a cluster would: slurmctld and slurmd of Debian's
# slurm-wlm as root, auth/none and cred/none (nothing leaves the throw-away
# guest), the state under $WORK/slurm, ports the kernel has free. Sourced by
# run-cluster.sh: uses WORK, BUILD and the lib.sh helpers.

SLURM_DIR=
SLURM_PIDS=()

# Why Slurm cannot run here, or nothing.
slurm_missing() {
	local c
	for c in slurmctld slurmd srun sinfo; do
		command -v "$c" >/dev/null 2>&1 ||
			{ echo "$c not installed (slurmctld slurmd slurm-client)"; return; }
	done
	[ -e /usr/lib/x86_64-linux-gnu/slurm-wlm/mpi_pmix.so ] ||
		echo "Slurm's PMIx plugin missing (slurm-wlm-basic-plugins)"
}

# A TCP port nobody listens on.
slurm_free_port() {
	local p
	for p in $(seq "$1" $(($1 + 200))); do
		ss -Htln "sport = :$p" | grep -q . || { echo "$p"; return; }
	done
	echo "$1"
}

slurm_stop() {
	local p
	for p in "${SLURM_PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${SLURM_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	SLURM_PIDS=()
}

# Start both daemons for NCPUS tasks on this host; true once the node is
# idle (within 60 s), else false with why in $WORK/out.
slurm_start() {
	local ncpus=$1 host state deadline
	host=$(hostname)
	SLURM_DIR=$WORK/slurm
	rm -rf "$SLURM_DIR"
	mkdir -p "$SLURM_DIR/state" "$SLURM_DIR/spool"
	cat >"$SLURM_DIR/slurm.conf" <<CONF
ClusterName=rdptest
SlurmctldHost=$host
SlurmctldPort=$(slurm_free_port 16817)
SlurmdPort=$(slurm_free_port 17817)
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/slurmctld.log
SlurmdLogFile=$SLURM_DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$host CPUs=$ncpus State=UNKNOWN
PartitionName=bed Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF
	# slurmd wants a cgroup hierarchy, which the bare guest never mounts.
	if [ ! -e /sys/fs/cgroup/cgroup.controllers ] &&
		[ -z "$(ls -A /sys/fs/cgroup 2>/dev/null)" ]; then
		mount -t cgroup2 none /sys/fs/cgroup ||
			{ echo "cannot mount cgroup2 for slurmd" >"$WORK/out"; return 1; }
		# Where systemd would put slurmstepd's scope.
		mkdir -p /sys/fs/cgroup/system.slice
	fi
	# cgroup v2 without systemd: slurmd makes its own scope.
	printf 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\n' \
		>"$SLURM_DIR/cgroup.conf"
	export SLURM_CONF=$SLURM_DIR/slurm.conf
	slurmctld -D -i >"$SLURM_DIR/slurmctld.out" 2>&1 &
	SLURM_PIDS+=($!)
	slurmd -D >"$SLURM_DIR/slurmd.out" 2>&1 &
	SLURM_PIDS+=($!)
	deadline=$((SECONDS + 60))
	while [ "$SECONDS" -lt "$deadline" ]; do
		state=$(sinfo -h -o %T 2>/dev/null | head -1)
		[ "$state" = idle ] && return 0
		# A daemon that stopped will not come back.
		kill -0 "${SLURM_PIDS[0]}" 2>/dev/null &&
			kill -0 "${SLURM_PIDS[1]}" 2>/dev/null || break
		sleep 0.2
	done
	{
		echo "the node is not idle (state '$state'): see the logs"
		tail -n 5 "$SLURM_DIR"/*.log "$SLURM_DIR"/*.out 2>/dev/null
	} >"$WORK/out"
	return 1
}

# The 4-node pairwise mesh launched by srun --mpi=pmix instead of mpirun.
t_cluster_srun() {
	local why rc
	begin "mesh: 4 nodes launched by srun --mpi=pmix (one-node Slurm): 12 cells ok"
	why=$(mesh_missing 4)
	[ -n "$why" ] || why=$(slurm_missing)
	[ -z "$why" ] || { skip "$why"; return; }
	mesh_hostname
	slurm_start 4 || { slurm_stop; fail "$(head -1 "$WORK/out")"; return; }
	DIR=$WORK/m4-srun
	rm -rf "$DIR"
	# MPI's own traffic on TCP and shared memory, as with mpirun --mca.
	RDP_MESH_NODE='node%r' OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp \
		run_limited 300 srun --mpi=pmix -n 4 \
		--overcommit "$BUILD/rdmaperf-mesh" write_bw -n 200 -s 4096 \
		--tolerance 90 -d "$(devs 4)" --output-dir "$DIR" \
		>"$WORK/out" 2>&1
	rc=$?
	slurm_stop
	[ "$rc" -eq 0 ] || { fail "srun: exit $rc"; return; }
	expect_out "12 cells, 0 flagged or failed" || return
	expect_json "$DIR/mesh.json" '.cells | length == 12' \
		'[.cells[] | .status == "ok"] | all' \
		'.nodes == ["node0","node1","node2","node3"]' || return
	pass
}
