/* SPDX-License-Identifier: BSD-2-Clause */
/* Where both sides' buffers are, for the text header and the JSON: host,
 * GPU registered with the NIC, or GPU staged through host (--bounce). */
#include <stdio.h>
#include <string.h>
#include <jansson.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/json_mem.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/peer.h>
#include <rdmaperf/report.h>
#include <rdmaperf/stage.h>

/* The peer's enum values are not trusted: anything new reads as such. */
static const char *peer_path_str(uint8_t path)
{
	return path <= RDP_MEM_PATH_PEERMEM
		       ? rdp_mem_path_str((enum rdp_mem_path)path)
		       : "unknown";
}

static const char *peer_path_id(uint8_t path)
{
	return path <= RDP_MEM_PATH_PEERMEM
		       ? rdp_mem_path_id((enum rdp_mem_path)path)
		       : "unknown";
}

/* GPU buffers registered with the NIC: which GPU, and how. */
static void gpu_line(FILE *f, const struct rdp_conn *c)
{
	const struct rdp_mem *m = c->dev->mem;

	fprintf(f, " Memory          : %s (%s), registered by %s\n", m->desc,
		m->why, rdp_mem_path_str(c->mb->path));
	if (c->mb->note[0])
		fprintf(f, " DMA-BUF         : not used: %s\n", c->mb->note);
}

static void local_line(FILE *f, const struct rdp_report_info *in)
{
	const struct rdp_conn *c = in->conn;
	const struct rdp_stage *s = c->stage;
	enum rdp_stage_role role;

	if (!s) {
		if (rdp_mem_kind_of(c->dev->mem) == RDP_MEM_KIND_GPU)
			gpu_line(f, c);
		else if (c->dev->mem && c->dev->mem->ops == &rdp_mem_file)
			fprintf(f,
				" Memory          : host, file %s from offset "
				"%llu, mapped shared (--mmap)\n",
				rdp_mem_file_path(c->dev->mem),
				c->dev->mem->file_offset_bytes);
		else
			fprintf(f, " Memory          : host\n");
		return;
	}
	role = rdp_stage_role(in->ops, in->params, RDP_SIDE_CLIENT);
	fprintf(f,
		" Memory          : %s (%s), staged through host memory "
		"(--bounce)\n",
		s->mem->desc, s->mem->why);
	fprintf(f, " Staging         : %s, %s\n", rdp_stage_role_str(role),
		s->pinned ? "host buffer page-locked for the copies"
			  : s->pin_note);
}

static void peer_line(FILE *f, const struct rdp_peer_mem *a)
{
	switch (a->kind) {
	case RDP_MEM_KIND_HOST:
		fprintf(f, " Peer memory     : host\n");
		break;
	case RDP_MEM_KIND_GPU:
		fprintf(f, " Peer memory     : %s, registered by %s\n", a->gpu,
			peer_path_str(a->path));
		break;
	case RDP_MEM_KIND_GPU_STAGED:
		fprintf(f,
			" Peer memory     : %s, staged through host memory "
			"(--bounce): %s\n",
			a->gpu,
			rdp_stage_role_str((enum rdp_stage_role)a->stage));
		break;
	default:
		fprintf(f, " Peer memory     : unknown to this rdmaperf\n");
	}
}

void rdp_report_memory(FILE *f, const struct rdp_report_info *in)
{
	const struct rdp_conn *c = in->conn;
	int peer_host = !in->peer || in->peer->mem.kind == RDP_MEM_KIND_HOST;

	/* Host memory on both sides, the common case, needs no lines
	 * (a file's, --mmap, is named). */
	if (rdp_mem_kind_of(c->dev->mem) == RDP_MEM_KIND_HOST && peer_host &&
	    !rdp_mem_file_path(c->dev->mem))
		return;
	local_line(f, in);
	if (in->peer)
		peer_line(f, &in->peer->mem);
}

/* The side this report is written on: the client, unless the peer is a
 * perftest client (rdmaperf's one-shot perftest server). */
static const char *local_side(const struct rdp_report_info *in)
{
	return in->perftest_role && !strcmp(in->perftest_role, "client")
		       ? "server"
		       : "client";
}

/* "server local_write, grants remote_write": what the device may write in
 * that side's buffer, and what the peer may do there. */
static void side_access(char *buf, size_t len, const char *side, int access)
{
	char remote[80];

	rdp_access_str(access & RDP_ACCESS_REMOTE, remote, sizeof(remote));
	snprintf(buf, len, "%s %s, grants %s", side,
		 access & IBV_ACCESS_LOCAL_WRITE ? "local_write"
						 : "no local write",
		 remote[0] ? remote : "nothing");
}

