/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The multi-rail start barrier over real socketpairs, rails played by
 * threads: all released together, a late rail and a rail that ended
 * cancel the others by name, and rounds until every rail has ended. What
 * is asserted holds on a loaded host: the order of events the barrier
 * guarantees, and times only as bounds its own waits enforce.
 */
#include <errno.h>
#include <poll.h>
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
#include <rdmaperf/clock.h>

#define RAILS 3
#define MS    1000000ull
/* Waits that end only on a failure: long enough for any load. */
#define LONG_MS 60000

/* A rail's delay: before saying ready (ms), or one of these. */
#define GONE -1 /* closes its end instead */
#define HELD -2 /* says ready only once the leader has returned */

struct rail {
	int fd;
	int delay_ms;
	int rounds;
	int ret[4];
	/* rails that had said ready (all rounds) when this one was let go */
	unsigned int ready_seen[4];
	char why[4][256];
	pthread_t tid;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t led_cv = PTHREAD_COND_INITIALIZER;
static unsigned int n_ready; /* rails about to say ready, all rounds */
static int led;		     /* the leader has returned */

static unsigned int ready_count(void)
{
	unsigned int n;

	pthread_mutex_lock(&lock);
	n = n_ready;
	pthread_mutex_unlock(&lock);
	return n;
}

static void *rail_main(void *arg)
{
	struct rail *r = arg;
	int i;

	for (i = 0; i < r->rounds; i++) {
		if (r->delay_ms == GONE)
			break;
		pthread_mutex_lock(&lock);
		while (r->delay_ms == HELD && !led)
			pthread_cond_wait(&led_cv, &lock);
		pthread_mutex_unlock(&lock);
		if (r->delay_ms > 0)
			usleep((useconds_t)r->delay_ms * 1000);
		/* counted before its 'R' goes out, so before any release */
		pthread_mutex_lock(&lock);
		n_ready++;
		pthread_mutex_unlock(&lock);
		r->ret[i] = rdp_barrier_wait(r->fd, LONG_MS, r->why[i],
					     sizeof(r->why[i]));
		r->ready_seen[i] = ready_count();
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

	n_ready = 0;
	led = 0;
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

/* The held rails go (they say ready to a leader that has returned). */
static void join(struct rail *r, int *fds)
{
	int k;

	pthread_mutex_lock(&lock);
	led = 1;
	pthread_cond_broadcast(&led_cv);
	pthread_mutex_unlock(&lock);
	for (k = 0; k < RAILS; k++) {
		assert_int_equal(pthread_join(r[k].tid, NULL), 0);
		close(fds[k]);
	}
}

/*
 * Three rounds of rails ready 0, 30 and 60 ms apart (a loaded host may
 * reorder them: nothing below depends on it). Each round releases only
 * once every rail has said ready; what the leader measured from the first
 * ready to the last lies within its own call.
 */
static void test_released_together(void **state)
{
	static const int delay[RAILS] = { 0, 30, 60 };
	struct rdp_barrier_round round;
	struct rail r[RAILS];
	int fds[RAILS], i, k;
	uint64_t t0, t1;

	(void)state;
	start(r, fds, delay, 3);
	for (i = 0; i < 3; i++) {
		t0 = rdp_clock_mono_ns();
		assert_int_equal(rdp_barrier_lead(fds, names, RAILS, LONG_MS,
						  &round),
				 0);
		t1 = rdp_clock_mono_ns();
		assert_false(round.done);
		assert_int_equal(round.culprit, -1);
		assert_true(ready_count() >= RAILS * (unsigned int)(i + 1));
		assert_true(round.spread_ns <= t1 - t0);
	}
	/* Every rail ended: no more rounds. */
	assert_int_equal(rdp_barrier_lead(fds, names, RAILS, LONG_MS, &round),
			 0);
	assert_true(round.done);
	join(r, fds);
	/* No rail was let go before all of its round had said ready. */
	for (k = 0; k < RAILS; k++)
		for (i = 0; i < 3; i++) {
			assert_int_equal(r[k].ret[i], 0);
			assert_true(r[k].ready_seen[i] >=
				    RAILS * (unsigned int)(i + 1));
		}
}

/* Until every rail but the held ones has said ready or ended: the
 * leader then reads them all at once, however the threads ran. */
static void wait_spoken(const struct rail *r, const int *fds)
{
	struct pollfd pfd;
	int k;

	for (k = 0; k < RAILS; k++) {
		if (r[k].delay_ms == HELD)
			continue;
		pfd = (struct pollfd){ .fd = fds[k], .events = POLLIN };
		assert_int_equal(poll(&pfd, 1, LONG_MS), 1);
	}
}

/* A round that one rail spoils: the leader's answer and whom it blames,
 * and the line the first n_told rails hear. A late rail is declared so
 * no sooner than bound_ms after the first rail was ready (within the
 * millisecond the leader's wait rounds down to). */
static void spoiled_round(const int *delay, int bound_ms, int want, int culprit,
			  int gone, int n_told, const char *line)
{
	struct rdp_barrier_round round;
	struct rail r[RAILS];
	int fds[RAILS], k;
	uint64_t t0;

	start(r, fds, delay, 1);
	wait_spoken(r, fds);
	t0 = rdp_clock_mono_ns();
	assert_int_equal(rdp_barrier_lead(fds, names, RAILS, bound_ms, &round),
			 want);
	if (want == -ETIMEDOUT)
		assert_true(rdp_clock_mono_ns() - t0 >=
			    (uint64_t)(bound_ms - 1) * MS);
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
	static const int delay[RAILS] = { 0, HELD, 0 };

	(void)state;
	/* Everyone, the late rail too, hears why and by whom. */
	spoiled_round(delay, 100, -ETIMEDOUT, 1, 0, RAILS,
		      "rail 1 (mlx5_1) was not ready within 100 ms");
}

static void test_rail_gone(void **state)
{
	static const int delay[RAILS] = { 0, 0, GONE };

	(void)state;
	spoiled_round(delay, LONG_MS, -ECONNRESET, 2, 1, 2,
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
