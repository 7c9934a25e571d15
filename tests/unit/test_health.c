/* SPDX-License-Identifier: BSD-2-Clause */
/* The link's health: device events named and logged, their lines, the flap
 * verdict, --soak's intervals judged into bad ranges, its option, and the
 * report sink that fails a point whose port went down. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>
#include <infiniband/verbs.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/events.h>
#include <rdmaperf/health.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/report.h>
#include <rdmaperf/run_opts.h>
#include <rdmaperf/sink.h>

/* unit.h's doctor verdict and the report's sink.h name one tag: the
 * command lines come from argv.h alone, the check is spelled out here. */
#include "argv.h"

static void expect_in(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("'%s' lacks '%s'", text, want);
}

#define S_NS 1000000000ull

static struct rdp_event port_ev(int type, uint32_t port, double t_s)
{
	struct rdp_event e = { .type = type, .obj = RDP_EVENT_OBJ_PORT };

	e.num = port;
	e.t_s = t_s;
	e.mono_ns = (uint64_t)(t_s * 1e9);
	return e;
}

static void test_names(void **state)
{
	static const int all[] = {
		IBV_EVENT_PORT_ERR,	 IBV_EVENT_PORT_ACTIVE,
		IBV_EVENT_GID_CHANGE,	 IBV_EVENT_LID_CHANGE,
		IBV_EVENT_QP_FATAL,	 IBV_EVENT_QP_REQ_ERR,
		IBV_EVENT_QP_ACCESS_ERR, IBV_EVENT_CQ_ERR,
		IBV_EVENT_DEVICE_FATAL,	 IBV_EVENT_SM_CHANGE,
		IBV_EVENT_SRQ_ERR,	 IBV_EVENT_WQ_FATAL,
	};
	size_t i;

	(void)state;
	assert_string_equal(rdp_event_type_word(IBV_EVENT_PORT_ERR),
			    "PORT_ERR");
	assert_string_equal(rdp_event_type_word(IBV_EVENT_GID_CHANGE),
			    "GID_CHANGE");
	assert_string_equal(rdp_event_type_phrase(IBV_EVENT_PORT_ERR),
			    "went down");
	assert_string_equal(rdp_event_type_word(9999), "UNKNOWN");
	assert_int_equal(rdp_event_type_of("NOPE"), -1);
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		assert_int_equal(rdp_event_type_of(rdp_event_type_word(all[i])),
				 all[i]);
	assert_true(rdp_event_is_port(IBV_EVENT_GID_CHANGE));
	assert_false(rdp_event_is_port(IBV_EVENT_QP_FATAL));
}

/* Two readers with their own cursors; past the bound, the oldest are
 * counted as dropped and the newest kept. */
static void test_log(void **state)
{
	struct rdp_event_log *l;
	struct rdp_event out[RDP_EVENT_LOG_MAX], e;
	uint64_t a = 0, b, dropped;
	size_t n, i;

	(void)state;
	assert_int_equal(rdp_event_log_create(&l), 0);
	for (i = 0; i < 3; i++) {
		e = port_ev(IBV_EVENT_PORT_ERR, (uint32_t)i + 1, 10.0 + i);
		rdp_event_log_add(l, &e);
	}
	b = rdp_event_log_seq(l);
	assert_int_equal(b, 3);
	n = rdp_event_log_take(l, &a, 9 * S_NS, out, 2, &dropped);
	assert_int_equal(n, 2);
	assert_int_equal(dropped, 0);
	assert_int_equal(out[1].num, 2);
	assert_true(out[1].t_s > 1.999 && out[1].t_s < 2.001);
	n = rdp_event_log_take(l, &a, 9 * S_NS, out, 8, &dropped);
	assert_int_equal(n, 1);
	assert_int_equal(out[0].num, 3);
	assert_int_equal(rdp_event_log_take(l, &a, 0, out, 8, NULL), 0);
	for (i = 0; i < 300; i++) {
		e = port_ev(IBV_EVENT_GID_CHANGE, (uint32_t)i, 1);
		rdp_event_log_add(l, &e);
	}
	/* reader b: 303 behind the end, 256 kept */
	n = rdp_event_log_take(l, &b, 0, out, RDP_EVENT_LOG_MAX, &dropped);
	assert_int_equal(n, RDP_EVENT_LOG_MAX);
	assert_int_equal(dropped, 300 - RDP_EVENT_LOG_MAX);
	assert_int_equal(out[0].num, 300 - RDP_EVENT_LOG_MAX);
	assert_int_equal(out[n - 1].num, 299);
	assert_int_equal(b, 303);
	rdp_event_log_destroy(l);
	/* no log: nothing, and no crash */
	a = 0;
	assert_int_equal(rdp_event_log_take(NULL, &a, 0, out, 8, &dropped), 0);
	assert_int_equal(rdp_event_log_seq(NULL), 0);
}