void rdp_report_access(FILE *f, const struct rdp_report_info *in)
{
	const char *me = local_side(in);
	int server = !strcmp(me, "server");
	char mine[160], theirs[160];

	side_access(mine, sizeof(mine), me, in->conn->mr_access);
	if (in->peer)
		side_access(theirs, sizeof(theirs),
			    server ? "client" : "server",
			    (int)in->peer->mem.access);
	else
		snprintf(theirs, sizeof(theirs), "the perftest %s does not say",
			 server ? "client" : "server");
	fprintf(f, " Access          : %s; %s\n", mine, theirs);
}

/* ["local_write", "remote_write"]: the flags of access by name. */
static json_t *access_list(int access)
{
	const struct rdp_access_name *t;
	json_t *a = json_array();
	size_t n, i;
	int err = !a;

	if (err)
		return NULL;
	t = rdp_access_names(&n);
	for (i = 0; i < n; i++)
		if (access & t[i].flag)
			err |= json_array_append_new(a, json_string(t[i].name));
	if (!err)
		return a;
	json_decref(a);
	return NULL;
}

int rdp_json_memory_access(json_t *mem, const struct rdp_report_info *in)
{
	const char *me = local_side(in);
	int server = !strcmp(me, "server");
	json_t *o = json_object();
	int err = !mem || !o;

	if (err) {
		json_decref(o);
		return -1;
	}
	err |= json_object_set_new(o, me, access_list(in->conn->mr_access));
	err |= json_object_set_new(
		o, server ? "client" : "server",
		in->peer ? access_list((int)in->peer->mem.access)
			 : json_null());
	err |= json_object_set_new(mem, "access", o);
	return err ? -1 : 0;
}

/* Peer text is NUL-terminated by the codec but may not be UTF-8. */
static json_t *peer_text(const char *s)
{
	char clean[RDP_PEER_GPU_MAX];
	size_t i;
	json_t *v;

	if (!s[0])
		return json_null();
	v = json_string(s);
	if (v)
		return v;
	for (i = 0; s[i] && i < sizeof(clean) - 1; i++)
		clean[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	clean[i] = '\0';
	return json_string(clean);
}

int rdp_json_memory_stage(json_t *mem, const struct rdp_report_info *in)
{
	const struct rdp_stage *s = in->conn->stage;
	enum rdp_stage_role role;
	int err = !mem;

	if (err)
		return -1;
	err |= json_object_set_new(mem, "bounce", json_boolean(s != NULL));
	if (!s) {
		err |= json_object_set_new(mem, "staging", json_null());
		err |= json_object_set_new(mem, "pinned", json_null());
		return err ? -1 : 0;
	}
	role = rdp_stage_role(in->ops, in->params, RDP_SIDE_CLIENT);
	/* The data is on the GPU; the NIC registered the host buffer. */
	err |= json_object_set_new(mem, "type", json_string(s->mem->ops->name));
	err |= json_object_set_new(mem, "gpu", json_string(s->mem->desc));
	err |= json_object_set_new(mem, "gpu_bus_id",
				   json_string(s->mem->bus_id));
	err |= json_object_set_new(mem, "staging",
				   json_string(rdp_stage_role_id(role)));
	err |= json_object_set_new(mem, "pinned", json_boolean(s->pinned));
	return err ? -1 : 0;
}

int rdp_json_memory_file(json_t *mem, const struct rdp_report_info *in)
{
	const struct rdp_mem *m = in->conn->dev->mem;
	json_t *o;

	if (!mem)
		return -1;
	if (!m || m->ops != &rdp_mem_file)
		return 0;
	o = json_pack("{s:s, s:I}", "file", rdp_mem_file_path(m), "offset",
		      (json_int_t)m->file_offset_bytes);
	return o ? json_object_set_new(mem, "mmap", o) : -1;
}

/* The peer reports where its data lives, and the device type only when
 * the kind alone would name another: the memory type's row names it. */
static const char *type_id(const struct rdp_peer_mem *a)
{
	const struct rdp_mem_ops *t = rdp_mem_of_peer(a->kind, a->type);

	return t ? t->name : "unknown";
}

json_t *rdp_json_peer_memory(const struct rdp_peer_info *peer)
{
	const struct rdp_peer_mem *a = peer ? &peer->mem : NULL;
	int staged = a && a->kind == RDP_MEM_KIND_GPU_STAGED;
	json_t *o;
	int err;

	if (!a)
		return json_null();
	o = json_object();
	err = !o;
	if (err)
		return NULL;
	err |= json_object_set_new(o, "type", json_string(type_id(a)));
	err |= json_object_set_new(o, "gpu", peer_text(a->gpu));
	err |= json_object_set_new(o, "gpu_bus_id", peer_text(a->bus_id));
	err |= json_object_set_new(o, "registration",
				   json_string(peer_path_id(a->path)));
	err |= json_object_set_new(o, "bounce", json_boolean(staged));
	err |= json_object_set_new(
		o, "staging",
		staged ? json_string(rdp_stage_role_id(
				 (enum rdp_stage_role)a->stage))
		       : json_null());
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}
