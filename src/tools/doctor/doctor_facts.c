/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The facts of one device port and its host that the fleet doctor
 * compares across a job: read through struct rdp_sysfs (fixture trees in
 * the tests) and the doctor's own checks, each one unreadable rather
 * than failing where the system does not tell it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#include <rdmaperf/doctor.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/sysfs.h>

#define IBDEV "/sys/class/infiniband/%s"
#define PORT  IBDEV "/ports/%d"
#define NET   "/sys/class/net/%s"

#define N RDP_FACT_NUM
#define T RDP_FACT_TEXT

/* In the order of enum rdp_fact_id. */
static const struct rdp_fact_def defs[RDP_FACT_N] = {
	{ "port_state", "port state", T },
	{ "link_layer", "link layer", T },
	{ "link_rate_mbps", "link rate", N },
	{ "link_width", "link width", N }, /* lanes: 1, 2, 4, 8, 12 */
	{ "mtu_active", "active MTU", N },
	{ "mtu_max", "max MTU", N },
	{ "netdev_mtu", "netdev MTU", N },
	{ "firmware", "firmware", T },
	{ "pcie_speed", "PCIe speed", T },
	{ "pcie_width", "PCIe width", N },
	{ "pcie_max_speed", "PCIe slot speed", T },
	{ "pcie_max_width", "PCIe slot width", N },
	{ "gid_type", "GID type", T },
	{ "gid_index", "GID index", N },
	{ "pkeys", "P_Keys", T },
	{ "ecn_np", "ECN (notification point)", T },
	{ "ecn_rp", "ECN (reaction point)", T },
	{ "pfc", "PFC", T },
	{ "trust", "QoS trust", T },
	{ "numa_node", "NIC NUMA node", N },
	{ "governor", "CPU governor", T },
	{ "memlock", "locked memory", T },
	{ "cstates", "C-states", T },
	{ "rdma_cm", "RDMA CM", T },
};

#undef N
#undef T

const struct rdp_fact_def *rdp_fact_def(enum rdp_fact_id id)
{
	return (unsigned int)id < RDP_FACT_N ? &defs[id] : NULL;
}

static void set_text(struct rdp_doctor_facts *f, enum rdp_fact_id id,
		     const char *text, int len)
{
	struct rdp_doctor_fact *x = &f->f[id];

	x->readable = 1;
	snprintf(x->text, sizeof(x->text), "%.*s", len, text);
}

static void set_num(struct rdp_doctor_facts *f, enum rdp_fact_id id,
		    int64_t num, const char *text)
{
	struct rdp_doctor_fact *x = &f->f[id];

	x->readable = 1;
	x->num = num;
	if (text)
		snprintf(x->text, sizeof(x->text), "%s", text);
	else
		snprintf(x->text, sizeof(x->text), "%lld", (long long)num);
}

/* A whole decimal number, nothing after it but blanks; -EINVAL. */
static int whole(const char *s, int64_t *v)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(s, &end, 10);
	if (end == s || errno)
		return -EINVAL;
	end += strspn(end, " \t\n");
	if (*end)
		return -EINVAL;
	*v = x;
	return 0;
}

/* A sysfs text file as a text fact. */
static void RDP_PRINTF(4, 5)
	read_text(const struct rdp_sysfs *fs, struct rdp_doctor_facts *f,
		  enum rdp_fact_id id, const char *fmt, ...)
{
	char path[512], buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (!rdp_sysfs_read(fs, buf, sizeof(buf), "%s", path) && buf[0])
		set_text(f, id, buf, (int)strlen(buf));
}

/* A sysfs number as a number fact. */
static void RDP_PRINTF(4, 5)
	read_num(const struct rdp_sysfs *fs, struct rdp_doctor_facts *f,
		 enum rdp_fact_id id, const char *fmt, ...)
{
	char path[512], buf[64];
	va_list ap;
	int64_t v;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (!rdp_sysfs_read(fs, buf, sizeof(buf), "%s", path) &&
	    !whole(buf, &v))
		set_num(f, id, v, NULL);
}

