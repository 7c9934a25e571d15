/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sysfs reader: root prefixing, newline stripping, errors passed through as
 * -errno, strict u64 parsing. Files are made in a private temporary root.
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

#include <rdmaperf/cpu_usage.h>
#include <rdmaperf/sysfs.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct tree {
	char root[256];
};

static const struct {
	const char *name;
	const char *text;
} files[] = {
	{ "word", "active\n" },
	{ "blanks", "RoCE v2  \n\n" },
	{ "noeol", "4096" },
	{ "empty", "" },
	{ "dec", "12345\n" },
	{ "hex", "0x1F\n" },
	{ "u64max", "18446744073709551615\n" },
	{ "u64over", "18446744073709551616\n" },
	{ "hexmax", "0xffffffffffffffff\n" },
	{ "hexover", "0x10000000000000000\n" },
	{ "junk", "12ab\n" },
	{ "neg", "-1\n" },
	{ "lead", " 1\n" },
	{ "hexonly", "0x\n" },
	{ "hexhex", "0x0x1\n" },
	{ "plus", "+7\n" },
	/* Longer than any u64 needs: refused, not read cut short. */
	{ "zeros", "00000000000000000000000000000000000000"
		   "00000000000000000000000000000000000001\n" },
};

static int write_file(const char *root, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ret = fputs(text, f) < 0 ? -EIO : 0;
	if (fclose(f))
		ret = -EIO;
	return ret;
}

static int teardown(void **state);

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");
	struct tree *t = calloc(1, sizeof(*t));
	size_t i;

	if (!t)
		return -1;
	snprintf(t->root, sizeof(t->root), "%s/rdp-sysfs-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(t->root)) {
		free(t);
		return -1;
	}
	*state = t;
	for (i = 0; i < ARRAY_SIZE(files); i++)
		if (write_file(t->root, files[i].name, files[i].text)) {
			teardown(state);
			*state = NULL;
			return -1;
		}
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;
	char path[PATH_MAX];
	size_t i;

	if (!t)
		return 0;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", t->root, files[i].name);
		unlink(path);
	}
	rmdir(t->root);
	free(t);
	return 0;
}

static void test_read_root_prefix(void **state)
{
	struct tree *t = *state;
	struct rdp_sysfs fs;
	char buf[64];

	rdp_sysfs_init(&fs, t->root);
	assert_string_equal(fs.root, t->root);
	assert_int_equal(rdp_sysfs_read(&fs, buf, sizeof(buf), "/%s", "word"),
			 0);
	assert_string_equal(buf, "active");
}

static void test_read_live_root(void **state)
{
	struct tree *t = *state;
	struct rdp_sysfs fs;
	char buf[64];

	rdp_sysfs_init(&fs, NULL);
	assert_string_equal(fs.root, "");
	assert_int_equal(
		rdp_sysfs_read(&fs, buf, sizeof(buf), "%s/noeol", t->root), 0);
	assert_string_equal(buf, "4096");

	rdp_sysfs_init(&fs, "");
	assert_string_equal(fs.root, "");
	assert_int_equal(
		rdp_sysfs_read(&fs, buf, sizeof(buf), "%s/word", t->root), 0);
	assert_string_equal(buf, "active");
}

static void test_read_strip(void **state)
{
	struct tree *t = *state;
	struct rdp_sysfs fs;
	char buf[64];

	rdp_sysfs_init(&fs, t->root);
	assert_int_equal(rdp_sysfs_read(&fs, buf, sizeof(buf), "/blanks"), 0);
	assert_string_equal(buf, "RoCE v2");
	assert_int_equal(rdp_sysfs_read(&fs, buf, sizeof(buf), "/empty"), 0);
	assert_string_equal(buf, "");
}

static void test_read_truncates(void **state)
{
	struct tree *t = *state;
	struct rdp_sysfs fs;
	char buf[4];

	rdp_sysfs_init(&fs, t->root);
	assert_int_equal(rdp_sysfs_read(&fs, buf, sizeof(buf), "/word"), 0);
	assert_string_equal(buf, "act");
	assert_int_equal(rdp_sysfs_read(&fs, buf, 1, "/word"), 0);
	assert_string_equal(buf, "");
	assert_int_equal(rdp_sysfs_read(&fs, buf, 0, "/word"), -EINVAL);
}