static void test_lines(void **state)
{
	struct rdp_event ev[4] = {
		port_ev(IBV_EVENT_PORT_ERR, 1, 3.214),
		{ .type = IBV_EVENT_QP_FATAL,
		  .obj = RDP_EVENT_OBJ_QP,
		  .num = 0x1a2,
		  .t_s = 4.1 },
		port_ev(IBV_EVENT_PORT_ACTIVE, 1, 5.301),
		port_ev(IBV_EVENT_PORT_ERR, 2, 6.5),
	};
	char line[256], *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(rdp_event_line(ev, 4, 0, line, sizeof(line)), 1);
	assert_string_equal(line, "port 1 went down 3.214 s into the run "
				  "(IBV_EVENT_PORT_ERR); active again at "
				  "5.301 s");
	assert_int_equal(rdp_event_line(ev, 4, 1, line, sizeof(line)), 1);
	assert_string_equal(line, "QP 0x1a2: fatal error 4.100 s into the run "
				  "(IBV_EVENT_QP_FATAL)");
	/* said on the down's line */
	assert_int_equal(rdp_event_line(ev, 4, 2, line, sizeof(line)), 0);
	assert_int_equal(rdp_event_line(ev, 4, 3, line, sizeof(line)), 1);
	assert_string_equal(line, "port 2 went down 6.500 s into the run "
				  "(IBV_EVENT_PORT_ERR); not active again by "
				  "the end of the point");
	/* an ACTIVE alone has its own line */
	assert_int_equal(rdp_event_line(&ev[2], 1, 0, line, sizeof(line)), 1);
	assert_string_equal(line, "port 1 became active 5.301 s into the run "
				  "(IBV_EVENT_PORT_ACTIVE)");
	f = open_memstream(&text, &len);
	assert_non_null(f);
	rdp_events_print(f, "> ", ev, 4, 7);
	fclose(f);
	assert_string_equal(
		text,
		"> port 1 went down 3.214 s into the run (IBV_EVENT_PORT_ERR); "
		"active again at 5.301 s\n"
		"> QP 0x1a2: fatal error 4.100 s into the run "
		"(IBV_EVENT_QP_FATAL)\n"
		"> port 2 went down 6.500 s into the run (IBV_EVENT_PORT_ERR); "
		"not active again by the end of the point\n"
		"> 7 more event(s) came too fast to be kept: the device's "
		"events overflowed their log\n");
	free(text);
}

static void test_events_json(void **state)
{
	struct rdp_event ev[2] = {
		port_ev(IBV_EVENT_PORT_ERR, 1, 3.2144),
		{ .type = IBV_EVENT_CQ_ERR, .obj = RDP_EVENT_OBJ_CQ, .num = 7 },
	};
	json_t *a;
	char *s;

	(void)state;
	a = rdp_events_json(ev, 2);
	assert_non_null(a);
	s = json_dumps(a,
		       JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(15));
	assert_string_equal(s, "[{\"port\":1,\"t_s\":3.214,\"type\":"
			       "\"PORT_ERR\",\"what\":\"port 1 went down\"},"
			       "{\"cq\":7,\"t_s\":0.0,\"type\":\"CQ_ERR\","
			       "\"what\":\"CQ 7: overrun or error\"}]");
	free(s);
	json_decref(a);
}

static void counter(struct rdp_counters *c, const char *name, uint64_t v)
{
	snprintf(c->c[c->n].name, sizeof(c->c[c->n].name), "%s", name);
	c->c[c->n].value = v;
	c->n++;
}

