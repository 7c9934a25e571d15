/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fabric's lookups at cluster size: a 20 000-host list made here
 * (2 rails, 32 hosts a leaf, 4 uplinks a leaf) finds its first, middle
 * and last hosts and switches by name, not one that is not there, and
 * binds a mesh's nodes by whole and short names, in any order; an
 * ibnetdiscover file of 2 000 CAs finds its switches by GUID.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"

#include <rdmaperf/mesh_topo.h>

#define HOSTS	 20000u
#define RAILS	 2u
#define PER_LEAF 32u
#define UPLINKS	 4u
#define LEAVES	 ((HOSTS + PER_LEAF - 1) / PER_LEAF)

/* Text grown line by line. */
struct text {
	char *s;
	size_t n, cap;
};

static void add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (t->cap - t->n < 256) {
		t->cap = t->cap ? 2 * t->cap : 1 << 20;
		t->s = realloc(t->s, t->cap);
		assert_non_null(t->s);
	}
	va_start(ap, fmt);
	k = vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
	va_end(ap);
	assert_true(k > 0 && (size_t)k < t->cap - t->n);
	t->n += (size_t)k;
}

/* Host i is node<i>, but the last is node19999.rack9 (a long name). */
static struct rdp_mesh_topo *big_list(void)
{
	struct rdp_mesh_topo *t = NULL;
	struct text x = { 0 };
	unsigned int i, r, l, s;
	char why[256] = "";

	for (i = 0; i < HOSTS; i++)
		for (r = 0; r < RAILS; r++)
			add(&x, "node%u%s %u leaf%u-%u %u\n", i,
			    i == HOSTS - 1 ? ".rack9" : "", r, i / PER_LEAF, r,
			    1 + i % PER_LEAF);
	for (l = 0; l < LEAVES; l++)
		for (r = 0; r < RAILS; r++)
			for (s = 0; s < UPLINKS; s++)
				add(&x, "leaf%u-%u %u spine%u-%u %u\n", l, r,
				    PER_LEAF + 1 + s, r, s, 1 + l);
	if (rdp_mesh_topo_parse(x.s, "big", &t, why, sizeof(why)))
		fail_msg("%s", why);
	free(x.s);
	return t;
}

static void test_find(void **state)
{
	struct rdp_mesh_topo *t = big_list();
	const struct rdp_mesh_topo_port *p;

	(void)state;
	assert_int_equal(rdp_mesh_topo_n_hosts(t), HOSTS);
	assert_int_equal(rdp_mesh_topo_n_switches(t),
			 LEAVES * RAILS + RAILS * UPLINKS);
	assert_int_equal(rdp_mesh_topo_n_links(t), LEAVES * RAILS * UPLINKS);
	assert_int_equal(rdp_mesh_topo_find_host(t, "node0"), 0);
	assert_int_equal(rdp_mesh_topo_find_host(t, "node1"), 1);
	assert_int_equal(rdp_mesh_topo_find_host(t, "node10000"), 10000);
	assert_int_equal(rdp_mesh_topo_find_host(t, "node19998"), 19998);
	assert_int_equal(rdp_mesh_topo_find_host(t, "node19999.rack9"), 19999);
	assert_string_equal(rdp_mesh_topo_host_name(t, 19999),
			    "node19999.rack9");
	/* Whole names only: no prefix, no short form, no switch. */
	assert_int_equal(rdp_mesh_topo_find_host(t, "node19999"), -ENOENT);
	assert_int_equal(rdp_mesh_topo_find_host(t, "node20000"), -ENOENT);
	assert_int_equal(rdp_mesh_topo_find_host(t, "node"), -ENOENT);
	assert_int_equal(rdp_mesh_topo_find_host(t, ""), -ENOENT);
	assert_int_equal(rdp_mesh_topo_find_host(t, "leaf0-0"), -ENOENT);
	/* Switches in the order the file names them: leaves, then spines. */
	assert_int_equal(rdp_mesh_topo_find_switch(t, "leaf0-0"), 0);
	assert_int_equal(rdp_mesh_topo_find_switch(t, "leaf312-1"),
			 312 * RAILS + 1);
	assert_int_equal(rdp_mesh_topo_find_switch(t, "leaf624-1"),
			 LEAVES * RAILS - 1);
	assert_int_equal(rdp_mesh_topo_find_switch(t, "spine0-0"),
			 LEAVES * RAILS);
	assert_int_equal(rdp_mesh_topo_find_switch(t, "leaf625-0"), -ENOENT);
	assert_int_equal(rdp_mesh_topo_find_switch(t, "node0"), -ENOENT);
	assert_true(rdp_mesh_topo_is_leaf(t, LEAVES * RAILS - 1));
	assert_false(rdp_mesh_topo_is_leaf(t, LEAVES * RAILS));
	p = rdp_mesh_topo_host_port(t, 19999, 1);
	assert_non_null(p);
	assert_int_equal(p->sw, LEAVES * RAILS - 1);
	assert_int_equal(p->port, 1 + 19999 % PER_LEAF);
	rdp_mesh_topo_free(t);
}

