/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Multi-rail runs as one child rdmaperf per rail: each a complete,
 * ordinary session on its own device, pinned to that device's NUMA node,
 * started together; the parent adds the figures up point by point. A
 * start barrier (sys/barrier.h) releases every rail's timed loop of a
 * point at once, so the figures summed were measured over one interval;
 * a rail late past --connect-timeout, or gone, ends the run by name.
 */
#include <errno.h>
#include <fcntl.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>

#include <rdmaperf/barrier.h>
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
	int fd; /* the parent's end of the start barrier */
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
	    o->report.metrics_file[0] || o->limits.plot_file[0] ||
	    o->report.output) {
		rdp_err("--json, --json-file, --metrics, --plot and --output "
			"take one rail: run each device on its own for them");
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
	int node = numa_node_of(r->dev), sv[2];
	char fd_text[16];
	FILE *out;
	char **av;

	r->fd = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		rdp_err("rails: start barrier for %s: %s", r->dev,
			strerror(errno));
		r->pid = -1;
		return;
	}
	fflush(NULL);
	r->pid = fork();
	if (r->pid) {
		close(sv[1]);
		r->fd = sv[0];
		return;
	}
	/* The child: its end of the barrier kept across exec (the others'
	 * close), its device's node, its own report file, then exec. */
	snprintf(fd_text, sizeof(fd_text), "%d", sv[1]);
	if (fcntl(sv[1], F_SETFD, 0) || setenv(RDP_BARRIER_ENV, fd_text, 1))
		_exit(RDP_EXIT_FAIL);
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

/* The barrier of every point until the rails end: 0, or -errno when a
 * rail was late or gone (logged, naming it; the others were cancelled). */
static int lead(struct rail *r, int n, int bound_ms, int *rounds,
		uint64_t *max_spread_ns)
{
	const char *names[RDP_MAX_RAILS];
	struct rdp_barrier_round round;
	int fds[RDP_MAX_RAILS], k, ret;

	for (k = 0; k < n; k++) {
		fds[k] = r[k].fd;
		names[k] = r[k].dev;
	}
	for (;;) {
		ret = rdp_barrier_lead(fds, names, n, bound_ms, &round);
		if (ret || round.done)
			break;
		++*rounds;
		if (round.spread_ns > *max_spread_ns)
			*max_spread_ns = round.spread_ns;
	}
	if (ret == -ETIMEDOUT)
		rdp_err("rails: rail %d (%s) was not ready within %d ms of the "
			"first rail (--connect-timeout): the run is cancelled",
			round.culprit, r[round.culprit].dev, bound_ms);
	else if (ret)
		rdp_err("rails: rail %d (%s) ended while the others waited to "
			"start: the run is cancelled (see its report)",
			round.culprit, r[round.culprit].dev);
	for (k = 0; k < n; k++)
		close(r[k].fd);
	return ret;
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
	int n, k, status, worst = RDP_EXIT_OK, all = 1, rounds = 0, barrier;
	uint64_t spread_ns = 0;

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
	barrier = lead(r, n, o->conn.connect_timeout_ms, &rounds, &spread_ns);
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
	if (all && !barrier && worst == RDP_EXIT_OK) {
		sum_table(r, n);
		printf(" Start barrier: %d point(s), each released when all %d "
		       "rails were ready; at most %.3f ms from the first ready "
		       "to the last\n",
		       rounds, n, (double)spread_ns / 1e6);
	}
	if (barrier && worst == RDP_EXIT_OK)
		worst = RDP_EXIT_FAIL;
	for (k = 0; k < n; k++)
		json_decref(r[k].doc);
	return worst;
}
