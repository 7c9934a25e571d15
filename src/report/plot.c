/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Plots through gnuplot: the data goes inline as datablocks of a script
 * written to gnuplot's stdin, and the SVG comes back on its stdout, so no
 * temporary files and no file names inside the script.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>

#include <rdmaperf/log.h>
#include <rdmaperf/plot.h>

extern char **environ;

#define MAX_SERIES 32

/* Points of one test at one QP count: one line of the bandwidth plot. */
struct series {
	const char *test;
	json_int_t qps;
};

/* Names from the document go into quoted gnuplot strings: keep them
 * plain. */
static void clean(const char *s, char *out, size_t len)
{
	size_t i;

	for (i = 0; s && s[i] && i + 1 < len; i++)
		out[i] = (s[i] >= 'a' && s[i] <= 'z') ||
					 (s[i] >= 'A' && s[i] <= 'Z') ||
					 (s[i] >= '0' && s[i] <= '9') ||
					 s[i] == '_'
				 ? s[i]
				 : '-';
	out[i] = '\0';
}

/* Text from the document inside a double-quoted gnuplot string: letters,
 * digits and plain punctuation kept, anything else a '-'. */
static void clean_text(const char *s, char *out, size_t len)
{
	size_t i;

	for (i = 0; s && s[i] && i + 1 < len; i++)
		out[i] = strchr("\"\\'`$@{}&|;<>", s[i]) ||
					 (unsigned char)s[i] < ' ' ||
					 (unsigned char)s[i] > '~'
				 ? '-'
				 : s[i];
	out[i] = '\0';
}

static const char *str_at(const json_t *doc, const char *obj, const char *key)
{
	const char *v = json_string_value(
		json_object_get(json_object_get(doc, obj), key));

	return v && *v ? v : NULL;
}

