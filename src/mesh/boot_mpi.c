/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The mesh's bootstrap on MPI: nonblocking collectives polled against a
 * deadline, MPI_ERRORS_RETURN so that a failure is a value. Unbounded
 * still: MPI_Init_thread, MPI_Comm_split_type, MPI_Finalize (no
 * nonblocking forms) and MPI_Abort.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include <rdmaperf/boot.h>
#include <rdmaperf/log.h>

struct boot_mpi {
	struct rdp_boot b;
	MPI_Comm world; /* a duplicate: ours alone */
	MPI_Comm local; /* the ranks of this host */
};

static struct boot_mpi *mpi_of(struct rdp_boot *b)
{
	return (struct boot_mpi *)b;
}

static int mpi_fail(const char *what, int rc)
{
	char text[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
		snprintf(text, sizeof(text), "error %d", rc);
	rdp_err("mpi: %s: %s", what, text);
	return -EIO;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Poll r until done or past timeout_ms; a pause of 1 ms between looks
 * keeps an idle rank off the CPU the measuring thread needs. */
static int wait_req(MPI_Request *r, int timeout_ms, const char *what)
{
	const struct timespec pause = { .tv_nsec = 1000000 };
	int64_t deadline = now_ms() + timeout_ms;
	int done = 0, rc;

	for (;;) {
		rc = MPI_Test(r, &done, MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS)
			return mpi_fail(what, rc);
		if (done)
			return 0;
		if (now_ms() > deadline) {
			rdp_err("mpi: %s: not every rank took part within %d "
				"s: a rank died or hangs",
				what, timeout_ms / 1000);
			return -ETIMEDOUT;
		}
		nanosleep(&pause, NULL);
	}
}

static int mpi_allgather(struct rdp_boot *b, const void *mine, size_t len,
			 void *all, int timeout_ms)
{
	MPI_Request r;
	int rc;

	if (len > INT32_MAX)
		return -E2BIG;
	rc = MPI_Iallgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE,
			    mpi_of(b)->world, &r);
	if (rc != MPI_SUCCESS)
		return mpi_fail("allgather", rc);
	return wait_req(&r, timeout_ms, "allgather");
}

/* The lengths first, then the bytes at their offsets. */
static int mpi_gather(struct rdp_boot *b, const void *mine, size_t len,
		      char **all_out, size_t *lens, int timeout_ms)
{
	MPI_Comm w = mpi_of(b)->world;
	int n = b->size, mine_len = (int)len, *counts = NULL, *offs = NULL;
	char *all = NULL;
	size_t total = 0;
	MPI_Request r;
	int i, rc, ret;

	if (len > INT32_MAX)
		return -E2BIG;
	if (!b->rank) {
		counts = calloc((size_t)n, sizeof(*counts));
		offs = calloc((size_t)n, sizeof(*offs));
		if (!counts || !offs) {
			ret = -ENOMEM; /* the others wait, then time out */
			goto out;
		}
	}
	rc = MPI_Igather(&mine_len, 1, MPI_INT, counts, 1, MPI_INT, 0, w, &r);
	ret = rc != MPI_SUCCESS ? mpi_fail("gather", rc)
				: wait_req(&r, timeout_ms, "gather");
	if (ret)
		goto out;
	for (i = 0; counts && i < n; i++) {
		offs[i] = (int)total;
		total += (size_t)counts[i];
		if (total > INT32_MAX) {
			ret = -E2BIG;
			goto out;
		}
	}
	if (!b->rank && !(all = malloc(total + 1))) {
		ret = -ENOMEM;
		goto out;
	}
	rc = MPI_Igatherv(mine, mine_len, MPI_BYTE, all, counts, offs, MPI_BYTE,
			  0, w, &r);
	ret = rc != MPI_SUCCESS ? mpi_fail("gather", rc)
				: wait_req(&r, timeout_ms, "gather");
	if (!ret && !b->rank) {
		for (i = 0; i < n; i++)
			lens[i] = (size_t)counts[i];
		*all_out = all;
		all = NULL;
	}
out:
	free(all);
	free(counts);
	free(offs);
	return ret;
}

static int mpi_bcast(struct rdp_boot *b, void *buf, size_t len, int timeout_ms)
{
	MPI_Request r;
	int rc;

	if (len > INT32_MAX)
		return -E2BIG;
	rc = MPI_Ibcast(buf, (int)len, MPI_BYTE, 0, mpi_of(b)->world, &r);
	if (rc != MPI_SUCCESS)
		return mpi_fail("broadcast", rc);
	return wait_req(&r, timeout_ms, "broadcast");
}

static int mpi_barrier(struct rdp_boot *b, int timeout_ms)
{
	MPI_Request r;
	int rc;

	rc = MPI_Ibarrier(mpi_of(b)->world, &r);
	if (rc != MPI_SUCCESS)
		return mpi_fail("barrier", rc);
	return wait_req(&r, timeout_ms, "barrier");
}

static void mpi_abort(struct rdp_boot *b, int code)
{
	MPI_Abort(b ? mpi_of(b)->world : MPI_COMM_WORLD, code);
}

static void mpi_close(struct rdp_boot *b)
{
	struct boot_mpi *m = (struct boot_mpi *)b;

	if (!m)
		return;
	if (m->local != MPI_COMM_NULL)
		MPI_Comm_free(&m->local);
	if (m->world != MPI_COMM_NULL)
		MPI_Comm_free(&m->world);
	MPI_Finalize();
	free(m);
}

static const struct rdp_boot_ops mpi_ops = {
	.name = "mpi",
	.allgather = mpi_allgather,
	.gather = mpi_gather,
	.bcast = mpi_bcast,
	.barrier = mpi_barrier,
	.abort = mpi_abort,
	.close = mpi_close,
};

static int mpi_setup(struct boot_mpi *m)
{
	int rc;

	rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_dup(MPI_COMM_WORLD, &m->world);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_set_errhandler(m->world, MPI_ERRORS_RETURN);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_size(m->world, &m->b.size);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_rank(m->world, &m->b.rank);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_split_type(m->world, MPI_COMM_TYPE_SHARED,
					 m->b.rank, MPI_INFO_NULL, &m->local);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_size(m->local, &m->b.local_size);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_rank(m->local, &m->b.local_rank);
	return rc == MPI_SUCCESS ? 0 : mpi_fail("set up the communicators", rc);
}

int rdp_boot_mpi_open(int *argc, char ***argv, struct rdp_boot **out)
{
	struct boot_mpi *m;
	int provided, rc;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->b.ops = &mpi_ops;
	m->world = m->local = MPI_COMM_NULL;
	/* The serving thread never calls MPI. */
	rc = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
	if (rc != MPI_SUCCESS) {
		free(m);
		return mpi_fail("init", rc);
	}
	if (mpi_setup(m)) {
		mpi_close(&m->b);
		return -EIO;
	}
	*out = &m->b;
	return 0;
}
