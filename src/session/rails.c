/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Multi-rail runs as one child rdmaperf per rail: each a complete,
 * ordinary session on its own device, pinned to that device's NUMA node,
 * started together; the parent adds the figures up point by point. The
 * timed regions overlap as closely as the children start, so -D (every
 * rail running for the same seconds) gives the truest sum.
 */
#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/log.h>
#include <rdmaperf/run_opts.h>
#include <rdmaperf/rails.h>
#include <rdmaperf/session.h>

struct rail {
	char dev[64];
	char host[256];
	char json[64], text[64];
	pid_t pid;
	int rc;
	json_t *doc;
};

/* Split "a,b,c" into at most RDP_MAX_RAILS fields of len bytes each. */
static int split(const char *s, char *out, size_t stride, size_t len)
{
	const char *comma;
	int n = 0;
	size_t k;

	for (;;) {
		comma = strchr(s, ',');
		k = comma ? (size_t)(comma - s) : strlen(s);
		if (n == RDP_MAX_RAILS || !k || k >= len)
			return -EINVAL;
		memcpy(out + (size_t)n * stride, s, k);
		out[(size_t)n * stride + k] = '\0';
		n++;
		if (!comma)
			return n;
		s = comma + 1;
	}
}

int rdp_rails_wanted(const struct rdp_opts *o)
{
	return strchr(o->conn.dev, ',') != NULL;
}

static int check(const struct rdp_opts *o, struct rail *r, int *n)
{
	int nd = split(o->conn.dev, r[0].dev, sizeof(*r), sizeof(r->dev));
	int nh = split(o->conn.host, r[0].host, sizeof(*r), sizeof(r->host));

	if (nd < 2 || nh != nd) {
		rdp_err("several rails need as many hosts as devices, both "
			"comma-separated: -d DEV0,DEV1 HOST0,HOST1 (at most "
			"%d)",
			RDP_MAX_RAILS);
		return -EINVAL;
	}
	if (o->bench->kind != RDP_BENCH_BW) {
		rdp_err("several rails apply to bandwidth tests");
		return -EINVAL;
	}
	if (o->report.json || o->report.json_file[0] ||
	    o->limits.plot_file[0] || o->report.output) {
		rdp_err("--json, --json-file, --plot and --output take one "
			"rail: run each device on its own for them");
		return -EINVAL;
	}
	*n = nd;
	return 0;
}

static int numa_node_of(const char *dev)
{
	char path[160];
	int node = -1;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/device/numa_node", dev);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &node) != 1)
			node = -1;
		fclose(f);
	}
	return node;
}

/* The same command line for one rail: its device and host in place of
 * the lists, its own JSON file added. */
static char **rail_argv(int argc, char **argv, const struct rdp_opts *o,
			struct rail *r)
{
	static char json_opt[] = "--json-file";
	size_t dl = strlen(o->conn.dev), al, i;
	char **av = calloc((size_t)argc + 3, sizeof(*av));

	if (!av)
		return NULL;
	for (i = 0; i < (size_t)argc; i++) {
		al = strlen(argv[i]);
		av[i] = argv[i];
		if (!strcmp(argv[i], o->conn.host)) {
			av[i] = r->host;
		} else if (al >= dl &&
			   !strcmp(argv[i] + al - dl, o->conn.dev)) {
			/* -dLIST, --ib-dev=LIST or LIST alone */
			av[i] = malloc(al - dl + strlen(r->dev) + 1);
			if (!av[i])
				_exit(RDP_EXIT_FAIL);
			memcpy(av[i], argv[i], al - dl);
			strcpy(av[i] + al - dl, r->dev);
		}
	}
	av[i++] = json_opt;
	av[i++] = r->json;
	av[i] = NULL;
	return av;
}

static void start(int argc, char **argv, const struct rdp_opts *o,
		  struct rail *r)
{
	int node = numa_node_of(r->dev);
	FILE *out;
	char **av;

