/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf report: each kind of document in (a run, a sweep with latency
 * samples, a certify folder, two runs compared, a mesh with its cells in
 * mesh.json or in the cells file beside it), its data in the page, a
 * hostile host name kept inside the data element, and the refusals (exit
 * 2, nothing written).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "argv.h"
#include "report_int.h"

#include <rdmaperf/tool.h>

#define FIX RDP_FIXTURES_DIR "/report/"

static char dir[] = "/tmp/rdp_report_XXXXXX";
static char out[PATH_MAX];
static char *page;

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(out, sizeof(out), "%s/report.html", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	free(page);
	page = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

/* The tool with its "wrote" line thrown away. */
static int report(int argc, char **argv)
{
	int null = open("/dev/null", O_WRONLY), saved, rc;

	assert_true(null >= 0);
	fflush(stdout);
	saved = dup(1);
	assert_true(saved >= 0 && dup2(null, 1) == 1);
	rc = rdp_tool_find("report")->main(argc, argv);
	fflush(stdout);
	assert_int_equal(dup2(saved, 1), 1);
	close(saved);
	close(null);
	return rc;
}

#define REPORT(...) report(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

/* The page written to out, whole, in page. */
static const char *read_page(void)
{
	FILE *f = fopen(out, "r");
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	free(page);
	page = malloc((size_t)n + 1);
	assert_non_null(page);
	assert_int_equal(fread(page, 1, (size_t)n, f), (size_t)n);
	page[n] = '\0';
	fclose(f);
	unlink(out);
	return page;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* What every page is: self-contained, the data in its element. */
static void check_page(const char *p)
{
	assert_non_null(strstr(p, "<!DOCTYPE html>"));
	assert_non_null(strstr(p, "Content-Security-Policy"));
	assert_non_null(strstr(
		p, "<script type=\"application/json\" id=\"rdp-data\">"));
	assert_null(strstr(p, "http:"));
	assert_null(strstr(p, "https:"));
	assert_null(strstr(p, "src="));
	assert_null(strstr(p, "href=\"/"));
	/* The data's end and the drawing script's end, nothing else. */
	assert_int_equal(count(p, "</script"), 2);
	assert_non_null(strstr(p, "rdp-done"));
}

static void test_run(void **state)
{
	const char *p;

	(void)state;
	assert_int_equal(REPORT(FIX "run.json", "--html", out), 0);
	p = read_page();
	check_page(p);
	assert_non_null(strstr(p, "\"kind\":\"run\""));
	assert_non_null(strstr(p, "\"bw_avg_gbps\":41.943"));
	assert_non_null(strstr(p, "\"min_bw_gbps\":50.0"));
	assert_non_null(strstr(p, "\"hostname\":\"client-a\""));
}

static void test_sweep_histogram(void **state)
{
	const char *p;

	(void)state;
	assert_int_equal(REPORT("--html", out, FIX "sweep-lat.json"), 0);
	p = read_page();
	check_page(p);
	assert_non_null(strstr(p, "\"lat_p999_us\""));
	/* 2 000 samples of the 64 B point made 40 bins. */
	assert_non_null(strstr(p, "\"lat_histogram\":{"));
	assert_non_null(strstr(p, "\"samples\":2000"));
	assert_null(strstr(p, "\"samples_us\""));
}

static void test_certify(void **state)
{
	const char *p;

	(void)state;
	assert_int_equal(REPORT(FIX "certify", "--html", out), 0);
	p = read_page();
	check_page(p);
	assert_non_null(strstr(p, "\"kind\":\"certify\""));
	assert_non_null(strstr(p, "\"verdict\":\"PASS\""));
	assert_non_null(strstr(p, "\"band_lo_pct\":90.0"));
	assert_non_null(strstr(p, "\"band_hi_pct\":98.75"));
	assert_non_null(strstr(p, "\"band_min_bytes\":65536"));
	assert_non_null(strstr(p, "write_bw.json"));
	assert_non_null(strstr(p, "write_lat.json"));
	/* certify.md itself names its folder. */
	assert_int_equal(REPORT(FIX "certify/certify.md", "--html", out), 0);
	assert_non_null(strstr(read_page(), "\"kind\":\"certify\""));
}

static void test_compare(void **state)
{
	const char *p;

	(void)state;
	assert_int_equal(REPORT("--compare", FIX "compare-base.json",
				FIX "compare-new.json", "--tolerance", "2.5",
				"--html", out),
			 0);
	p = read_page();
	check_page(p);
	assert_non_null(strstr(p, "[{\"kind\":\"compare\""));
	assert_non_null(strstr(p, "\"tolerance_pct\":2.5"));
	assert_non_null(strstr(p, "\"base\":{\"kind\":\"run\""));
	assert_non_null(strstr(p, "\"new\":{\"kind\":\"run\""));
	/* Without --compare, two sections. */
	assert_int_equal(REPORT(FIX "compare-base.json", FIX "compare-new.json",
				"--html", out),
			 0);
	assert_int_equal(count(read_page(), "{\"kind\":\"run\""), 2);
}

static void test_mesh(void **state)
{
	const char *p, *st;

	(void)state;
	assert_int_equal(REPORT(FIX "mesh4/mesh.json", "--html", out), 0);
	p = read_page();
	check_page(p);
	assert_non_null(strstr(p, "\"kind\":\"mesh\""));
	assert_non_null(strstr(p, "\"n\":4"));
	assert_non_null(strstr(p, "\"full\":true"));
	assert_non_null(strstr(p, "\"cells\":24"));
	/* A rail's status: 16 letters, the diagonal blank. */
	st = strstr(p, "\"st\":\"");
	assert_non_null(st);
	assert_int_equal(strcspn(st + 6, "\""), 16);
	assert_int_equal(st[6], ' ');
	assert_int_equal(st[6 + 5], ' ');
	assert_non_null(strstr(p, "\"faults\":"));
	/* Every cell's record, with its place in the grid. */
	assert_int_equal(count(p, ",\"i\":"), 24);
	assert_non_null(strstr(p, "\"lat\":null"));
	/* With latency, a failed and a skipped cell, retests, timing. */
	assert_int_equal(REPORT(FIX "mesh4-more/mesh.json", "--html", out), 0);
	p = read_page();
	check_page(p);
	assert_non_null(strstr(p, "\"lat\":\","));
	/* node0 -> node3 failed on rail 0, skipped on rail 1. */
	st = strstr(p, "\"st\":\"");
	assert_non_null(st);
	assert_int_equal(st[6 + 3], 'x');
	st = strstr(st + 6, "\"st\":\"");
	assert_non_null(st);
	assert_int_equal(st[6 + 3], 's');
	assert_int_equal(count(p, "\"retest\":{"), 2);
	assert_non_null(strstr(p, "\"retest_rounds\":["));
	assert_non_null(strstr(p, "\"overhead_pct\":24.3"));
}

static void write_file(const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char summary_mesh[] =
	"{\"tool\":\"rdmaperf-mesh\",\"rails\":1,\"nodes\":[\"a\",\"b\"],"
	"\"cells_file\":\"cells.jsonl\",\"totals\":{\"cells\":2}}\n";

/* The summary form: the cells come from the file beside mesh.json. */
static void test_mesh_cells_file(void **state)
{
	char mesh[PATH_MAX];
	const char *p;

	(void)state;
	snprintf(mesh, sizeof(mesh), "%s/mesh.json", dir);
	write_file("mesh.json", summary_mesh);
	assert_int_equal(REPORT(mesh, "--html", out), 2);
	write_file("cells.jsonl",
		   "{\"tx\":\"a\",\"rx\":\"b\",\"rail\":0,\"round\":1,"
		   "\"status\":\"ok\",\"bw_gbps\":97.5,\"lat_us\":null}\n"
		   "{\"tx\":\"b\",\"rx\":\"a\",\"rail\":0,\"round\":2,"
		   "\"status\":\"failed\",\"reason\":\"x\",\"bw_gbps\":null,"
		   "\"lat_us\":null}\n");
	assert_int_equal(REPORT(mesh, "--html", out), 0);
	p = read_page();
	assert_non_null(strstr(p, "\"bw\":\",97.5,,\""));
	assert_non_null(strstr(p, "\"st\":\" ox \""));
	assert_non_null(strstr(p, "\"round\":\",1,2,\""));
	/* A cell naming a node the mesh lacks. */
	write_file("cells.jsonl", "{\"tx\":\"a\",\"rx\":\"c\",\"rail\":0}\n");
	assert_int_equal(REPORT(mesh, "--html", out), 2);
	assert_int_equal(access(out, F_OK), -1);
}

/* A host name cannot end the data element, nor open a comment. */
static void test_escaping(void **state)
{
	char run[PATH_MAX];
	const char *p;
	json_t *doc = json_load_file(FIX "run.json", 0, NULL);

	(void)state;
	assert_non_null(doc);
	json_object_set_new(json_object_get(doc, "client"), "hostname",
			    json_string("evil</script><script>alert(1)"
					"</script><!--"));
	snprintf(run, sizeof(run), "%s/evil.json", dir);
	assert_int_equal(json_dump_file(doc, run, 0), 0);
	json_decref(doc);
	assert_int_equal(REPORT(run, "--html", out), 0);
	p = read_page();
	check_page(p);
	assert_null(strstr(p, "alert(1)</"));
	assert_null(strstr(p, "<!--"));
	assert_non_null(
		strstr(p, "evil\\u003c/script>\\u003cscript>alert(1)\\u003c/"
			  "script>\\u003c!--"));
}

static void test_refusals(void **state)
{
	char bad[PATH_MAX], noout[PATH_MAX];

	(void)state;
	snprintf(noout, sizeof(noout), "%s/no/such/dir/r.html", dir);
	assert_int_equal(REPORT("--html", out), 2);
	assert_int_equal(REPORT(FIX "no-such.json", "--html", out), 2);
	snprintf(bad, sizeof(bad), "%s/bad.json", dir);
	write_file("bad.json", "{\"tool\": \"other\"}\n");
	assert_int_equal(REPORT(bad, "--html", out), 2);
	write_file("bad.json", "not json\n");
	assert_int_equal(REPORT(bad, "--html", out), 2);
	assert_int_equal(REPORT(dir, "--html", out), 2); /* no certify.md */
	/* A bad input among good ones: nothing is written. */
	assert_int_equal(REPORT(FIX "run.json", bad, "--html", out), 2);
	assert_int_equal(access(out, F_OK), -1);
	assert_int_equal(REPORT(FIX "run.json", "--html", noout), 2);
	assert_int_equal(REPORT("--compare", FIX "run.json", "--html", out), 2);
	assert_int_equal(REPORT("--compare", FIX "run.json",
				FIX "mesh4/mesh.json", "--html", out),
			 2);
	assert_int_equal(REPORT("--compare", FIX "run.json", FIX "run.json",
				"--tolerance", "100", "--html", out),
			 2);
	assert_int_equal(REPORT("--compare", FIX "run.json", FIX "run.json",
				"--tolerance", "5%", "--html", out),
			 2);
	assert_int_equal(REPORT(FIX "run.json", "--html="), 2);
	assert_int_equal(access(out, F_OK), -1);
}

/* The inlined script and styles end nowhere early and fetch nothing. */
static void test_assets(void **state)
{
	(void)state;
	assert_true(strlen(rdp_report_js) > 1000);
	assert_true(strlen(rdp_report_css) > 100);
	assert_null(strstr(rdp_report_js, "</"));
	assert_null(strstr(rdp_report_css, "</"));
	assert_null(strstr(rdp_report_js, "http"));
	assert_null(strstr(rdp_report_js, "fetch("));
	assert_null(strstr(rdp_report_js, "XMLHttpRequest"));
	assert_null(strstr(rdp_report_css, "url("));
	assert_non_null(strstr(rdp_report_js, "rdp-done"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_sweep_histogram),
		cmocka_unit_test(test_certify),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_mesh),
		cmocka_unit_test(test_mesh_cells_file),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_assets),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
