/* SPDX-License-Identifier: BSD-2-Clause */
/* `rdmaperf doctor --json`: the checks, the GID table and the peer's view
 * as one document, built with jansson. */
#include <errno.h>
#include <stdio.h>
#include <arpa/inet.h>
#include <jansson.h>

#include "doctor_cmd.h"
#include <rdmaperf/engine.h>

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *checks_arr(const struct rdp_doctor *doc)
{
	json_t *a = json_array(), *o;
	const struct rdp_check *c;
	size_t i;
	int err = !a;

	for (i = 0; !err && i < doc->n_checks; i++) {
		c = &doc->checks[i];
		o = json_object();
		err |= !o;
		err |= json_object_set_new(o, "id", json_string(c->id));
		err |= json_object_set_new(o, "title", json_string(c->title));
		err |= json_object_set_new(
			o, "verdict", json_string(rdp_verdict_str(c->verdict)));
		err |= json_object_set_new(o, "value", json_string(c->value));
		err |= json_object_set_new(o, "fix", str_or_null(c->fix));
		err |= json_array_append_new(a, o);
	}
	if (!err)
		return a;
	json_decref(a);
	return NULL;
}

static json_t *gids_arr(const struct rdp_doctor *doc)
{
	char gid[64], v4[INET_ADDRSTRLEN];
	const struct rdp_gid_entry *g;
	json_t *a = json_array(), *o;
	size_t i;
	int err = !a;

	for (i = 0; !err && i < doc->n_gids; i++) {
		g = &doc->gids[i];
		rdp_gid_format(g->raw, gid, sizeof(gid));
		v4[0] = '\0';
		if (rdp_gid_is_ipv4_mapped(g->raw))
			inet_ntop(AF_INET, g->raw + 12, v4, sizeof(v4));
		o = json_object();
		err |= !o;
		err |= json_object_set_new(o, "index", json_integer(g->index));
		err |= json_object_set_new(o, "gid", json_string(gid));
		err |= json_object_set_new(o, "ipv4", str_or_null(v4));
		err |= json_object_set_new(
			o, "type", json_string(rdp_gid_type_str(g->type)));
		err |= json_object_set_new(o, "netdev", str_or_null(g->ndev));
		err |= json_object_set_new(
			o, "used", json_boolean((int)i == doc->chosen_gid));
		err |= json_array_append_new(a, o);
	}
	if (!err)
		return a;
	json_decref(a);
	return NULL;
}

static json_t *peer_obj(const struct doctor_peer *p)
{
	const struct rdp_msg_accept *a;
	json_t *o;
	int err = 0;

	if (!p || !p->reached)
		return json_null();
	a = &p->accept;
	o = json_object();
	if (!o)
		return NULL;
	err |= json_object_set_new(o, "address", json_string(p->addr));
	err |= json_object_set_new(o, "hostname",
				   json_string(p->hello.hostname));
	err |= json_object_set_new(o, "rdmaperf_version",
				   json_string(p->hello.tool_version));
	if (p->have_accept) {
		err |= json_object_set_new(o, "device", json_string(a->device));
		err |= json_object_set_new(o, "port", json_integer(a->port));
		err |= json_object_set_new(o, "active_mtu_bytes",
					   json_integer(a->active_mtu_bytes));
		err |= json_object_set_new(o, "gid_index",
					   json_integer(a->gid_index));
		err |= json_object_set_new(
			o, "gid_type",
			json_string(rdp_gid_type_str(
				(enum rdp_gid_type)a->gid_type)));
		err |= json_object_set_new(o, "numa_node",
					   a->numa_node >= 0
						   ? json_integer(a->numa_node)
						   : json_null());
	}
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}

static json_t *summary_obj(const struct rdp_doctor *doc)
{
	json_t *o = json_object();
	size_t n[4];
	int err = !o;

	rdp_doctor_tally(doc, n);
	err |= json_object_set_new(o, "pass", json_integer((json_int_t)n[0]));
	err |= json_object_set_new(o, "warn", json_integer((json_int_t)n[1]));
	err |= json_object_set_new(o, "fail", json_integer((json_int_t)n[2]));
	err |= json_object_set_new(o, "skip", json_integer((json_int_t)n[3]));
	err |= json_object_set_new(o, "ok", json_boolean(!n[RDP_FAIL]));
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}

int rdp_doctor_print_json(const struct doctor_opts *o,
			  const struct rdp_doctor *doc,
			  const struct doctor_peer *peer)
{
	json_t *root = json_object();
	int err = !root;

	(void)o;
	err |= json_object_set_new(root, "tool", json_string("rdmaperf"));
	err |= json_object_set_new(root, "command", json_string("doctor"));
	err |= json_object_set_new(root, "version",
				   json_string(PACKAGE_VERSION));
	err |= json_object_set_new(root, "device", json_string(doc->dev));
	err |= json_object_set_new(root, "port", json_integer(doc->port));
	err |= json_object_set_new(root, "link_layer",
				   json_string(doc->link_eth ? "Ethernet"
							     : "InfiniBand"));
	err |= json_object_set_new(root, "netdev", str_or_null(doc->netdev));
	err |= json_object_set_new(root, "numa_node",
				   doc->numa_node >= 0
					   ? json_integer(doc->numa_node)
					   : json_null());
	err |= json_object_set_new(root, "local_cpus",
				   str_or_null(doc->local_cpus));
	err |= json_object_set_new(root, "topology",
				   rdp_doctor_topo_json(doc->topo));
	err |= json_object_set_new(root, "checks", checks_arr(doc));
	err |= json_object_set_new(root, "gid_table", gids_arr(doc));
	err |= json_object_set_new(root, "peer",
				   peer ? peer_obj(peer) : json_null());
	err |= json_object_set_new(root, "summary", summary_obj(doc));
	if (!err)
		err = json_dumpf(root, stdout,
				 JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
		      fputc('\n', stdout) == EOF || fflush(stdout);
	json_decref(root);
	return err ? -EIO : 0;
}