static void test_flap_verdict(void **state)
{
	struct rdp_event ev[2] = {
		port_ev(IBV_EVENT_PORT_ERR, 1, 3.214),
		port_ev(IBV_EVENT_PORT_ACTIVE, 1, 5.301),
	};
	struct rdp_event gid = port_ev(IBV_EVENT_GID_CHANGE, 1, 1);
	static struct rdp_counters quiet, downed, symbols;
	char why[256];

	(void)state;
	/* it came back and the point completed: still a failure */
	assert_int_equal(rdp_flap_verdict(ev, 2, NULL, NULL, why, sizeof(why)),
			 1);
	assert_string_equal(why, "port 1 went down 3.214 s into the run "
				 "(IBV_EVENT_PORT_ERR); active again at "
				 "5.301 s");
	assert_int_equal(
		rdp_flap_verdict(&gid, 1, NULL, NULL, why, sizeof(why)), 0);
	counter(&quiet, "link_downed", 0);
	counter(&quiet, "sent_pkts", 1000);
	counter(&downed, "sent_pkts", 1000);
	counter(&downed, "link_downed", 2);
	counter(&symbols, "symbol_error", 5);
	assert_int_equal(
		rdp_flap_verdict(NULL, 0, &quiet, &quiet, why, sizeof(why)), 0);
	assert_int_equal(
		rdp_flap_verdict(NULL, 0, &symbols, NULL, why, sizeof(why)), 0);
	assert_int_equal(
		rdp_flap_verdict(NULL, 0, &downed, NULL, why, sizeof(why)), 1);
	assert_string_equal(why, "link_downed +2 on this side's port: its "
				 "link went down");
	assert_int_equal(rdp_flap_verdict(NULL, 0, &quiet, &downed, why,
					  sizeof(why)),
			 1);
	assert_string_equal(why, "link_downed +2 on the peer's port: its "
				 "link went down");
}