/* "4: ACTIVE" as "ACTIVE"; "100 Gb/sec (4X EDR)" as rate and width. */
static void port_facts(const struct rdp_sysfs *fs, const struct rdp_doctor *doc,
		       struct rdp_doctor_facts *f)
{
	char buf[128], lanes[16], *p, *w;
	double gbps;

	if (!rdp_sysfs_read(fs, buf, sizeof(buf), PORT "/state", doc->dev,
			    doc->port)) {
		p = strchr(buf, ':');
		p = p ? p + 1 + strspn(p + 1, " ") : buf;
		set_text(f, RDP_FACT_PORT_STATE, p, (int)strlen(p));
	}
	if (!rdp_sysfs_read(fs, buf, sizeof(buf), PORT "/link_layer", doc->dev,
			    doc->port) &&
	    buf[0])
		set_text(f, RDP_FACT_LINK_LAYER, buf, (int)strlen(buf));
	if (rdp_sysfs_read(fs, buf, sizeof(buf), PORT "/rate", doc->dev,
			   doc->port))
		return;
	gbps = strtod(buf, NULL);
	p = strstr(buf, " (");
	if (gbps > 0) {
		f->f[RDP_FACT_RATE].readable = 1;
		f->f[RDP_FACT_RATE].num = (int64_t)(gbps * 1000 + 0.5);
		snprintf(f->f[RDP_FACT_RATE].text,
			 sizeof(f->f[RDP_FACT_RATE].text), "%.*s",
			 p ? (int)(p - buf) : (int)strlen(buf), buf);
	}
	if (p) { /* "4X": 4 lanes, shown as sysfs writes it */
		w = p + 2;
		snprintf(lanes, sizeof(lanes), "%.*s", (int)strcspn(w, " )"),
			 w);
		if (strtol(lanes, NULL, 10) > 0)
			set_num(f, RDP_FACT_WIDTH, strtol(lanes, NULL, 10),
				lanes);
	}
}

/* "16.0 GT/s PCIe" is shown without the trailing bus name. */
static void pcie_speed(const struct rdp_sysfs *fs, struct rdp_doctor_facts *f,
		       enum rdp_fact_id id, const char *file, const char *dev)
{
	char buf[64];
	const char *bus;

	if (rdp_sysfs_read(fs, buf, sizeof(buf), IBDEV "/device/%s", dev,
			   file) ||
	    !buf[0])
		return;
	bus = strstr(buf, " PCIe");
	set_text(f, id, buf, bus ? (int)(bus - buf) : (int)strlen(buf));
}

/* The valid entries of the P_Key table, in index order, joined by ",". */
static void pkey_facts(const struct rdp_sysfs *fs, const struct rdp_doctor *doc,
		       struct rdp_doctor_facts *f)
{
	char key[32], list[sizeof(f->f[0].text)] = "";
	size_t used = 0;
	int i, n;

	for (i = 0; i < 128; i++) {
		if (rdp_sysfs_read(fs, key, sizeof(key), PORT "/pkeys/%d",
				   doc->dev, doc->port, i))
			break;
		if (strtoul(key, NULL, 16) == 0 || used >= sizeof(list))
			continue;
		n = snprintf(list + used, sizeof(list) - used, "%s%s",
			     used ? "," : "", key);
		used += n > 0 ? (size_t)n : 0;
	}
	if (i)
		set_text(f, RDP_FACT_PKEYS, list[0] ? list : "none",
			 (int)strlen(list[0] ? list : "none"));
}

/* ECN per priority (mlx5's ecn/roce_np|roce_rp/enable/0..7): the enabled
 * priorities, "off" when none. */
static void ecn_fact(const struct rdp_sysfs *fs, struct rdp_doctor_facts *f,
		     enum rdp_fact_id id, const char *point, const char *nd)
{
	char v[16], list[40] = "";
	size_t used = 0;
	int prio, n;