	fflush(NULL);
	r->pid = fork();
	if (r->pid)
		return;
	/* The child: its device's node, its own report file, then exec. */
	if (node >= 0 && numa_available() >= 0)
		numa_run_on_node(node);
	out = freopen(r->text, "w", stdout);
	av = rail_argv(argc, argv, o, r);
	if (out && av)
		execv("/proc/self/exe", av);
	_exit(RDP_EXIT_FAIL);
}

static double num(const json_t *e, const char *key)
{
	return json_number_value(json_object_get(e, key));
}

/* One row per rail and a [SUM] for every point all rails measured. */
static void sum_table(const struct rail *r, int n)
{
	const json_t *res0 = json_object_get(r[0].doc, "results"), *e;
	double bw, mpps;
	size_t i;
	int k;

	printf("\n Rails: %d devices at once, [SUM] adds their figures\n"
	       " %-10s %-5s %-14s %-18s %s\n",
	       n, "#bytes", "QPs", "rail", "BW average[Gb/s]", "MsgRate[Mpps]");
	for (i = 0; i < json_array_size(res0); i++) {
		bw = mpps = 0;
		for (k = 0; k < n; k++) {
			e = json_array_get(json_object_get(r[k].doc, "results"),
					   i);
			printf(" %-10.0f %-5.0f %-14s %-18.3f %.6f\n",
			       num(e, "size_bytes"), num(e, "num_qps"),
			       r[k].dev, num(e, "bw_avg_gbps"),
			       num(e, "msg_rate_mpps"));
			bw += num(e, "bw_avg_gbps");
			mpps += num(e, "msg_rate_mpps");
		}
		e = json_array_get(res0, i);
		printf(" %-10.0f %-5.0f %-14s %-18.3f %.6f\n",
		       num(e, "size_bytes"), num(e, "num_qps"), "[SUM]", bw,
		       mpps);
	}
}

static void show_report(const struct rail *r, int k)
{
	char line[512];
	FILE *f = fopen(r->text, "r");

	printf("%s== rail %d: %s to %s, exit %d ==\n", k ? "\n" : "", k, r->dev,
	       r->host, r->rc);
	while (f && fgets(line, sizeof(line), f))
		fputs(line, stdout);
	if (f)
		fclose(f);
}

int rdp_rails_run(int argc, char **argv, const struct rdp_opts *o)
{
	struct rail r[RDP_MAX_RAILS];
	char dir[] = "/tmp/rdmaperf-rails.XXXXXX";
	int n, k, status, worst = RDP_EXIT_OK, all = 1;

	memset(r, 0, sizeof(r));
	if (check(o, r, &n))
		return RDP_EXIT_USAGE;
	if (!mkdtemp(dir)) {
		rdp_err("rails: create %s: %s", dir, strerror(errno));
		return RDP_EXIT_FAIL;
	}
	for (k = 0; k < n; k++) {
		snprintf(r[k].json, sizeof(r[k].json), "%s/%d.json", dir, k);
		snprintf(r[k].text, sizeof(r[k].text), "%s/%d.txt", dir, k);
		start(argc, argv, o, &r[k]);
	}
	for (k = 0; k < n; k++) {
		r[k].rc = RDP_EXIT_FAIL;
		if (r[k].pid > 0 && waitpid(r[k].pid, &status, 0) == r[k].pid &&
		    WIFEXITED(status))
			r[k].rc = WEXITSTATUS(status);
		if (r[k].rc > worst)
			worst = r[k].rc;
		r[k].doc = json_load_file(r[k].json, 0, NULL);
		all &= r[k].doc != NULL;
		show_report(&r[k], k);
		unlink(r[k].json);
		unlink(r[k].text);
	}
	rmdir(dir);
	if (all)
		sum_table(r, n);
	for (k = 0; k < n; k++)
		json_decref(r[k].doc);
	return worst;
}