static void test_soak_judge(void **state)
{
	struct rdp_soak_rules r = { .min_bw_gbps = 10, .bw_opt = "--min-bw" };
	struct rdp_event down = port_ev(IBV_EVENT_PORT_ERR, 1, 3.5);
	struct rdp_event comm = { .type = IBV_EVENT_COMM_EST,
				  .obj = RDP_EVENT_OBJ_QP };
	static struct rdp_counters d;
	struct rdp_soak_interval iv = { .from_s = 3, .to_s = 4, .bw_gbps = 20 };
	char why[RDP_SOAK_WHY_MAX];

	(void)state;
	rdp_max_errors_default(&r.max_errors);
	counter(&d, "sent_pkts", 5000);
	iv.delta = &d;
	assert_int_equal(rdp_soak_judge(&r, &iv, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	/* a QP event alone is no port's trouble */
	iv.events = &comm;
	iv.n_events = 1;
	assert_int_equal(rdp_soak_judge(&r, &iv, why, sizeof(why)), 0);
	iv.bw_gbps = 2.5;
	assert_int_equal(rdp_soak_judge(&r, &iv, why, sizeof(why)), 1);
	assert_string_equal(why, "2.50 Gb/s below --min-bw 10.00 Gb/s");
	iv.events = &down;
	counter(&d, "symbol_error", 3);
	assert_int_equal(rdp_soak_judge(&r, &iv, why, sizeof(why)), 1);
	expect_in(why, "2.50 Gb/s below --min-bw 10.00 Gb/s; ");
	expect_in(why, "symbol_error +3");
	expect_in(why, "; port 1 went down (IBV_EVENT_PORT_ERR)");
	iv.bw_gbps = 20;
	d.n = 1;
	iv.dropped = 4;
	assert_int_equal(rdp_soak_judge(&r, &iv, why, sizeof(why)), 1);
	assert_string_equal(why, "port 1 went down (IBV_EVENT_PORT_ERR); 4 "
				 "device events lost");
}

/* A recorded sequence of intervals into bad ranges. */
static void test_soak_log(void **state)
{
	static const struct {
		double from;
		const char *why;
	} seq[] = {
		{ 0, NULL }, { 1, "A" }, { 2, "A" }, { 3, NULL },
		{ 4, "B" },  { 5, "C" }, { 6, "C" }, { 7, NULL },
	};
	static struct rdp_soak_log l = { .soak_s = 8 };
	char *text = NULL, *js;
	size_t i, len = 0;
	json_t *o;
	FILE *f;

	(void)state;
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
		rdp_soak_log_add(&l, seq[i].from, seq[i].from + 1, seq[i].why);
	assert_int_equal(l.intervals, 8);
	assert_int_equal(l.bad_intervals, 5);
	assert_int_equal(l.n_bad, 3);
	assert_float_equal(l.bad[0].from_s, 1, 1e-9);
	assert_float_equal(l.bad[0].to_s, 3, 1e-9);
	assert_string_equal(l.bad[1].why, "B");
	assert_float_equal(l.bad[2].from_s, 5, 1e-9);
	assert_float_equal(l.bad[2].to_s, 7, 1e-9);
	f = open_memstream(&text, &len);
	rdp_soak_print(f, &l);
	fclose(f);
	assert_string_equal(text,
			    " Soak            : FAIL, 5 of 8 interval(s) bad "
			    "over 8.00 s\n"
			    "   bad [   1.00-   3.00 s] A\n"
			    "   bad [   4.00-   5.00 s] B\n"
			    "   bad [   5.00-   7.00 s] C\n");
	free(text);
	o = rdp_soak_json(&l);
	js = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS |
				   JSON_REAL_PRECISION(15));
	assert_string_equal(
		js, "{\"bad\":[{\"from_s\":1.0,\"to_s\":3.0,\"why\":\"A\"},"
		    "{\"from_s\":4.0,\"to_s\":5.0,\"why\":\"B\"},"
		    "{\"from_s\":5.0,\"to_s\":7.0,\"why\":\"C\"}],"
		    "\"bad_intervals\":5,\"bad_ranges_not_listed\":0,"
		    "\"ended_by\":\"time\",\"intervals\":8,\"ran_s\":8.0,"
		    "\"seconds\":8.0}");
	free(js);
	json_decref(o);
}

/* Past RDP_SOAK_BAD_MAX ranges the rest are counted; a signal says so. */
static void test_soak_log_full(void **state)
{
	static struct rdp_soak_log l = { .soak_s = 600 };
	char *text = NULL;
	size_t i, len = 0;
	FILE *f;

	(void)state;
	for (i = 0; i < 2 * RDP_SOAK_BAD_MAX + 10; i++)
		rdp_soak_log_add(&l, (double)i, (double)i + 1,
				 i % 2 ? NULL : "x");
	assert_int_equal(l.n_bad, RDP_SOAK_BAD_MAX);
	assert_int_equal(l.bad_more, 5);
	l.signo = 2;
	f = open_memstream(&text, &len);
	rdp_soak_print(f, &l);
	fclose(f);
	expect_in(text, " Soak            : FAIL, 69 of 138 interval(s) bad "
			"over 138.00 s (ended early by SIGINT; asked for 600 "
			"s)\n");
	expect_in(text, "   and 5 more bad range(s)\n");
	free(text);
}

static void test_soak_option(void **state)
{
	struct rdp_opts o;
	char err[256];

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "--soak", "30m", "h"),
			 RDP_PARSE_OK);
	assert_float_equal(o.report.soak_s, 1800, 1e-9);
	assert_true(o.report.live);
	assert_true(o.params.flags & RDP_PARAM_LIVE);
	assert_float_equal(o.report.interval_s, 5, 1e-9);
	assert_int_equal(CLIENT(&o, err, "send_bw", "--soak", "8", "--interval",
				"1", "h"),
			 RDP_PARSE_OK);
	assert_float_equal(o.report.soak_s, 8, 1e-9);
	assert_float_equal(o.report.interval_s, 1, 1e-9);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--soak", "2d", "h"),
			 RDP_PARSE_OK);
	assert_float_equal(o.report.soak_s, 2 * 86400, 1e-9);
	assert_int_equal(CLIENT(&o, err, "write_bw", "h"), RDP_PARSE_OK);
	assert_float_equal(o.report.soak_s, 0, 1e-9);
	assert_false(o.report.live);
}

