/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The simulator end to end at small N: each kind of fault injected is
 * found (and nothing else named) at 3 % noise, a clean mesh names
 * nothing, bad --inject specs are refused in one line, `rdmaperf
 * mesh --simulate` exits 0, 1 or 2 by what it found, and plans cover at
 * --load.
 */
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>

#include "tool_out.h"
#include "unit.h"

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>
#include <rdmaperf/mesh_topo.h>
#include <rdmaperf/tool.h>

#define NODES  48
#define RAILS  2
#define LEAVES 3
#define SPINES 2

struct sim {
	struct rdp_mesh_topo *t;
	struct rdp_mesh_place *p;
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m;
	struct rdp_mesh_faults *f;
	struct rdp_mesh_sim_score s;
};

static void sim_setup(struct sim *x)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE,
					.nodes = NODES };
	char why[256];

	memset(x, 0, sizeof(*x));
	assert_int_equal(rdp_mesh_topo_synthetic(NODES, RAILS, LEAVES, SPINES,
						 &x->t),
			 0);
	assert_int_equal(rdp_mesh_place_create(x->t, NULL, NODES, RAILS, &x->p,
					       why, sizeof(why)),
			 0);
	assert_int_equal(rdp_mesh_plan_create(&o, &x->plan), 0);
	assert_int_equal(rdp_mesh_create(x->plan, RAILS, NULL, &x->m), 0);
}

static void sim_free(struct sim *x)
{
	rdp_mesh_faults_free(x->f);
	rdp_mesh_free(x->m);
	rdp_mesh_plan_free(x->plan);
	rdp_mesh_place_free(x->p);
	rdp_mesh_topo_free(x->t);
}

/* Simulate with the injections in specs (comma-free, NULL-ended) and
 * score what was located. */
static void sim_run(struct sim *x, uint64_t seed, const char *const *specs)
{
	struct rdp_mesh_sim_opts o = { .nominal_gbps = 100,
				       .noise_pct = 3,
				       .seed = seed };
	struct rdp_mesh_limits l = { .tol = 0.10 };
	struct rdp_mesh_inject inj[8];
	size_t n = 0;
	char why[256];

	sim_setup(x);
	for (; specs && specs[n]; n++)
		if (rdp_mesh_inject_parse(specs[n], x->p, &inj[n], why,
					  sizeof(why)))
			fail_msg("%s", why);
	assert_int_equal(rdp_mesh_simulate(x->m, x->plan, x->p, inj, n, &o), 0);
	assert_int_equal(rdp_mesh_n_cells(x->m),
			 (size_t)NODES * (NODES - 1) * RAILS);
	assert_true(rdp_mesh_analyze(x->m, &l) >= 0);
	assert_int_equal(rdp_mesh_locate(x->m, x->p, &x->f), 0);
	assert_int_equal(rdp_mesh_sim_score(x->p, inj, n, x->f, NULL, &x->s),
			 0);
}

static void expect_found(const char *spec, enum rdp_mesh_inject_kind k,
			 enum rdp_mesh_part part)
{
	const char *specs[] = { spec, NULL };
	struct sim x;
	uint64_t seed;

	for (seed = 1; seed <= 3; seed++) {
		sim_run(&x, seed, specs);
		if (x.s.found[k] != 1 || x.s.named != 1 || x.s.right != 1)
			fail_msg("%s, seed %u: found %u, named %u, right %u",
				 spec, (unsigned int)seed, x.s.found[k],
				 x.s.named, x.s.right);
		assert_int_equal(rdp_mesh_fault_at(x.f, 0)->kind, part);
		sim_free(&x);
	}
}

static void test_each_kind(void **state)
{
	(void)state;
	expect_found("nic:node7=60%", RDP_MESH_INJECT_NIC, RDP_MESH_PART_NODE);
	expect_found("nic:node7:1=60%", RDP_MESH_INJECT_NIC,
		     RDP_MESH_PART_CABLE);
	expect_found("cable:node20:0=down", RDP_MESH_INJECT_CABLE,
		     RDP_MESH_PART_CABLE);
	expect_found("uplink:leaf4:spine1=50%", RDP_MESH_INJECT_UPLINK,
		     RDP_MESH_PART_UPLINK);
	expect_found("flaky:node33:1=20%", RDP_MESH_INJECT_FLAKY,
		     RDP_MESH_PART_CABLE);
}

static void test_all_at_once(void **state)
{
	const char *specs[] = { "nic:node3=60%",	   "cable:node5:1=down",
				"uplink:leaf1:spine0=50%", "flaky:node40:0=25%",
				"nic:node30:1=60%",	   NULL };
	struct sim x;
	unsigned int k;

	(void)state;
	sim_run(&x, 7, specs);
	for (k = 0; k < RDP_MESH_N_INJECT; k++)
		assert_int_equal(x.s.found[k], x.s.injected[k]);
	assert_int_equal(x.s.named, 5);
	assert_int_equal(x.s.right, 5);
	sim_free(&x);
}

/* Three dead cables on one leaf are three cables, not the leaf. */
static void test_cables_not_leaf(void **state)
{
	const char *specs[] = { "cable:node0:0=down", "cable:node1:0=down",
				"cable:node2:0=down", NULL };
	struct sim x;
	size_t i;

	(void)state;
	sim_run(&x, 5, specs);
	assert_int_equal(x.s.found[RDP_MESH_INJECT_CABLE], 3);
	assert_int_equal(rdp_mesh_faults_n(x.f), 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(rdp_mesh_fault_at(x.f, i)->kind,
				 RDP_MESH_PART_CABLE);
	sim_free(&x);
}

static void test_clean(void **state)
{
	struct sim x;
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 3; seed++) {
		sim_run(&x, seed, NULL);
		assert_int_equal(rdp_mesh_faults_n(x.f), 0);
		sim_free(&x);
	}
}