	for (prio = 0; prio < 8; prio++) {
		if (rdp_sysfs_read(fs, v, sizeof(v), NET "/ecn/%s/enable/%d",
				   nd, point, prio))
			return; /* all eight or nothing */
		if (atoi(v) == 1) {
			n = snprintf(list + used, sizeof(list) - used, "%s%d",
				     used ? "," : "priority ", prio);
			used += n > 0 ? (size_t)n : 0;
		}
	}
	set_text(f, id, used ? list : "off", (int)strlen(used ? list : "off"));
}

static void netdev_facts(const struct rdp_sysfs *fs,
			 const struct rdp_doctor *doc,
			 struct rdp_doctor_facts *f)
{
	const char *nd = doc->netdev;

	if (!nd[0])
		return;
	read_num(fs, f, RDP_FACT_NETDEV_MTU, NET "/mtu", nd);
	ecn_fact(fs, f, RDP_FACT_ECN_NP, "roce_np", nd);
	ecn_fact(fs, f, RDP_FACT_ECN_RP, "roce_rp", nd);
	/* Where the driver shows its DCB settings in sysfs (no tools). */
	read_text(fs, f, RDP_FACT_PFC, NET "/qos/pfc", nd);
	read_text(fs, f, RDP_FACT_TRUST, NET "/qos/trust", nd);
}

/* A doctor check's value as a fact, unless it was skipped. */
static void from_check(const struct rdp_doctor *doc, const char *check,
		       struct rdp_doctor_facts *f, enum rdp_fact_id id)
{
	const struct rdp_check *c = rdp_doctor_find(doc, check);
	const char *v, *p;

	if (!c || c->verdict == RDP_SKIP)
		return;
	/* "CPU 3: deepest ...": the CPU is the NIC's, not a setting. */
	v = c->value;
	if (!strncmp(v, "CPU ", 4) && (p = strstr(v, ": ")))
		v = p + 2;
	set_text(f, id, v, (int)strlen(v));
}

static void host_facts(const struct rdp_sysfs *fs, const struct rdp_doctor *doc,
		       struct rdp_doctor_facts *f)
{
	const struct rdp_check *c = rdp_doctor_find(doc, "rdma_cm");
	const char *state = c && c->verdict == RDP_PASS ? "loaded"
							: "not loaded";
	char gov[64];
	cpu_set_t set;
	int cpu = 0;

	read_num(fs, f, RDP_FACT_NUMA, IBDEV "/device/numa_node", doc->dev);
	if (f->f[RDP_FACT_NUMA].readable && f->f[RDP_FACT_NUMA].num < 0)
		set_num(f, RDP_FACT_NUMA, -1, "unknown");
	if (doc->local_cpus[0] && !rdp_cpulist_parse(doc->local_cpus, &set))
		cpu = rdp_cpulist_first(&set);
	if (!rdp_sysfs_read(fs, gov, sizeof(gov),
			    "/sys/devices/system/cpu/cpu%d/cpufreq/"
			    "scaling_governor",
			    cpu) &&
	    gov[0])
		set_text(f, RDP_FACT_GOVERNOR, gov, (int)strlen(gov));
	from_check(doc, "memlock", f, RDP_FACT_MEMLOCK);
	from_check(doc, "cstates", f, RDP_FACT_CSTATES);
	if (c)
		set_text(f, RDP_FACT_RDMA_CM, state, (int)strlen(state));
}

void rdp_doctor_facts_of(const struct rdp_sysfs *fs,
			 const struct rdp_doctor *doc,
			 const struct rdp_doctor_verbs *verbs,
			 struct rdp_doctor_facts *f)
{
	const struct rdp_gid_entry *g;

