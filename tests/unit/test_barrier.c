/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The multi-rail start barrier over real socketpairs, rails played by
 * threads: all released together, a late rail and a rail that ended
 * cancel the others by name, and rounds until every rail has ended.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <cmocka.h>

#include <rdmaperf/barrier.h>

#define RAILS 3

struct rail {
	int fd;
	int delay_ms; /* before saying ready; < 0: close instead */
	int rounds;
	int ret[4];
	char why[4][256];
	pthread_t tid;
};

static void *rail_main(void *arg)
{
	struct rail *r = arg;
	int i;

	for (i = 0; i < r->rounds; i++) {
		if (r->delay_ms < 0) {
			close(r->fd);
			return NULL;
		}
		usleep((useconds_t)r->delay_ms * 1000);
		r->ret[i] = rdp_barrier_wait(r->fd, 5000, r->why[i],
					     sizeof(r->why[i]));
		if (r->ret[i])
			break;
	}
	close(r->fd);
	return NULL;
}

static const char *const names[RAILS] = { "mlx5_0", "mlx5_1", "mlx5_2" };

/* Rails with their delays; the parent's ends in fds. */
static void start(struct rail *r, int *fds, const int *delay, int rounds)
{
	int sv[2], k;

	for (k = 0; k < RAILS; k++) {
		assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		memset(&r[k], 0, sizeof(r[k]));
		r[k].fd = sv[1];
		r[k].delay_ms = delay[k];
		r[k].rounds = rounds;
		fds[k] = sv[0];
		assert_int_equal(
			pthread_create(&r[k].tid, NULL, rail_main, &r[k]), 0);
	}
}

static void join(struct rail *r, int *fds)
{
	int k;

	for (k = 0; k < RAILS; k++) {
		assert_int_equal(pthread_join(r[k].tid, NULL), 0);
		close(fds[k]);
	}
}

static void test_released_together(void **state)
{
	static const int delay[RAILS] = { 0, 30, 60 };
	struct rdp_barrier_round round;
	struct rail r[RAILS];
	int fds[RAILS], i, k;

	(void)state;
	start(r, fds, delay, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(
			rdp_barrier_lead(fds, names, RAILS, 2000, &round), 0);
		assert_false(round.done);
		assert_int_equal(round.culprit, -1);
		/* the last rail was ready about 60 ms after the first */
		assert_true(round.spread_ns >= 50 * 1000000ull);
		assert_true(round.spread_ns < 2000 * 1000000ull);
	}
	/* Every rail ended: no more rounds. */
	assert_int_equal(rdp_barrier_lead(fds, names, RAILS, 2000, &round), 0);
	assert_true(round.done);
	join(r, fds);
	for (k = 0; k < RAILS; k++)
		for (i = 0; i < 3; i++)
			assert_int_equal(r[k].ret[i], 0);
}

/* A round that one rail spoils: the leader's answer and whom it blames,
 * and the line the first n_told rails hear. */
static void spoiled_round(const int *delay, int timeout_ms, int want,
			  int culprit, int gone, int n_told, const char *line)
{
	struct rdp_barrier_round round;
	struct rail r[RAILS];
	int fds[RAILS], k;

	start(r, fds, delay, 1);
	assert_int_equal(
		rdp_barrier_lead(fds, names, RAILS, timeout_ms, &round), want);
	assert_int_equal(round.culprit, culprit);
	assert_int_equal(!!round.gone, gone);
	join(r, fds);
	for (k = 0; k < n_told; k++) {
		assert_int_equal(r[k].ret[0], -ECANCELED);
		assert_non_null(strstr(r[k].why[0], line));
	}
}

static void test_late_rail(void **state)
{
	static const int delay[RAILS] = { 0, 600, 0 };

	(void)state;
	/* Everyone, the late rail too, hears why and by whom. */
	spoiled_round(delay, 100, -ETIMEDOUT, 1, 0, RAILS,
		      "rail 1 (mlx5_1) was not ready within 100 ms");
}

static void test_rail_gone(void **state)
{
	static const int delay[RAILS] = { 0, 0, -1 };

	(void)state;
	spoiled_round(delay, 2000, -ECONNRESET, 2, 1, 2,
		      "rail 2 (mlx5_2) ended before the start barrier");
}

/* A rail whose parent is gone, or that has no barrier at all. */
static void test_rail_side(void **state)
{
	char why[64];
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	close(sv[0]);
	assert_int_equal(rdp_barrier_wait(sv[1], 100, why, sizeof(why)),
			 -ECONNRESET);
	close(sv[1]);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(rdp_barrier_wait(sv[1], 100, why, sizeof(why)),
			 -ETIMEDOUT);
	close(sv[0]);
	close(sv[1]);
	unsetenv(RDP_BARRIER_ENV);
	assert_int_equal(rdp_barrier_from_env(), -1);
	setenv(RDP_BARRIER_ENV, "7", 1);
	assert_int_equal(rdp_barrier_from_env(), 7);
	setenv(RDP_BARRIER_ENV, "7x", 1);
	assert_int_equal(rdp_barrier_from_env(), -1);
	unsetenv(RDP_BARRIER_ENV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_released_together),
		cmocka_unit_test(test_late_rail),
		cmocka_unit_test(test_rail_gone),
		cmocka_unit_test(test_rail_side),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
