/* SPDX-License-Identifier: BSD-2-Clause */
/* A connection kept on its device (conn_keep.c), without a device: which
 * settings let one be reused, which are never kept, and the one kept
 * slot taken, replaced and freed. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rdmaperf/engine.h>

#include "engine_int.h"

static struct rdp_conn_cfg plain(void)
{
	return (struct rdp_conn_cfg){ .num_qps = 1,
				      .msg_bytes = 65536,
				      .tx_depth = 128,
				      .gid_index = -1,
				      .access = IBV_ACCESS_LOCAL_WRITE };
}

static int same_key(const struct rdp_conn_cfg *a, const struct rdp_conn_cfg *b)
{
	struct rdp_conn_key ka, kb;

	memset(&ka, 0xa5, sizeof(ka)); /* padding must not matter */
	memset(&kb, 0x5a, sizeof(kb));
	rdp_conn_key_of(a, &ka);
	rdp_conn_key_of(b, &kb);
	return !memcmp(&ka, &kb, sizeof(ka));
}

/* The address for the GID counts by value, not by where it is. */
static void test_key(void **state)
{
	struct rdp_ip ip1 = { .raw = { 10, 77, 0, 1 } }, ip2 = ip1;
	struct rdp_ip other = { .raw = { 10, 77, 0, 2 } };
	struct rdp_conn_cfg a = plain(), b = plain();

	(void)state;
	assert_true(same_key(&a, &b));
	a.local_ip = &ip1;
	assert_false(same_key(&a, &b));
	b.local_ip = &ip2;
	assert_true(same_key(&a, &b));
	b.local_ip = &other;
	assert_false(same_key(&a, &b));
	b = a;
	b.msg_bytes = 4096;
	assert_false(same_key(&a, &b));
	b = a;
	b.access |= IBV_ACCESS_REMOTE_WRITE;
	assert_false(same_key(&a, &b));
	b = a;
	b.num_cqs = 2;
	assert_false(same_key(&a, &b));
}

static void test_keepable(void **state)
{
	struct rdp_conn_cfg c = plain();

	(void)state;
	assert_true(rdp_conn_keepable(&c));
	c.defer_qps = 1;
	assert_false(rdp_conn_keepable(&c));
	c = plain();
	c.use_srq = 1;
	assert_false(rdp_conn_keepable(&c));
	c = plain();
	c.events = 1;
	assert_false(rdp_conn_keepable(&c));
}

/* A connection with nothing behind it, as built for cfg on dev. */
static struct rdp_conn *bare(struct rdp_dev *dev,
			     const struct rdp_conn_cfg *cfg)
{
	struct rdp_conn *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	c->dev = dev;
	rdp_conn_key_of(cfg, &c->key);
	c->keepable = rdp_conn_keepable(cfg);
	return c;
}

/* Destroyed on a keeping device, it waits there; the same shape takes
 * it, another frees it; one kept at a time; the device's close frees it
 * (rdp_dev_drop_kept). */
static void test_slot(void **state)
{
	struct rdp_dev dev = { .keep_conns = 1 };
	struct rdp_conn_cfg cfg = plain(), other = plain();
	struct rdp_conn *a, *b;

	(void)state;
	other.msg_bytes = 4096;
	assert_null(rdp_conn_take_kept(&dev, &cfg));
	a = bare(&dev, &cfg);
	rdp_conn_destroy(a);
	assert_ptr_equal(dev.kept, a);
	assert_ptr_equal(rdp_conn_take_kept(&dev, &cfg), a);
	assert_null(dev.kept);
	a->keepable = 1; /* as rdp_conn_create() leaves a taken one */
	rdp_conn_destroy(a);
	b = bare(&dev, &cfg);
	rdp_conn_destroy(b); /* a is freed, b kept */
	assert_ptr_equal(dev.kept, b);
	assert_null(rdp_conn_take_kept(&dev, &other)); /* b freed */
	assert_null(dev.kept);
	a = bare(&dev, &cfg);
	a->keepable = 0; /* a half-built one, or RDMA CM's */
	rdp_conn_destroy(a);
	assert_null(dev.kept);
	a = bare(&dev, &cfg);
	dev.keep_conns = 0; /* a device whose owner keeps nothing */
	rdp_conn_destroy(a);
	assert_null(dev.kept);
	dev.keep_conns = 1;
	a = bare(&dev, &cfg);
	rdp_conn_destroy(a);
	rdp_dev_drop_kept(&dev);
	assert_null(dev.kept);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_keepable),
		cmocka_unit_test(test_slot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