	memset(f->f, 0, sizeof(f->f));
	port_facts(fs, doc, f);
	if (verbs && verbs->active_mtu_bytes)
		set_num(f, RDP_FACT_MTU_ACTIVE, verbs->active_mtu_bytes, NULL);
	if (verbs && verbs->max_mtu_bytes)
		set_num(f, RDP_FACT_MTU_MAX, verbs->max_mtu_bytes, NULL);
	read_text(fs, f, RDP_FACT_FW, IBDEV "/fw_ver", doc->dev);
	pcie_speed(fs, f, RDP_FACT_PCIE_SPEED, "current_link_speed", doc->dev);
	read_num(fs, f, RDP_FACT_PCIE_WIDTH, IBDEV "/device/current_link_width",
		 doc->dev);
	pcie_speed(fs, f, RDP_FACT_PCIE_MAX_SPEED, "max_link_speed", doc->dev);
	read_num(fs, f, RDP_FACT_PCIE_MAX_WIDTH, IBDEV "/device/max_link_width",
		 doc->dev);
	if (doc->chosen_gid >= 0) {
		g = &doc->gids[doc->chosen_gid];
		set_text(f, RDP_FACT_GID_TYPE, rdp_gid_type_str(g->type),
			 (int)strlen(rdp_gid_type_str(g->type)));
		set_num(f, RDP_FACT_GID_INDEX, g->index, NULL);
	}
	pkey_facts(fs, doc, f);
	netdev_facts(fs, doc, f);
	host_facts(fs, doc, f);
}

void rdp_doctor_query_verbs(const char *name, int port,
			    struct rdp_doctor_verbs *v)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_port_attr pa;
	int n, i;

	memset(v, 0, sizeof(*v));
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++) {
		if (strcmp(ibv_get_device_name(list[i]), name))
			continue;
		ctx = ibv_open_device(list[i]);
		if (ctx && !ibv_query_port(ctx, (uint8_t)port, &pa)) {
			v->active_mtu_bytes = rdp_mtu_to_bytes(pa.active_mtu);
			v->max_mtu_bytes = rdp_mtu_to_bytes(pa.max_mtu);
		}
		if (ctx)
			ibv_close_device(ctx);
	}
	if (list)
		ibv_free_device_list(list);
}

static int no_device(struct rdp_doctor_facts *f, const char *dev)
{
	f->status = -ENODEV;
	if (dev && *dev)
		snprintf(f->why, sizeof(f->why),
			 "device '%.63s' not found: see `ibv_devices`", dev);
	else
		snprintf(f->why, sizeof(f->why),
			 "no RDMA device: load the NIC's driver");
	return f->status;
}

int rdp_doctor_facts_local(const char *dev, int port,
			   struct rdp_doctor_facts *f)
{
	struct rdp_doctor_verbs verbs;
	struct rdp_doctor *doc;
	struct rdp_sysfs fs;
	char name[64];

	memset(f->f, 0, sizeof(f->f));
	f->status = 0;
	f->why[0] = '\0';
	snprintf(f->dev, sizeof(f->dev), "%s", dev && *dev ? dev : "-");
	rdp_sysfs_init(&fs, NULL);
	if (dev && *dev)
		snprintf(name, sizeof(name), "%s", dev);
	else if (rdp_doctor_pick_device(&fs, port, name, sizeof(name)))
		return no_device(f, NULL);
	if (!rdp_sysfs_exists(&fs, IBDEV, name))
		return no_device(f, name);
	snprintf(f->dev, sizeof(f->dev), "%s", name);
	doc = malloc(sizeof(*doc)); /* the GID table: large for a stack */
	if (!doc) {
		f->status = -ENOMEM;
		snprintf(f->why, sizeof(f->why), "out of memory");
		return f->status;
	}
	rdp_doctor_query_verbs(name, port, &verbs);
	rdp_doctor_local(&fs, name, port, &verbs, NULL, doc);
	rdp_doctor_facts_of(&fs, doc, &verbs, f);
	free(doc);
	return 0;
}