#define REJECT(needle, ...)                                                    \
	do {                                                                   \
		struct rdp_opts o_;                                            \
		char e_[256] = "";                                             \
		assert_int_equal(CLIENT(&o_, e_, __VA_ARGS__), -EINVAL);       \
		expect_in(e_, needle);                                         \
	} while (0)

static void test_soak_rejected(void **state)
{
	(void)state;
	REJECT("--soak needs a length from 1 s to 7 days", "write_bw", "--soak",
	       "0", "h");
	REJECT("not 'abc'", "write_bw", "--soak", "abc", "h");
	REJECT("not '8d'", "write_bw", "--soak", "8d", "h");
	REJECT("not 'm'", "write_bw", "--soak", "m", "h");
	REJECT("--soak runs the bandwidth tests, not write_lat", "write_lat",
	       "--soak", "60", "h");
	REJECT("one size and one QP count", "write_bw", "--soak", "60", "-a",
	       "h");
	REJECT("--soak does not combine with -b", "write_bw", "--soak", "60",
	       "-b", "h");
	REJECT("--interval 20 s is longer than --soak 10 s", "write_bw",
	       "--soak", "10", "--interval", "20", "h");
	REJECT("-D does not apply", "write_bw", "--soak", "60", "-D", "5", "h");
	REJECT("exclude", "write_bw", "--soak", "60", "-n", "5", "h");
	REJECT("exclude", "write_bw", "--soak", "60", "--run_infinitely", "h");
}

/* The sink: a flapped point's FAIL line under its events, counted at the
 * end with the soak's verdict. */
static void test_sink(void **state)
{
	struct rdp_event ev[2] = {
		port_ev(IBV_EVENT_PORT_ERR, 1, 3.214),
		port_ev(IBV_EVENT_PORT_ACTIVE, 1, 5.301),
	};
	static struct rdp_soak_log soak = { .soak_s = 8 };
	struct rdp_report_summary sum = { .n_failed = 1 };
	struct rdp_report_info in = { 0 };
	struct rdp_report_sink *s;
	struct rdp_result r = { .size_bytes = 65536, .num_qps = 1 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct rdp_health_sink_cfg cfg = { .text = f, .soak = &soak };

	(void)state;
	rdp_soak_log_add(&soak, 3, 4, "port 1 went down (IBV_EVENT_PORT_ERR)");
	rdp_soak_log_add(&soak, 4, 5, NULL);
	assert_int_equal(rdp_health_sink_create(&cfg, &s), 0);
	r.events = ev;
	r.n_events = 2;
	assert_int_equal(s->ops->point(s, &in, &r), 0);
	r.events = NULL;
	r.n_events = 0;
	assert_int_equal(s->ops->point(s, &in, &r), 0);
	assert_int_equal(s->ops->end(s, &in, &sum), 0);
	s->ops->destroy(s);
	fclose(f);
	assert_string_equal(
		text,
		" Device events   :\n"
		"   port 1 went down 3.214 s into the run (IBV_EVENT_PORT_ERR); "
		"active again at 5.301 s\n"
		"   ^ FAIL link down: port 1 went down 3.214 s into the run "
		"(IBV_EVENT_PORT_ERR); active again at 5.301 s\n"
		" Link            : FAIL (1 of 2 point(s) saw the link go "
		"down)\n"
		" Soak            : FAIL, 1 of 2 interval(s) bad over 5.00 s\n"
		"   bad [   3.00-   4.00 s] port 1 went down "
		"(IBV_EVENT_PORT_ERR)\n");
	/* the threshold's failure, the flapped point, the soak's point */
	assert_int_equal(sum.n_failed, 3);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_events_json),
		cmocka_unit_test(test_flap_verdict),
		cmocka_unit_test(test_soak_judge),
		cmocka_unit_test(test_soak_log),
		cmocka_unit_test(test_soak_log_full),
		cmocka_unit_test(test_soak_option),
		cmocka_unit_test(test_soak_rejected),
		cmocka_unit_test(test_sink),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
