/* SPDX-License-Identifier: BSD-2-Clause */
/* `rdmaperf doctor --json`: the checks, the GID table and the peer's view
 * as one document, built with jansson; and the pieces the topology object
 * (doctor_topo_json.c) is built from too. */
#include <errno.h>
#include <stdio.h>
#include <arpa/inet.h>
#include <jansson.h>

#include "doctor_cmd.h"
#include <rdmaperf/engine.h>

json_t *rdp_doctor_json_str(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

json_t *rdp_doctor_json_node(int node)
{
	return node >= 0 ? json_integer(node) : json_null();
}

json_t *rdp_doctor_json_done(json_t *o, int err)
{
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}

json_t *rdp_doctor_json_array(size_t n, rdp_doctor_json_item_fn *item,
			      const void *from)
{
	json_t *a = json_array();
	int err = !a;
	size_t i;

	/* A NULL item (out of memory) fails the append. */
	for (i = 0; !err && i < n; i++)
		err = json_array_append_new(a, item(from, i));
	return rdp_doctor_json_done(a, err);
}

static json_t *check_obj(const void *from, size_t i)
{
	const struct rdp_check *c =
		&((const struct rdp_doctor *)from)->checks[i];
	json_t *o = json_object();
	int err = !o;

	err |= json_object_set_new(o, "id", json_string(c->id));
	err |= json_object_set_new(o, "title", json_string(c->title));
	err |= json_object_set_new(o, "verdict",
				   json_string(rdp_verdict_str(c->verdict)));
	err |= json_object_set_new(o, "value", json_string(c->value));
	err |= json_object_set_new(o, "fix", rdp_doctor_json_str(c->fix));
	return rdp_doctor_json_done(o, err);
}

static json_t *gid_obj(const void *from, size_t i)
{
	const struct rdp_doctor *doc = from;
	const struct rdp_gid_entry *g = &doc->gids[i];
	char gid[64], v4[INET_ADDRSTRLEN] = "";
	json_t *o = json_object();
	int err = !o;

	rdp_gid_format(g->raw, gid, sizeof(gid));
	if (rdp_gid_is_ipv4_mapped(g->raw))
		inet_ntop(AF_INET, g->raw + 12, v4, sizeof(v4));
	err |= json_object_set_new(o, "index", json_integer(g->index));
	err |= json_object_set_new(o, "gid", json_string(gid));
	err |= json_object_set_new(o, "ipv4", rdp_doctor_json_str(v4));
	err |= json_object_set_new(o, "type",
				   json_string(rdp_gid_type_str(g->type)));
	err |= json_object_set_new(o, "netdev", rdp_doctor_json_str(g->ndev));
	err |= json_object_set_new(o, "used",
				   json_boolean((int)i == doc->chosen_gid));
	return rdp_doctor_json_done(o, err);
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
					   rdp_doctor_json_node(a->numa_node));
	}
	return rdp_doctor_json_done(o, err);
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
	return rdp_doctor_json_done(o, err);
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
	err |= json_object_set_new(root, "netdev",
				   rdp_doctor_json_str(doc->netdev));
	err |= json_object_set_new(root, "numa_node",
				   rdp_doctor_json_node(doc->numa_node));
	err |= json_object_set_new(root, "local_cpus",
				   rdp_doctor_json_str(doc->local_cpus));
	err |= json_object_set_new(root, "topology",
				   rdp_doctor_topo_json(doc->topo));
	err |= json_object_set_new(root, "checks",
				   rdp_doctor_json_array(doc->n_checks,
							 check_obj, doc));
	err |= json_object_set_new(root, "gid_table",
				   rdp_doctor_json_array(doc->n_gids, gid_obj,
							 doc));
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
