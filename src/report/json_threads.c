/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON of a run split over threads (--threads): every thread's figures
 * and how their sum was taken; and each QP's part (--report-per-qp). */
#include <math.h>
#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/json_sys.h>

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *thread_obj(const struct rdp_thread_result *t, uint32_t i)
{
	json_t *o = json_object();
	int err = !o;

	if (err)
		return NULL;
	err |= json_object_set_new(o, "thread", json_integer(i));
	err |= json_object_set_new(
		o, "cpu", t->cpu >= 0 ? json_integer(t->cpu) : json_null());
	err |= json_object_set_new(o, "first_qp", json_integer(t->first_qp));
	err |= json_object_set_new(o, "num_qps", json_integer(t->num_qps));
	err |= json_object_set_new(o, "msgs",
				   json_integer((json_int_t)t->msgs));
	err |= json_object_set_new(o, "start_s", real_or_null(t->start_s));
	err |= json_object_set_new(o, "end_s", real_or_null(t->end_s));
	err |= json_object_set_new(o, "elapsed_s",
				   real_or_null(t->elapsed_ns / 1e9));
	err |= json_object_set_new(o, "bw_avg_gbps",
				   real_or_null(t->bw_avg_gbps));
	err |= json_object_set_new(o, "bw_peak_gbps",
				   real_or_null(t->bw_peak_gbps));
	err |= json_object_set_new(o, "msg_rate_mpps",
				   real_or_null(t->msg_rate_mpps));
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}

json_t *rdp_json_threads(const struct rdp_result *r)
{
	json_t *a = json_array(), *o;
	uint32_t i;

	for (i = 0; a && i < r->n_threads; i++) {
		o = thread_obj(&r->threads[i], i);
		if (!o || json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

json_t *rdp_json_thread_sum(const struct rdp_result *r)
{
	json_t *o = json_object();
	int err = !o;

	if (err)
		return NULL;
	err |= json_object_set_new(o, "threads", json_integer(r->n_threads));
	err |= json_object_set_new(o, "window_start_s",
				   real_or_null(r->window_start_s));
	err |= json_object_set_new(o, "window_end_s",
				   real_or_null(r->window_end_s));
	err |= json_object_set_new(
		o, "window_s",
		real_or_null(r->window_end_s - r->window_start_s));
	err |= json_object_set_new(o, "overlap_pct",
				   real_or_null(r->overlap_pct));
	err |= json_object_set_new(o, "msgs_in_window",
				   json_integer((json_int_t)r->window_msgs));
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}

json_t *rdp_json_per_qp(const struct rdp_result *r)
{
	const struct rdp_qp_result *q;
	json_t *a = json_array(), *o;
	uint32_t i;
	int err = 0;

	for (i = 0; a && !err && i < r->n_per_qp; i++) {
		q = &r->per_qp[i];
		o = json_object();
		if (!o)
			break;
		err |= json_object_set_new(o, "qp", json_integer(q->index));
		err |= json_object_set_new(o, "qp_num",
					   json_integer(q->qp_num));
		err |= json_object_set_new(o, "flow_label",
					   json_integer(q->flow_label));
		err |= json_object_set_new(o, "msgs",
					   json_integer((json_int_t)q->msgs));
		err |= json_object_set_new(o, "bytes",
					   json_integer((json_int_t)q->bytes));
		err |= json_object_set_new(o, "bw_gbps",
					   real_or_null(q->bw_gbps));
		err |= json_array_append_new(a, o);
	}
	if (a && (err || i < r->n_per_qp)) {
		json_decref(a);
		return NULL;
	}
	return a;
}
