/* SPDX-License-Identifier: BSD-2-Clause */
/* Per-QP paths: --flow_label's list (parsing, refusals, PARAMS, the path
 * each QP takes) and --report-per-qp's rows and JSON from a made result. */
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

#include "report_ctx.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/rules.h>
#include <rdmaperf/session_steps.h>
#include <rdmaperf/sink.h>
#include <rdmaperf/wire.h>

#define BUF_BYTES (RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD)

/* The command lines from argv.h alone (unit.h's doctor.h's enum
 * rdp_verdict meets sink.h's struct here). */
#include "argv.h"

/* The client refuses the line with exactly the error want. */
static void refuse_line(const char *want, int argc, char **argv)
{
	struct rdp_opts o;
	char err[256] = "";

	assert_int_equal(rdp_opts_parse_client(argc, argv, &o, err,
					       sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, want);
}

#define expect_line(want, ...)                                                 \
	refuse_line(want, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

static void test_flow_label_parse(void **state)
{
	struct rdp_opts o;
	char err[256];

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "--flow_label", "7", "-q",
				"4", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.flow_label, 7);
	assert_int_equal(o.params.n_flow_labels, 0);
	assert_int_equal(rdp_params_flow_label(&o.params, 3), 7);

	assert_int_equal(CLIENT(&o, err, "write_bw", "--flow_label", "1,2,3,4",
				"-q", "4", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.flow_label, 1);
	assert_int_equal(o.params.n_flow_labels, 4);
	assert_int_equal(rdp_params_flow_label(&o.params, 0), 1);
	assert_int_equal(rdp_params_flow_label(&o.params, 3), 4);

	assert_int_equal(CLIENT(&o, err, "read_bw", "--flow_label=10:40:+10",
				"-q", "4", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.n_flow_labels, 4);
	assert_int_equal(o.params.flow_labels[3], 40);

	/* The default: no label at all. */
	assert_int_equal(CLIENT(&o, err, "write_bw", "h"), RDP_PARSE_OK);
	assert_int_equal(o.params.flow_label, 0);
	assert_int_equal(o.params.n_flow_labels, 0);

	assert_int_equal(CLIENT(&o, err, "write_bw", "--report-per-qp", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.report.per_qp, 1);
}

static void test_flow_label_refusals(void **state)
{
	(void)state;
	expect_line("--flow_label lists 3 labels for 4 QPs (-q): give one "
		    "label per QP, or one for all",
		    "write_bw", "-q", "4", "--flow_label", "1,2,3", "h");
	expect_line("--flow_label lists 4 labels for 1 QPs (-q): give one "
		    "label per QP, or one for all",
		    "write_bw", "--flow_label", "1,2,3,4", "h");
	/* Every point of a -q sweep must match the list. */
	expect_line("--flow_label lists 4 labels for 2 QPs (-q): give one "
		    "label per QP, or one for all",
		    "write_bw", "-q", "4,2", "--flow_label", "1,2,3,4", "h");
	expect_line("--flow_label 1,1048576 is out of range: use 0..1048575",
		    "write_bw", "-q", "2", "--flow_label", "1,1048576", "h");
	expect_line("--flow_label 1:300:+1: more than 256 labels", "write_bw",
		    "--flow_label", "1:300:+1", "h");
	expect_line("--pkey_index, --flow_label and --hop_limit do not apply "
		    "with -R: RDMA CM takes the path from the route",
		    "write_bw", "-R", "-q", "2", "--flow_label", "0,5", "h");
}

/* The server applies the same rule to a list it was sent. */
static void test_flow_label_rules(void **state)
{
	const struct rdp_bench_ops *ops = rdp_bench_find("write_bw");
	struct rdp_rules_side side = { 0 };
	struct rdp_params p;
	char why[256] = "";

	(void)state;
	rdp_params_defaults(&p);
	strcpy(p.test, "write_bw");
	p.num_qps = 2;
	p.n_flow_labels = 2;
	p.flow_labels[0] = 1;
	p.flow_labels[1] = 2;
	assert_int_equal(rdp_rules_check(&p, ops, &side, why, sizeof(why)), 0);
	p.flow_labels[1] = 0x100000;
	assert_int_equal(rdp_rules_check(&p, ops, &side, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "--flow_label 1048576 (QP 1) is out of "
				 "range: use 0..1048575");
	p.flow_labels[1] = 2;
	p.num_qps = 3;
	assert_int_equal(rdp_rules_check(&p, ops, &side, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "--flow_label lists 2 labels for 3 QPs (-q): "
				 "give one label per QP, or one for all");
}

static size_t encode_params(const struct rdp_params *p, uint8_t *buf)
{
	struct rdp_msg m = { .type = RDP_MSG_PARAMS };
	size_t len = 0;

	m.u.params = *p;
	assert_int_equal(rdp_wire_encode(&m, buf, BUF_BYTES, &len), 0);
	return len;
}

/* A list rides after PARAMS' fields; without one the message is as it
 * always was. */
static void test_flow_label_wire(void **state)
{
	static uint8_t buf[BUF_BYTES];
	static struct rdp_msg out;
	struct rdp_params p;
	size_t plain, listed;
	uint32_t i;

	(void)state;
	rdp_params_defaults(&p);
	strcpy(p.test, "write_bw");
	p.num_qps = 4;
	p.flow_label = 9;
	plain = encode_params(&p, buf);
	assert_int_equal(rdp_wire_decode_body(RDP_MSG_PARAMS,
					      buf + RDP_WIRE_HDR_BYTES,
					      plain - RDP_WIRE_HDR_BYTES, &out),
			 0);
	assert_int_equal(out.u.params.flow_label, 9);
	assert_int_equal(out.u.params.n_flow_labels, 0);

	p.n_flow_labels = 4;
	for (i = 0; i < 4; i++)
		p.flow_labels[i] = 0xfffff - i;
	listed = encode_params(&p, buf);
	assert_int_equal(listed, plain + 2 + 4 * 4);
	assert_int_equal(
		rdp_wire_decode_body(RDP_MSG_PARAMS, buf + RDP_WIRE_HDR_BYTES,
				     listed - RDP_WIRE_HDR_BYTES, &out),
		0);
	assert_int_equal(out.u.params.n_flow_labels, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(out.u.params.flow_labels[i], 0xfffff - i);

	/* Cut inside the list, or a count no client sends. */
	assert_int_equal(
		rdp_wire_decode_body(RDP_MSG_PARAMS, buf + RDP_WIRE_HDR_BYTES,
				     listed - RDP_WIRE_HDR_BYTES - 1, &out),
		-EBADMSG);
	assert_int_equal(
		rdp_wire_decode_body(RDP_MSG_PARAMS, buf + RDP_WIRE_HDR_BYTES,
				     plain - RDP_WIRE_HDR_BYTES + 1, &out),
		-EBADMSG);
	buf[plain] = 0;
	buf[plain + 1] = 1; /* a list of one */
	assert_int_equal(
		rdp_wire_decode_body(RDP_MSG_PARAMS, buf + RDP_WIRE_HDR_BYTES,
				     plain - RDP_WIRE_HDR_BYTES + 6, &out),
		-EBADMSG);
	buf[plain] = 0x01;
	buf[plain + 1] = 0x01; /* 257 */
	assert_int_equal(
		rdp_wire_decode_body(RDP_MSG_PARAMS, buf + RDP_WIRE_HDR_BYTES,
				     listed - RDP_WIRE_HDR_BYTES, &out),
		-EBADMSG);
}

/* Each QP's address vector gets its own label, on either side. */
static void test_flow_label_path(void **state)
{
	struct rdp_path_opts path;
	struct rdp_params p;

	(void)state;
	rdp_params_defaults(&p);
	p.flow_label = 3;
	rdp_path_from_params(&p, &path);
	assert_int_equal(path.flow_label, 3);
	assert_int_equal(path.n_flow_labels, 0);
	assert_null(path.flow_labels);
	p.n_flow_labels = 2;
	p.flow_labels[0] = 3;
	p.flow_labels[1] = 4;
	rdp_path_from_params(&p, &path);
	assert_int_equal(path.n_flow_labels, 2);
	assert_ptr_equal(path.flow_labels, p.flow_labels);
}

static const struct rdp_bench_ops bw_ops = {
	.name = "write_bw",
	.title = "RDMA Write BW Test",
	.kind = RDP_BENCH_BW,
	.check_unit = "bytes verified after the run",
};

static struct rdp_qp_result qps[] = {
	{ 0, 0x11, 1, 600, 600 * 65536, 12.582912 },
	{ 1, 0x12, 2, 400, 400 * 65536, 8.388608 },
};

static struct rdp_result made_result(void)
{
	return (struct rdp_result){
		.size_bytes = 65536,
		.num_qps = 2,
		.msgs = 1000,
		.elapsed_ns = 25e6,
		.bw_avg_gbps = 20.97152,
		.bw_peak_gbps = 22.5,
		.msg_rate_mpps = 0.04,
		.data_ok = 1,
		.per_qp = qps,
		.n_per_qp = 2,
	};
}

static char *text_of(struct ctx *c, int per_qp)
{
	struct rdp_text_sink_cfg cfg = { .per_qp = per_qp };
	struct rdp_result r = made_result();
	struct rdp_report_sinks l = { 0 };
	struct rdp_report_sink *s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(rdp_text_sink_create(f, &cfg, &s), 0);
	assert_int_equal(rdp_sinks_add(&l, s), 0);
	assert_int_equal(rdp_sinks_point(&l, &c->info, &r), 0);
	rdp_sinks_free(&l);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_per_qp_text(void **state)
{
	static struct ctx c;
	char *t;

	(void)state;
	ctx_init_ops(&c, &bw_ops);
	c.info.gbits = 1;
	t = text_of(&c, 1);
	assert_non_null(strstr(t,
			       " 65536      1000           22.50               "
			       "20.97                  0.040000"));
	assert_non_null(strstr(
		t, "\n [QP0]      600            -                   "
		   "12.58                  0.024000   qp 0x11, flow label "
		   "1\n [QP1]      400            -                   "
		   "8.39                   0.016000   qp 0x12, flow label "
		   "2\n"));
	free(t);
	t = text_of(&c, 0);
	assert_null(strstr(t, "[QP0]"));
	free(t);
}

static json_t *entry_of(struct ctx *c, int per_qp, struct rdp_json **doc,
			struct rdp_report_sink **s)
{
	struct rdp_json_sink_cfg cfg = { .per_qp = per_qp };
	struct rdp_result r = made_result();
	json_t *results;

	assert_int_equal(rdp_json_sink_create(&cfg, s), 0);
	assert_int_equal((*s)->ops->point(*s, &c->info, &r), 0);
	*doc = rdp_json_sink_doc(*s);
	assert_non_null(*doc);
	results = json_object_get(rdp_json_root(*doc), "results");
	assert_int_equal(json_array_size(results), 1);
	return json_array_get(results, 0);
}

static void test_per_qp_json(void **state)
{
	static struct ctx c;
	struct rdp_report_sink *s;
	struct rdp_json *doc;
	json_t *e, *a, *q;
	uint64_t sum = 0;
	size_t i;

	(void)state;
	ctx_init_ops(&c, &bw_ops);
	e = entry_of(&c, 1, &doc, &s);
	a = json_object_get(e, "per_qp");
	assert_true(json_is_array(a));
	assert_int_equal(json_array_size(a), 2);
	for (i = 0; i < 2; i++) {
		q = json_array_get(a, i);
		assert_int_equal(json_integer_value(json_object_get(q, "qp")),
				 i);
		assert_int_equal(
			json_integer_value(json_object_get(q, "qp_num")),
			0x11 + i);
		assert_int_equal(
			json_integer_value(json_object_get(q, "flow_label")),
			1 + i);
		assert_int_equal(
			json_integer_value(json_object_get(q, "bytes")),
			qps[i].bytes);
		assert_true(json_real_value(json_object_get(q, "bw_gbps")) > 8);
		sum += json_integer_value(json_object_get(q, "msgs"));
	}
	assert_int_equal(sum, 1000);
	s->ops->destroy(s);

	e = entry_of(&c, 0, &doc, &s);
	assert_null(json_object_get(e, "per_qp"));
	s->ops->destroy(s);
}

/* A list shows in the header's Path line and the JSON's parameters. */
static void test_flow_labels_shown(void **state)
{
	static struct ctx c;
	struct rdp_report_sink *s;
	struct rdp_json *doc;
	json_t *labels;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	ctx_init_ops(&c, &bw_ops);
	c.params.flow_label = 1;
	c.params.n_flow_labels = 2;
	c.params.flow_labels[0] = 1;
	c.params.flow_labels[1] = 2;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rdp_report_header(f, &c.info);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, ", flow labels per QP (2, first 0x1), "
				    "hop limit 64,"));
	free(buf);
	entry_of(&c, 0, &doc, &s);
	labels = json_object_get(json_object_get(rdp_json_root(doc),
						 "parameters"),
				 "flow_labels");
	assert_int_equal(json_array_size(labels), 2);
	assert_int_equal(json_integer_value(json_array_get(labels, 1)), 2);
	s->ops->destroy(s);

	c.params.n_flow_labels = 0;
	entry_of(&c, 0, &doc, &s);
	assert_null(json_object_get(json_object_get(rdp_json_root(doc),
						    "parameters"),
				    "flow_labels"));
	s->ops->destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flow_label_parse),
		cmocka_unit_test(test_flow_label_refusals),
		cmocka_unit_test(test_flow_label_rules),
		cmocka_unit_test(test_flow_label_wire),
		cmocka_unit_test(test_flow_label_path),
		cmocka_unit_test(test_per_qp_text),
		cmocka_unit_test(test_per_qp_json),
		cmocka_unit_test(test_flow_labels_shown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
