/* SPDX-License-Identifier: BSD-2-Clause */
/* --report-per-port: a -O point's QPs grouped by the device port they
 * used, from the per-QP rows the loop recorded, as text rows and JSON. */
#include <math.h>
#include <stdio.h>
#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/json_sys.h>
#include <rdmaperf/report.h>
#include <rdmaperf/sink.h>

size_t rdp_result_per_port(const struct rdp_result *r, struct rdp_port_sum *out,
			   size_t max)
{
	const struct rdp_qp_result *q;
	size_t n = 0, k;
	uint32_t i;

	for (i = 0; i < r->n_per_qp; i++) {
		q = &r->per_qp[i];
		for (k = 0; k < n && out[k].port != q->port; k++)
			;
		if (k == n) {
			if (n == max)
				continue;
			out[n++] =
				(struct rdp_port_sum){ .port = q->port,
						       .first_qp = q->index };
		}
		out[k].n_qps++;
		out[k].msgs += q->msgs;
		out[k].bytes += q->bytes;
	}
	for (k = 0; k < n; k++)
		out[k].bw_gbps = r->elapsed_ns > 0 ? (double)out[k].bytes * 8 /
							     r->elapsed_ns
						   : 0;
	return n;
}

void rdp_report_per_port(FILE *f, const struct rdp_report_info *in,
			 const struct rdp_result *r)
{
	struct rdp_port_sum s[RDP_PORTS_MAX];
	size_t n = rdp_result_per_port(r, s, RDP_PORTS_MAX), k;
	char name[16];

	for (k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "[port %u]", s[k].port);
		fprintf(f, " %-10s %-14llu %-19s %-22.2f %.6f   QPs %u-%u\n",
			name, (unsigned long long)s[k].msgs, "-",
			in->gbits ? s[k].bw_gbps
				  : rdp_report_mibps(s[k].bw_gbps),
			r->elapsed_ns > 0
				? (double)s[k].msgs * 1e3 / r->elapsed_ns
				: 0.0,
			s[k].first_qp, s[k].first_qp + s[k].n_qps - 1);
	}
}

static json_t *port_obj(const struct rdp_port_sum *s)
{
	json_t *o = json_object();
	int err = !o;

	if (err)
		return NULL;
	err |= json_object_set_new(o, "port", json_integer(s->port));
	err |= json_object_set_new(o, "first_qp", json_integer(s->first_qp));
	err |= json_object_set_new(o, "num_qps", json_integer(s->n_qps));
	err |= json_object_set_new(o, "msgs",
				   json_integer((json_int_t)s->msgs));
	err |= json_object_set_new(o, "bytes",
				   json_integer((json_int_t)s->bytes));
	err |= json_object_set_new(o, "bw_gbps",
				   isfinite(s->bw_gbps) ? json_real(s->bw_gbps)
							: json_null());
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}

json_t *rdp_json_per_port(const struct rdp_result *r)
{
	struct rdp_port_sum s[RDP_PORTS_MAX];
	size_t n = rdp_result_per_port(r, s, RDP_PORTS_MAX), k;
	json_t *a = json_array(), *o;

	for (k = 0; a && k < n; k++) {
		o = port_obj(&s[k]);
		if (!o || json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}