static void test_read_errors(void **state)
{
	struct tree *t = *state;
	struct rdp_sysfs fs;
	char buf[16] = "untouched";
	char longname[PATH_MAX + 16];

	rdp_sysfs_init(&fs, t->root);
	assert_int_equal(rdp_sysfs_read(&fs, buf, sizeof(buf), "/missing"),
			 -ENOENT);
	assert_int_equal(rdp_sysfs_read(&fs, buf, sizeof(buf), "/word/x"),
			 -ENOTDIR);
	assert_int_equal(rdp_sysfs_read(&fs, buf, sizeof(buf), "/"), -EISDIR);
	assert_string_equal(buf, "untouched");

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(rdp_sysfs_read(&fs, buf, sizeof(buf), "/%s", longname),
			 -ENAMETOOLONG);
	/* The root fills the path by itself. */
	longname[sizeof(fs.root) - 1] = '\0';
	rdp_sysfs_init(&fs, longname);
	assert_int_equal(rdp_sysfs_read(&fs, buf, sizeof(buf), "/word"),
			 -ENAMETOOLONG);
	assert_string_equal(buf, "untouched");
}

static void expect_u64(const struct rdp_sysfs *fs, const char *name,
		       uint64_t want)
{
	uint64_t v = 0;

	assert_int_equal(rdp_sysfs_read_u64(fs, &v, "/%s", name), 0);
	assert_int_equal(v, want);
}

static void expect_u64_err(const struct rdp_sysfs *fs, const char *name,
			   int err)
{
	uint64_t v = 77;

	assert_int_equal(rdp_sysfs_read_u64(fs, &v, "/%s", name), err);
	assert_int_equal(v, 77);
}

static void test_u64(void **state)
{
	struct tree *t = *state;
	struct rdp_sysfs fs;

	rdp_sysfs_init(&fs, t->root);
	expect_u64(&fs, "dec", 12345);
	expect_u64(&fs, "hex", 0x1f);
	expect_u64(&fs, "noeol", 4096);
	expect_u64(&fs, "u64max", UINT64_MAX);
	expect_u64(&fs, "hexmax", UINT64_MAX);
	expect_u64_err(&fs, "u64over", -ERANGE);
	expect_u64_err(&fs, "hexover", -ERANGE);
	expect_u64_err(&fs, "zeros", -ERANGE);
	expect_u64_err(&fs, "missing", -ENOENT);
}

static void test_u64_junk(void **state)
{
	static const char *const junk[] = {
		"junk", "neg",	 "lead", "hexonly", "hexhex",
		"plus", "empty", "word", "blanks",
	};
	struct tree *t = *state;
	struct rdp_sysfs fs;
	size_t i;

	rdp_sysfs_init(&fs, t->root);
	for (i = 0; i < ARRAY_SIZE(junk); i++)
		expect_u64_err(&fs, junk[i], -EINVAL);
}

static void test_cpu_model(void **state)
{
	struct rdp_sysfs fs;
	char buf[64];

	(void)state;
	rdp_sysfs_init(&fs, RDP_FIXTURES_DIR "/two-socket");
	rdp_cpu_model(&fs, buf, sizeof(buf));
	assert_string_equal(buf, "Intel(R) Xeon(R) Platinum 8480+");
	rdp_sysfs_init(&fs, RDP_FIXTURES_DIR "/rxe");
	rdp_cpu_model(&fs, buf, sizeof(buf));
	assert_string_equal(buf, "unknown CPU");
}

/* /proc/stat's first line: busy is all but idle and iowait; the region
 * is the difference of two snapshots. */
static void test_cpu_stat(void **state)
{
	struct rdp_cpu_snap a = { 0 }, b = { 0 };
	struct rdp_cpu_usage u;
	uint64_t busy, total;

	(void)state;
	assert_int_equal(rdp_cpu_parse_stat("cpu  100 5 50 800 40 3 2 0 0 0\n"
					    "cpu0 50 2 25 400 20 1 1 0 0 0",
					    &busy, &total),
			 0);
	assert_true(total == 1000 && busy == 160);
	/* Old kernels have four fields. */
	assert_int_equal(rdp_cpu_parse_stat("cpu  1 2 3 4", &busy, &total), 0);
	assert_true(total == 10 && busy == 6);
	assert_int_equal(rdp_cpu_parse_stat("cpu0 1 2 3 4", &busy, &total),
			 -EINVAL);
	assert_int_equal(rdp_cpu_parse_stat("cpu  1 2", &busy, &total),
			 -EINVAL);
	a = (struct rdp_cpu_snap){ 1000, 10, 20, 100, 1000, 1 };
	b = (struct rdp_cpu_snap){ 3000, 510, 120, 400, 2000, 1 };
	rdp_cpu_usage(&a, &b, &u);
	assert_true(u.wall_ns == 2000 && u.user_ns == 500 && u.sys_ns == 100);
	assert_true(u.host_busy_pct > 29.99 && u.host_busy_pct < 30.01);
	b.have_host = 0;
	rdp_cpu_usage(&a, &b, &u);
	assert_true(u.host_busy_pct < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_model),
		cmocka_unit_test(test_cpu_stat),
		cmocka_unit_test(test_read_root_prefix),
		cmocka_unit_test(test_read_live_root),
		cmocka_unit_test(test_read_strip),
		cmocka_unit_test(test_read_truncates),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_u64_junk),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
