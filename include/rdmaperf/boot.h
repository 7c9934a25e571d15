/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The bootstrap of a mesh: how many processes, which one this is, which
 * share its host, and the few collectives a mesh needs (allgather of the
 * endpoints, a barrier per round, results gathered at rank 0, the retest
 * schedule sent from it). MPI fills
 * it (boot_mpi.c, built with MPI only); a PMIx-only backend could too.
 * Every collective takes a deadline. After -ETIMEDOUT the collective may
 * still be pending inside the backend (MPI cannot cancel one): the caller
 * gives up on the job and calls ->abort.
 * Layer: mesh
 */
#ifndef RDMAPERF_BOOT_H
#define RDMAPERF_BOOT_H

#include <stddef.h>

struct rdp_boot;

struct rdp_boot_ops {
	const char *name;
	/* Every rank's len bytes into all (size x len, in rank order). */
	int (*allgather)(struct rdp_boot *b, const void *mine, size_t len,
			 void *all, int timeout_ms);
	/*
	 * Every rank's bytes, of any length (0 too), at rank 0: *all_out
	 * (malloc'd, the caller frees) holds them one after another,
	 * lens[size] their lengths. Other ranks get neither.
	 */
	int (*gather)(struct rdp_boot *b, const void *mine, size_t len,
		      char **all_out, size_t *lens, int timeout_ms);
	/* Rank 0's len bytes into buf on every other rank; every rank
	 * passes the same len. */
	int (*bcast)(struct rdp_boot *b, void *buf, size_t len, int timeout_ms);
	int (*barrier)(struct rdp_boot *b, int timeout_ms);
	/* End the whole job with code: after a collective timed out. */
	void (*abort)(struct rdp_boot *b, int code);
	/* Leave the job and free b. NULL is fine. */
	void (*close)(struct rdp_boot *b);
};

struct rdp_boot {
	const struct rdp_boot_ops *ops;
	int size, rank;
	int local_size, local_rank; /* among the ranks of this host */
	void *priv;		    /* the backend's */
};

/*
 * MPI: MPI_Init_thread (only this thread calls MPI), errors returned, not
 * fatal. 0, or -EIO with the MPI error logged. Built with MPI only.
 */
int rdp_boot_mpi_open(int *argc, char ***argv, struct rdp_boot **out);

#endif /* RDMAPERF_BOOT_H */