static void expect_refused(struct sim *x, const char *spec, const char *want)
{
	struct rdp_mesh_inject j;
	char why[256] = "";

	assert_int_equal(rdp_mesh_inject_parse(spec, x->p, &j, why,
					       sizeof(why)),
			 -EINVAL);
	assert_null(strchr(why, '\n'));
	if (!strstr(why, want))
		fail_msg("%s: '%s' lacks '%s'", spec, why, want);
}

static void test_inject_refused(void **state)
{
	struct rdp_mesh_inject j;
	struct sim x;
	char why[256];

	(void)state;
	sim_setup(&x);
	expect_refused(&x, "nic:node3", "want KIND:WHERE=VALUE");
	expect_refused(&x, "disk:node3=50%", "want nic:NODE[:RAIL]=PCT%");
	expect_refused(&x, "nic:node99=50%", "no such node");
	expect_refused(&x, "nic:node3:2=50%", "below --rails");
	expect_refused(&x, "nic:node3=150%", "[0, 100)%");
	expect_refused(&x, "nic:node3=50", "want nic:");
	expect_refused(&x, "cable:node3=down", "a cable is NODE:RAIL");
	expect_refused(&x, "uplink:spine0:leaf1=50%", "no such leaf");
	expect_refused(&x, "uplink:leaf1:leaf2=50%", "no such spine");
	expect_refused(&x, "flaky:node3:0=0%", "(0, 100]%");
	expect_refused(&x, "flaky:node3:0=down", "(0, 100]%");
	expect_refused(&x, "nic:node3:0:1=50%", "want nic:");
	assert_int_equal(rdp_mesh_inject_parse("uplink:leaf1:spine0=down", x.p,
					       &j, why, sizeof(why)),
			 0);
	assert_true(j.factor == 0 && j.leaf >= 0 && j.spine >= 0);
	assert_int_equal(rdp_mesh_inject_parse("flaky:node3=30%", x.p, &j, why,
					       sizeof(why)),
			 0);
	assert_true(j.rail == -1 && fabs(j.fail_share - 0.3) < 1e-12);
	sim_free(&x);
}

static int mesh_cmd(int argc, char **argv)
{
	int ret;

	fflush(stdout);
	ret = rdp_tool_find("mesh")->main(argc, argv);
	fflush(stdout);
	return ret;
}

#define MESH(...) mesh_cmd(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

static void test_command(void **state)
{
	char dir[] = "/tmp/rdp-mesh-sim-XXXXXX", path[PATH_MAX];
	json_error_t err;
	json_t *doc;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(MESH("--simulate", "24", "--rails", "2", "--leaves",
			      "3", "--spines", "2", "--seed", "3", "--inject",
			      "cable:node4:1=down,nic:node9=60%",
			      "--output-dir", dir),
			 0);
	snprintf(path, sizeof(path), "%s/mesh.json", dir);
	doc = json_load_file(path, 0, &err);
	if (!doc)
		fail_msg("%s: %s", path, err.text);
	assert_int_equal(json_array_size(json_object_get(doc, "faults")), 2);
	json_decref(doc);
	/* A NIC at 95 % flags no cell within a 10 % tolerance: missed,
	 * exit 1. */
	assert_int_equal(MESH("--simulate", "24", "--leaves", "3", "--inject",
			      "nic:node5:0=95%", "--noise", "0", "--nominal",
			      "50", "--tolerance", "10"),
			 1);
	assert_int_equal(MESH("--simulate", "24", "--inject", "nic:x=50%"), 2);
	assert_int_equal(MESH("--simulate", "24", "--noise", "60"), 2);
	assert_int_equal(MESH("--simulate", "24", "--topology",
			      "/nonexistent/fabric"),
			 2);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* The rounds a simulated run printed ("..., N rounds, ..."). */
static unsigned int rounds_of(const char *out)
{
	const char *s = strstr(out, " rounds, noise");
	unsigned int n = 0;

	assert_non_null(s);
	while (s > out && s[-1] >= '0' && s[-1] <= '9')
		s--;
	assert_int_equal(sscanf(s, "%u", &n), 1);
	return n;
}

/* --load reaches cover's plan: 16 nodes and 4 uplinks a leaf send 4
 * nodes a pairing across the spines at 100 %, 1 at 25 %. */
static void test_command_load(void **state)
{
	static char out[16384];
	unsigned int full, quarter;

	(void)state;
	assert_int_equal(TOOL_OUT("mesh", out, "--simulate", "48", "--rails",
				  "2", "--pattern", "cover", "-b", "--seed",
				  "5"),
			 0);
	full = rounds_of(out);
	assert_int_equal(TOOL_OUT("mesh", out, "--simulate", "48", "--rails",
				  "2", "--pattern", "cover", "-b", "--seed",
				  "5", "--load", "100"),
			 0);
	assert_int_equal(rounds_of(out), full);
	assert_int_equal(TOOL_OUT("mesh", out, "--simulate", "48", "--rails",
				  "2", "--pattern", "cover", "-b", "--seed",
				  "5", "--load", "25"),
			 0);
	quarter = rounds_of(out);
	assert_true(quarter > full);
	assert_int_equal(MESH("--simulate", "48", "--load", "50"), 2);
	assert_int_equal(MESH("--simulate", "48", "--pattern", "cover",
			      "--load", "0"),
			 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_kind),
		cmocka_unit_test(test_all_at_once),
		cmocka_unit_test(test_cables_not_leaf),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_inject_refused),
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_command_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