/* Is t one of the comma-separated names of list? */
static int listed(const char *list, const char *t)
{
	size_t n = strlen(t);
	const char *p;

	for (p = list; (p = strstr(p, t)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

/* The tests of the results, "write_bw,read_bw", into buf. */
static void tests_of(const json_t *res, char *buf, size_t len)
{
	size_t i, at = 0;
	const json_t *e;
	const char *t;

	buf[0] = '\0';
	json_array_foreach(res, i, e)
	{
		t = json_string_value(json_object_get(e, "test"));
		if (!t || !*t || at + strlen(t) + 2 >= len || listed(buf, t))
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       at ? "," : "", t);
	}
}

/* "write_bw on mlx5_0, hostA to hostB, 2026-12-03T05:10:00Z": what was
 * run, where and when, as far as the document says. */
static void context_of(const json_t *doc, const json_t *res, char *out,
		       size_t len)
{
	const char *dev = str_at(doc, "device", "name");
	const char *from = str_at(doc, "client", "hostname");
	const char *to = str_at(doc, "server", "hostname");
	const char *when = json_string_value(json_object_get(doc, "timestamp"));
	char tests[128], raw[512];
	size_t at;

	tests_of(res, tests, sizeof(tests));
	at = (size_t)snprintf(raw, sizeof(raw), "%s", tests);
	if (dev && at < sizeof(raw))
		at += (size_t)snprintf(raw + at, sizeof(raw) - at, " on %s",
				       dev);
	if ((from || to) && at < sizeof(raw))
		at += (size_t)snprintf(raw + at, sizeof(raw) - at, ", %s to %s",
				       from ? from : "?", to ? to : "?");
	if (when && at < sizeof(raw))
		snprintf(raw + at, sizeof(raw) - at, ", %s", when);
	clean_text(raw, out, len);
}

static int is_kind(const json_t *e, const char *kind)
{
	const char *k = json_string_value(json_object_get(e, "kind"));

	return k && !strcmp(k, kind);
}

static size_t bw_series(const json_t *res, struct series *s)
{
	size_t i, k, n = 0;
	const json_t *e;
	struct series one;

	json_array_foreach(res, i, e)
	{
		if (!is_kind(e, "bandwidth"))
			continue;
		one.test = json_string_value(json_object_get(e, "test"));
		one.qps = json_integer_value(json_object_get(e, "num_qps"));
		for (k = 0; k < n; k++)
			if (s[k].qps == one.qps && one.test && s[k].test &&
			    !strcmp(s[k].test, one.test))
				break;
		if (k == n && n < MAX_SERIES && one.test)
			s[n++] = one;
	}
	return n;
}

static void bw_block(FILE *f, const json_t *res, const struct series *s,
		     size_t idx)
{
	const json_t *e;
	size_t i;

	fprintf(f, "$bw%zu << EOD\n", idx);
	json_array_foreach(res, i, e)
	{
		const char *t = json_string_value(json_object_get(e, "test"));

		if (!is_kind(e, "bandwidth") || !t || strcmp(t, s->test) ||
		    json_integer_value(json_object_get(e, "num_qps")) != s->qps)
			continue;
		fprintf(f, "%" JSON_INTEGER_FORMAT " %.9g\n",
			json_integer_value(json_object_get(e, "size_bytes")),
			json_number_value(json_object_get(e, "bw_avg_gbps")));
	}
	fprintf(f, "EOD\n");
}

static int lat_point(const json_t *e)
{
	return is_kind(e, "latency") &&
	       json_is_number(json_object_get(e, "lat_p50_us"));
}

static size_t lat_block(FILE *f, const json_t *res)
{
	const json_t *e;
	size_t i, n = 0;

	json_array_foreach(res, i, e) n += (size_t)lat_point(e);
	if (!n)
		return 0;
	fprintf(f, "$lat << EOD\n");
	json_array_foreach(res, i, e)
	{
		if (!lat_point(e))
			continue;
		fprintf(f, "%" JSON_INTEGER_FORMAT " %.9g %.9g %.9g %.9g\n",
			json_integer_value(json_object_get(e, "size_bytes")),
			json_number_value(json_object_get(e, "lat_p50_us")),
			json_number_value(json_object_get(e, "lat_p90_us")),
			json_number_value(json_object_get(e, "lat_p99_us")),
			json_number_value(json_object_get(e, "lat_p999_us")));
	}
	fprintf(f, "EOD\n");
	return n;
}

static void size_axis(FILE *f)
{
	fprintf(f, "set logscale x 2\n"
		   "set format x '%%.0b %%BB'\n"
		   "set xlabel 'message size [bytes, log2 scale]'\n"
		   "set grid\nset key top left\n");
}

/* The highest average of the bandwidth points, 0 when none. */
static double bw_max(const json_t *res)
{
	const json_t *e;
	double v, max = 0;
	size_t i;

	json_array_foreach(res, i, e)
	{
		v = json_number_value(json_object_get(e, "bw_avg_gbps"));
		if (is_kind(e, "bandwidth") && isfinite(v) && v > max)
			max = v;
	}
	return max;
}

/* The band and the line rate, inside the range. */
static void bw_limits(FILE *f, double line)
{
	fprintf(f,
		"set object 1 rect from graph 0, first %.6g to "
		"graph 1, first %.6g fc rgb '#a5d6a7' fs solid 0.4 "
		"noborder behind\n"
		"set label 1 'acceptance band %.4g-%.4g%% of %.6g "
		"Gb/s' at graph 0.99, first %.6g right front\n",
		RDP_BAND_LO * line, RDP_BAND_HI * line, RDP_BAND_LO * 100,
		RDP_BAND_HI * 100, line, RDP_BAND_LO * line);
}

/*
 * The y range comes from the data: a run far below the line rate (Soft-
 * RoCE moves 0.1 Gb/s on a 10 Gb/s port) is no flat line at the bottom.
 * The band and the line rate are drawn when the data reach half the band,
 * the range then taking them in; else one label says where they are.
 */
static void bw_plot(FILE *f, const json_t *doc, const struct series *s,
		    size_t n, const char *ctx)
{
	const json_t *res = json_object_get(doc, "results");
	double line = json_number_value(json_object_get(
		json_object_get(doc, "device"), "line_rate_gbps"));
	double max = bw_max(res), top = max > 0 ? max * 1.15 : 1;
	int limits = line > 0 && max >= 0.5 * RDP_BAND_LO * line;
	char test[64];
	size_t i;

	size_axis(f);
	fprintf(f,
		"set title \"Bandwidth vs message size\\n%s\"\n"
		"set ylabel 'bandwidth [Gb/s]'\n",
		ctx);
	if (limits) {
		bw_limits(f, line);
		if (line * 1.05 > top)
			top = line * 1.05;
	} else if (line > 0) {
		fprintf(f,
			"set label 1 'line rate %.6g Gb/s (band %.4g-%.4g "
			"Gb/s) is above this range' at graph 0.99, graph 0.96 "
			"right front\n",
			line, RDP_BAND_LO * line, RDP_BAND_HI * line);
	}
	fprintf(f, "set yrange [0:%.6g]\n", top);
	fprintf(f, "plot ");
	for (i = 0; i < n; i++) {
		clean(s[i].test, test, sizeof(test));
		fprintf(f,
			"%s$bw%zu using 1:2 with linespoints lw 2 title "
			"'%s, %" JSON_INTEGER_FORMAT " QP%s'",
			i ? ", " : "", i, test, s[i].qps,
			s[i].qps > 1 ? "s" : "");
	}
	if (limits)
		fprintf(f,
			", %.6g with lines dt 2 lc rgb '#2e7d32' title "
			"'line rate'",
			line);
	fprintf(f, "\nunset object 1\nunset label 1\n");
}

static void lat_plot(FILE *f, const char *ctx)
{
	size_axis(f);
	fprintf(f, "set title \"Latency percentiles vs message size\\n%s\"\n",
		ctx);
	fprintf(f, "set ylabel 'latency [us]'\nset yrange [0:*]\n"
		   "plot $lat using 1:2 with linespoints lw 2 title 'p50', "
		   "'' using 1:3 with linespoints title 'p90', "
		   "'' using 1:4 with linespoints title 'p99', "
		   "'' using 1:5 with linespoints title 'p99.9'\n");
}

int rdp_plot_script(const json_t *doc, FILE *f)
{
	const json_t *res = json_object_get(doc, "results");
	struct series s[MAX_SERIES];
	size_t i, n_bw, n_lat;
	char ctx[512];
	int panels;

	if (!json_is_array(res))
		return -EINVAL;
	context_of(doc, res, ctx, sizeof(ctx));
	n_bw = bw_series(res, s);
	fprintf(f, "# rdmaperf plot: data inline, SVG on stdout\n");
	for (i = 0; i < n_bw; i++)
		bw_block(f, res, &s[i], i);
	n_lat = lat_block(f, res);
	panels = (n_bw > 0) + (n_lat > 0);
	if (!panels)
		return -EINVAL;
	fprintf(f,
		"set terminal svg size 900,%d dynamic enhanced font "
		"'sans,11' background rgb 'white'\n"
		"set termoption noenhanced\n",
		panels * 480);
	if (panels > 1)
		fprintf(f, "set multiplot layout 2,1\n");
	if (n_bw)
		bw_plot(f, doc, s, n_bw, ctx);
	if (n_lat)
		lat_plot(f, ctx);
	if (panels > 1)
		fprintf(f, "unset multiplot\n");
	return 0;
}

/* Start gnuplot reading the script from *in_fd, writing to out_fd, its
 * messages to err_fd. */
static int spawn_gnuplot(const char *prog, int out_fd, int err_fd, pid_t *pid,
			 int *in_fd)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { (char *)prog, NULL };
	int pipefd[2], ret;

	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	ret = posix_spawn_file_actions_init(&fa);
	if (!ret)
		ret = posix_spawn_file_actions_adddup2(&fa, pipefd[0], 0);
	if (!ret)
		ret = posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	if (!ret)
		ret = posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
	if (!ret)
		ret = posix_spawnp(pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[0]);
	if (ret) {
		close(pipefd[1]);
		return -ret;
	}
	*in_fd = pipefd[1];
	return 0;
}

/* Feed the script, then wait: 0 when gnuplot exits 0. */
static int feed(pid_t pid, int in_fd, const char *script, size_t len)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	size_t off = 0;
	ssize_t w;
	int status;

	/* gnuplot dying early must show as its exit status, not kill us. */
	sigaction(SIGPIPE, &ign, &old);
	while (off < len) {
		w = write(in_fd, script + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(in_fd);
	sigaction(SIGPIPE, &old, NULL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) && off == len ? 0
								       : -EIO;
}

/* gnuplot's last message line (where it names the error), trimmed, into
 * buf; "" when it said nothing. */
static void last_message(FILE *errf, char *buf, size_t len)
{
	char line[512];
	size_t n;
	char *p;

	buf[0] = '\0';
	rewind(errf);
	while (fgets(line, sizeof(line), errf)) {
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		n = strcspn(p, "\r\n");
		p[n] = '\0';
		/* the ^ under the script's line says nothing alone */
		if (n && strcmp(p, "^"))
			snprintf(buf, len, "%s", p);
	}
}

/* gnuplot's warnings go to a file, not the terminal: a drawing that
 * worked says nothing, one that failed says gnuplot's last line. */
int rdp_plot_draw(const char *script, size_t len, const char *out)
{
	const char *env = getenv("RDP_GNUPLOT");
	const char *prog = env && *env ? env : "gnuplot";
	FILE *errf = tmpfile();
	int fd, in_fd = -1, ret;
	char why[512] = "";
	pid_t pid = 0;

	if (!errf) {
		ret = -errno;
		rdp_err("plot: a file for gnuplot's messages: %s",
			strerror(-ret));
		return -EIO;
	}
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		rdp_err("plot: open %s: %s", out, strerror(-ret));
		fclose(errf);
		return -EIO; /* not -ENOENT: that means no gnuplot */
	}
	ret = spawn_gnuplot(prog, fd, fileno(errf), &pid, &in_fd);
	if (!ret)
		ret = feed(pid, in_fd, script, len);
	close(fd);
	if (ret && ret != -ENOENT)
		last_message(errf, why, sizeof(why));
	fclose(errf);
	if (ret == -ENOENT)
		rdp_err("plot: %s not found: install gnuplot (Debian: apt-get "
			"install gnuplot-nox) or point RDP_GNUPLOT at it",
			prog);
	else if (ret)
		rdp_err("plot: %s failed drawing %s: %s", prog, out,
			why[0] ? why : "no message");
	if (ret)
		unlink(out);
	return ret;
}

int rdp_plot_file(const json_t *doc, const char *out)
{
	char *script = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	f = open_memstream(&script, &len);
	if (!f)
		return -ENOMEM;
	ret = rdp_plot_script(doc, f);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	if (ret == -EINVAL)
		rdp_err("plot: the document holds no bandwidth or latency "
			"results to draw");
	if (!ret)
		ret = rdp_plot_draw(script, len, out);
	free(script);
	return ret;
}
