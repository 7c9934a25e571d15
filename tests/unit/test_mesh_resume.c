/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --resume and --topology: the run's record names the topology file and
 * its content's digest; a resume with another fabric (or none, or a
 * file changed since) is refused in one line; a record from before
 * topologies were recorded still resumes.
 */
#include <errno.h>
#include <unistd.h>
#include <jansson.h>

#include "unit.h"

#include <rdmaperf/mesh_run.h>

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* --resume in dir with --topology topo (NULL: none): 0 or -EINVAL. */
static int resume_with(const char *dir, const char *topo, int fresh)
{
	static const char *const names[] = { "a", "b", "c", "d" };
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE,
					.nodes = 4 };
	struct rdp_mesh_plan *plan = NULL;
	struct rdp_mesh_resume rs = { .dir = dir,
				      .po = &o,
				      .names = names,
				      .nodes = 4,
				      .rails = 1,
				      .test_args = "write_bw",
				      .topology = topo };
	FILE *journal = NULL;
	size_t from = 0;
	int ret;

	assert_int_equal(rdp_mesh_plan_create(&o, &plan), 0);
	assert_int_equal(rdp_mesh_create(plan, 1, names, &rs.mesh), 0);
	rs.plan = plan;
	ret = rdp_mesh_journal_open(&rs, !fresh, &journal, &from);
	if (journal)
		fclose(journal);
	rdp_mesh_free(rs.mesh);
	rdp_mesh_plan_free(plan);
	return ret;
}

/* mesh-run.json of dir without its "topology", as an older run wrote it. */
static void drop_topology(const char *dir)
{
	char path[512];
	json_t *rec;

	snprintf(path, sizeof(path), "%s/%s", dir, RDP_MESH_RUN_RECORD);
	rec = json_load_file(path, 0, NULL);
	assert_non_null(rec);
	assert_int_equal(json_object_del(rec, "topology"), 0);
	assert_int_equal(json_dump_file(rec, path, 0), 0);
	json_decref(rec);
}

/* --resume refuses another topology (content, file, or none) and
 * resumes a record from before topologies were recorded. */
static void test_resume_topology(void **state)
{
	char dir[] = "/tmp/rdp-resume-topo-XXXXXX", a[512], b[512], c[512];
	json_t *t;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/fabric.txt", dir);
	snprintf(b, sizeof(b), "%s/other.txt", dir);
	snprintf(c, sizeof(c), "%s/copy.txt", dir);
	write_text(a, "a 0 leaf0 1\nb 0 leaf0 2\nc 0 leaf0 3\nd 0 leaf0 4\n");
	write_text(b, "a 0 leaf0 4\nb 0 leaf0 3\nc 0 leaf0 2\nd 0 leaf0 1\n");
	write_text(c, "a 0 leaf0 1\nb 0 leaf0 2\nc 0 leaf0 3\nd 0 leaf0 4\n");
	t = rdp_mesh_topology_record(a);
	assert_string_equal(json_string_value(json_object_get(t, "path")), a);
	assert_int_equal(
		strlen(json_string_value(json_object_get(t, "digest"))),
		strlen("fnv1a64:") + 16);
	json_decref(t);
	t = rdp_mesh_topology_record(NULL);
	assert_true(json_is_null(t));
	assert_null(rdp_mesh_topology_record("/nonexistent/fabric"));

	assert_int_equal(resume_with(dir, a, 1), 0);
	assert_int_equal(resume_with(dir, a, 0), 0);
	/* The same content elsewhere is the same fabric. */
	assert_int_equal(resume_with(dir, c, 0), 0);
	assert_int_equal(resume_with(dir, b, 0), -EINVAL);
	assert_int_equal(resume_with(dir, NULL, 0), -EINVAL);
	write_text(a, "a 0 leaf0 1\nb 0 leaf0 2\nc 0 leaf0 3\nd 0 leaf1 4\n");
	assert_int_equal(resume_with(dir, a, 0), -EINVAL);
	/* None recorded: a topology now is refused, none is fine. */
	assert_int_equal(resume_with(dir, NULL, 1), 0);
	assert_int_equal(resume_with(dir, NULL, 0), 0);
	assert_int_equal(resume_with(dir, a, 0), -EINVAL);
	/* An older record, without the key: resumes either way. */
	drop_topology(dir);
	assert_int_equal(resume_with(dir, a, 0), 0);
	assert_int_equal(resume_with(dir, NULL, 0), 0);
	unlink(a);
	unlink(b);
	unlink(c);
	snprintf(a, sizeof(a), "%s/%s", dir, RDP_MESH_RUN_RECORD);
	unlink(a);
	snprintf(a, sizeof(a), "%s/rounds.jsonl", dir);
	unlink(a);
	assert_int_equal(rmdir(dir), 0);
}

/* The record's one line for each refusal. */
static void test_topology_record_check(void **state)
{
	static const char *const names[] = { "a", "b" };
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE,
					.nodes = 2 };
	json_t *was = rdp_mesh_run_record(&o, names, 1, "");
	json_t *now = rdp_mesh_run_record(&o, names, 1, "");
	char why[256];

	(void)state;
	json_object_set_new(was, "topology",
			    json_pack("{s:s, s:s}", "path", "/f", "digest",
				      "fnv1a64:0000000000000001"));
	json_object_set_new(now, "topology",
			    json_pack("{s:s, s:s}", "path", "/f", "digest",
				      "fnv1a64:0000000000000002"));
	assert_int_equal(rdp_mesh_run_record_check(was, now, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "--topology /f has changed since (its digest "
				 "was fnv1a64:0000000000000001, is "
				 "fnv1a64:0000000000000002)");
	json_object_set_new(now, "topology", json_null());
	assert_int_equal(rdp_mesh_run_record_check(was, now, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "--topology was /f there, is none here");
	json_decref(was);
	json_decref(now);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resume_topology),
		cmocka_unit_test(test_topology_record_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