/* Node n of p sits on host h's rail-1 leaf and port. */
static void expect_bound(const struct rdp_mesh_topo *t,
			 const struct rdp_mesh_place *p, unsigned int n,
			 unsigned int h)
{
	const struct rdp_mesh_topo_port *at = rdp_mesh_topo_host_port(t, h, 1);
	struct rdp_mesh_hop hops[8];
	struct rdp_mesh_path path;

	assert_int_equal(rdp_mesh_place_path(p, n, 0, 1, &path, hops, 8), 0);
	assert_int_equal(path.tx_leaf, at->sw);
	assert_int_equal(path.tx_port, at->port);
}

static void test_bind(void **state)
{
	struct rdp_mesh_topo *t = big_list();
	struct rdp_mesh_place *p = NULL;
	const char **names = calloc(HOSTS, sizeof(*names));
	const char *missing[] = { "node0", "node20000" };
	char *buf = calloc(HOSTS, 32);
	char why[256] = "";
	unsigned int n;

	(void)state;
	assert_true(names && buf);
	/* Every host, last first; some by a longer or a short name. */
	for (n = 0; n < HOSTS; n++) {
		names[n] = buf + (size_t)n * 32;
		snprintf(buf + (size_t)n * 32, 32, "node%u%s", HOSTS - 1 - n,
			 n % 1000 == 7 ? ".cluster.example" : "");
	}
	names[0] = "node19999"; /* the file's node19999.rack9, short */
	assert_int_equal(rdp_mesh_place_create(t, names, HOSTS, RAILS, &p, why,
					       sizeof(why)),
			 0);
	expect_bound(t, p, 0, 19999);
	expect_bound(t, p, 7, HOSTS - 1 - 7);
	expect_bound(t, p, HOSTS / 2, HOSTS / 2 - 1);
	expect_bound(t, p, HOSTS - 1, 0);
	rdp_mesh_place_free(p);
	p = NULL;
	assert_int_equal(rdp_mesh_place_create(t, missing, 2, RAILS, &p, why,
					       sizeof(why)),
			 -EINVAL);
	assert_null(p);
	expect_in(why, "topology: node20000 is not in the fabric: no cable "
		       "of it is known, so its cells cannot be placed");
	free(names);
	free(buf);
	rdp_mesh_topo_free(t);
}

/*
 * ibnetdiscover's shape: CAs (host i: "node<i> mlx5_0") on leaf switches
 * of 20 ports, each leaf's port 21 to one spine; ports name peers by GUID.
 */
#define IB_HOSTS 2000u
#define IB_PER	 20u
#define IB_LEAF	 (IB_HOSTS / IB_PER)

static void test_ibnet(void **state)
{
	struct rdp_mesh_topo *t = NULL;
	struct text x = { 0 };
	unsigned int i, l;
	char why[256] = "";
	int sw;

	(void)state;
	add(&x, "Switch\t%u \"S-%016x\"\t\t# \"MF0;spine:SX/U1\"\n", IB_LEAF,
	    0xfffu);
	for (l = 0; l < IB_LEAF; l++)
		add(&x, "[%u]\t\"S-%016x\"[21]\n", l + 1, 0x1000u + l);
	add(&x, "\n");
	for (l = 0; l < IB_LEAF; l++) {
		add(&x, "Switch\t21 \"S-%016x\"\t\t# \"MF0;leaf%u:SX/U1\"\n",
		    0x1000u + l, l);
		for (i = 0; i < IB_PER; i++)
			add(&x, "[%u]\t\"H-%016x\"[1]\n", i + 1,
			    0x100000u + l * IB_PER + i);
		add(&x, "[21]\t\"S-%016x\"[%u]\n\n", 0xfffu, l + 1);
	}
	for (i = 0; i < IB_HOSTS; i++) {
		add(&x, "Ca\t1 \"H-%016x\"\t\t# \"node%u mlx5_0\"\n",
		    0x100000u + i, i);
		add(&x, "[1]\t\"S-%016x\"[%u]\n\n", 0x1000u + i / IB_PER,
		    1 + i % IB_PER);
	}
	if (rdp_mesh_topo_parse(x.s, "ib", &t, why, sizeof(why)))
		fail_msg("%s", why);
	free(x.s);
	assert_int_equal(rdp_mesh_topo_n_hosts(t), IB_HOSTS);
	assert_int_equal(rdp_mesh_topo_n_switches(t), IB_LEAF + 1);
	assert_int_equal(rdp_mesh_topo_n_links(t), IB_LEAF);
	sw = rdp_mesh_topo_find_switch(t, "leaf99");
	assert_true(sw > 0);
	assert_true(rdp_mesh_topo_is_leaf(t, (unsigned int)sw));
	assert_int_equal(rdp_mesh_topo_find_host(t, "node1999"), 1999);
	assert_int_equal(rdp_mesh_topo_host_port(t, 1999, 0)->sw,
			 (unsigned int)sw);
	assert_int_equal(rdp_mesh_topo_host_port(t, 1999, 0)->port, IB_PER);
	assert_int_equal(rdp_mesh_topo_find_switch(t, "spine"), 0);
	assert_false(rdp_mesh_topo_is_leaf(t, 0));
	rdp_mesh_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_bind),
		cmocka_unit_test(test_ibnet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
