/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The topology around a NIC from hwloc: its OS device, the CPUs of its
 * nearest non-I/O ancestor, the PCIe bridges above it and the GPUs with
 * their distance. Nothing here reads the live system but hwloc's load.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hwloc.h>

#include <rdmaperf/sysfs.h>
#include <rdmaperf/topo.h>

struct rdp_topo {
	hwloc_topology_t hw;
	const struct rdp_sysfs *fs;
	struct rdp_sysfs live; /* fs when the caller gave none */
};

/*
 * Discovery components no load of this host uses. Debian's libhwloc15
 * recommends libhwloc-plugins and Open MPI depends on it; each plugin
 * there would otherwise run on every load: pci reads pci.ids through
 * libpciaccess, which loses 626 KB that valgrind and LeakSanitizer report,
 * for PCI names nothing here needs; opencl starts every OpenCL ICD; gl asks
 * the X server for its displays. x86 binds the thread to each CPU in turn
 * for CPUID that the linux component already read from sysfs.
 */
static const char *const never_components[] = { "x86", "pci", "opencl", "gl",
						NULL };

/*
 * The GPU vendors' plugins name GPUs ("cuda0", "nvml0", "rsmi0", "ze0") and
 * give their model: only the doctor's listing uses them. Placement and
 * --use_cuda=auto need neither: the linux component finds the NICs, their
 * PCI path and NVIDIA GPUs by PCI class.
 */
static const char *const gpu_name_components[] = { "cuda", "nvml", "rsmi",
						   "levelzero", NULL };

static int skip_components(hwloc_topology_t hw, const char *const *names)
{
	for (; *names; names++)
		/* EINVAL: not installed here, nothing to skip. */
		if (hwloc_topology_set_components(
			    hw, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST,
			    *names) &&
		    errno != EINVAL)
			return -errno;
	return 0;
}

/* An XML file replaces every discovery component: nothing to skip. */
static int choose_source(hwloc_topology_t hw, const char *xml, int gpu_names)
{
	int ret;

	if (xml)
		return hwloc_topology_set_xml(hw, xml) ? -ENOENT : 0;
	ret = skip_components(hw, never_components);
	if (!ret && !gpu_names)
		ret = skip_components(hw, gpu_name_components);
	return ret;
}

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

static int load(const struct rdp_sysfs *fs, const char *xml, int gpu_names,
		struct rdp_topo **out)
{
	struct rdp_topo *t = calloc(1, sizeof(*t));
	int ret = -ENOMEM;

	if (!t)
		return -ENOMEM;
	rdp_sysfs_init(&t->live, NULL);
	t->fs = fs ? fs : &t->live;
	if (hwloc_topology_init(&t->hw))
		goto err_free;
	/* Bridges and the PCI functions that matter (NICs, GPUs, storage),
	 * not every USB controller; OS devices without DRM and DMA. */
	ret = -EINVAL;
	if (hwloc_topology_set_io_types_filter(
		    t->hw, HWLOC_TYPE_FILTER_KEEP_IMPORTANT))
		goto err_destroy;
	ret = choose_source(t->hw, xml, gpu_names);
	if (ret)
		goto err_destroy;
	/* One load at a time in the process: the discovery's libraries
	 * (libudev among them) keep unguarded global state, and a mesh
	 * rank's serving workers place themselves at once. */
	pthread_mutex_lock(&load_lock);
	ret = hwloc_topology_load(t->hw) ? -EIO : 0;
	pthread_mutex_unlock(&load_lock);
	if (ret)
		goto err_destroy;
	*out = t;
	return 0;

err_destroy:
	hwloc_topology_destroy(t->hw);
err_free:
	free(t);
	return ret;
}

int rdp_topo_load(const struct rdp_sysfs *fs, const char *xml,
		  struct rdp_topo **out)
{
	return load(fs, xml, 0, out);
}

void rdp_topo_free(struct rdp_topo *t)
{
	if (!t)
		return;
	hwloc_topology_destroy(t->hw);
	free(t);
}

const char *rdp_topo_dist_str(enum rdp_topo_dist d)
{
	switch (d) {
	case RDP_DIST_SWITCH:
		return "same PCIe switch";
	case RDP_DIST_HOST_BRIDGE:
		return "same host bridge";
	case RDP_DIST_NODE:
		return "same NUMA node";
	case RDP_DIST_OTHER_NODE:
		return "other NUMA node";
	default:
		return "unknown";
	}
}

const char *rdp_topo_hop_str(enum rdp_topo_hop_kind k)
{
	switch (k) {
	case RDP_HOP_DEVICE:
		return "device";
	case RDP_HOP_SWITCH:
		return "switch";
	case RDP_HOP_ROOT_PORT:
		return "root port";
	default:
		return "host bridge";
	}
}

static void bus_id(const struct hwloc_pcidev_attr_s *p, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%x", (unsigned int)p->domain,
		 (unsigned int)p->bus, (unsigned int)p->dev,
		 (unsigned int)p->func);
}

static hwloc_obj_t find_osdev(const struct rdp_topo *t, const char *name,
			      hwloc_obj_osdev_type_t type)
{
	hwloc_obj_t o = NULL;

	while ((o = hwloc_get_next_osdev(t->hw, o)))
		if (o->attr->osdev.type == type && o->name &&
		    !strcmp(o->name, name))
			return o;
	return NULL;
}

/*
 * rxe and siw say which netdev carries them in "parent"; older kernels only
 * through the GID table of port 1.
 */
static int soft_netdev(const struct rdp_topo *t, const char *name, char *buf,
		       size_t len)
{
	if (!rdp_sysfs_read(t->fs, buf, len, "/sys/class/infiniband/%s/parent",
			    name) &&
	    buf[0])
		return 0;
	if (!rdp_sysfs_read(t->fs, buf, len,
			    "/sys/class/infiniband/%s/ports/1/gid_attrs/ndevs/0",
			    name) &&
	    buf[0])
		return 0;
	return -ENOENT;
}

static hwloc_obj_t pci_above(hwloc_obj_t o)
{
	while (o && o->type != HWLOC_OBJ_PCI_DEVICE &&
	       o->type != HWLOC_OBJ_BRIDGE)
		o = o->parent;
	return o && o->type == HWLOC_OBJ_PCI_DEVICE ? o : NULL;
}

static void host_bridge_hop(hwloc_obj_t o, struct rdp_topo_hop *h)
{
	const struct hwloc_bridge_attr_s *b = &o->attr->bridge;

	h->kind = RDP_HOP_HOST_BRIDGE;
	snprintf(h->bus_id, sizeof(h->bus_id), "%04x:[%02x-%02x]",
		 (unsigned int)b->downstream.pci.domain,
		 (unsigned int)b->downstream.pci.secondary_bus,
		 (unsigned int)b->downstream.pci.subordinate_bus);
}

static int is_host_bridge(hwloc_obj_t o)
{
	return o && o->type == HWLOC_OBJ_BRIDGE &&
	       o->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST;
}

/* The NIC's function, then each bridge up to and with the host bridge. */
static void walk_path(hwloc_obj_t dev, struct rdp_topo_nic *nic)
{
	const struct hwloc_pcidev_attr_s *p;
	struct rdp_topo_hop *h;
	hwloc_obj_t o;

	for (o = dev; o && nic->n_path < RDP_TOPO_PATH_MAX; o = o->parent) {
		if (o->type != HWLOC_OBJ_PCI_DEVICE &&
		    o->type != HWLOC_OBJ_BRIDGE)
			break;
		h = &nic->path[nic->n_path++];
		if (is_host_bridge(o)) {
			host_bridge_hop(o, h);
			break;
		}
		p = o->type == HWLOC_OBJ_BRIDGE ? &o->attr->bridge.upstream.pci
						: &o->attr->pcidev;
		h->kind = o == dev		      ? RDP_HOP_DEVICE
			  : is_host_bridge(o->parent) ? RDP_HOP_ROOT_PORT
						      : RDP_HOP_SWITCH;
		bus_id(p, h->bus_id, sizeof(h->bus_id));
		h->link_gbytes = p->linkspeed;
		h->vendor_id = p->vendor_id;
		h->device_id = p->device_id;
	}
}

/* The CPUs and the node of the NIC's nearest non-I/O ancestor. */
static void locality(const struct rdp_topo *t, hwloc_obj_t o,
		     struct rdp_topo_nic *nic)
{
	hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t->hw, o);
	hwloc_obj_t root = hwloc_get_root_obj(t->hw);
	int i;

	CPU_ZERO(&nic->cpus);
	nic->node = -1;
	if (!anc || !anc->cpuset)
		anc = root;
	hwloc_bitmap_foreach_begin(i, anc->cpuset)
	{
		if (i < CPU_SETSIZE)
			CPU_SET(i, &nic->cpus);
	}
	hwloc_bitmap_foreach_end();
	if (anc->nodeset && hwloc_bitmap_weight(anc->nodeset) == 1)
		nic->node = hwloc_bitmap_first(anc->nodeset);
	nic->whole_machine = hwloc_bitmap_isequal(anc->cpuset, root->cpuset);
}

int rdp_topo_nic(const struct rdp_topo *t, const char *name,
		 struct rdp_topo_nic *out)
{
	struct rdp_topo_nic nic;
	hwloc_obj_t os, dev;

	memset(&nic, 0, sizeof(nic));
	snprintf(nic.name, sizeof(nic.name), "%s", name);
	os = find_osdev(t, name, HWLOC_OBJ_OSDEV_OPENFABRICS);
	if (!os && !soft_netdev(t, name, nic.netdev, sizeof(nic.netdev)))
		os = find_osdev(t, nic.netdev, HWLOC_OBJ_OSDEV_NETWORK);
	if (!os)
		return -ENOENT;
	dev = pci_above(os);
	if (dev) {
		nic.on_pci = 1;
		bus_id(&dev->attr->pcidev, nic.bus_id, sizeof(nic.bus_id));
		walk_path(dev, &nic);
	}
	locality(t, os, &nic);
	*out = nic;
	return 0;
}

void rdp_topo_path_format(const struct rdp_topo_nic *nic, char *buf, size_t len)
{
	const struct rdp_topo_hop *h;
	size_t i, used = 0;
	int n;

	buf[0] = '\0';
	for (i = 0; i < nic->n_path && used < len; i++) {
		h = &nic->path[i];
		n = snprintf(buf + used, len - used, "%s%s%s%s", i ? " > " : "",
			     h->kind == RDP_HOP_DEVICE
				     ? ""
				     : rdp_topo_hop_str(h->kind),
			     h->kind == RDP_HOP_DEVICE ? "" : " ", h->bus_id);
		if (n < 0)
			return;
		used += (size_t)n;
		if (h->link_gbytes > 0 && used < len) {
			n = snprintf(buf + used, len - used, " %.1f GB/s",
				     h->link_gbytes);
			if (n < 0)
				return;
			used += (size_t)n;
		}
	}
}

/* CUDA, NVML, ROCm, oneAPI and OpenCL devices; DRM cards are skipped, a
 * server's BMC has one too. */
static int osdev_is_gpu(hwloc_obj_t o)
{
	static const char *const prefixes[] = { "cuda", "nvml",	  "rsmi",
						"ze",	"opencl", NULL };
	size_t i;

	if (o->type != HWLOC_OBJ_OS_DEVICE || !o->name ||
	    (o->attr->osdev.type != HWLOC_OBJ_OSDEV_GPU &&
	     o->attr->osdev.type != HWLOC_OBJ_OSDEV_COPROC))
		return 0;
	for (i = 0; prefixes[i]; i++)
		if (!strncmp(o->name, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

/* Whether a PCI function is a GPU; its best OS device name and model. */
static int pci_is_gpu(hwloc_obj_t p, struct rdp_topo_gpu *g)
{
	const struct hwloc_pcidev_attr_s *a = &p->attr->pcidev;
	const char *model = hwloc_obj_get_info_by_name(p, "PCIDevice");
	int gpu = a->vendor_id == 0x10de &&
		  (a->class_id == 0x0300 || a->class_id == 0x0302);
	hwloc_obj_t c;

	memset(g, 0, sizeof(*g));
	for (c = p->io_first_child; c; c = c->next_sibling) {
		if (!osdev_is_gpu(c))
			continue;
		gpu = 1;
		/* cuda0 is what --use_cuda users know; first one else. */
		if (!g->name[0] || !strncmp(c->name, "cuda", 4))
			snprintf(g->name, sizeof(g->name), "%s", c->name);
		if (hwloc_obj_get_info_by_name(c, "GPUModel"))
			model = hwloc_obj_get_info_by_name(c, "GPUModel");
	}
	if (!model)
		model = p->name;
	snprintf(g->model, sizeof(g->model), "%s", model ? model : "");
	bus_id(a, g->bus_id, sizeof(g->bus_id));
	return gpu;
}

static int single_node(const struct rdp_topo *t, hwloc_obj_t o)
{
	hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t->hw, o);

	return anc && anc->nodeset && hwloc_bitmap_weight(anc->nodeset) == 1
		       ? hwloc_bitmap_first(anc->nodeset)
		       : -1;
}

/* The lowest common ancestor says how far apart two PCI functions are. */
static enum rdp_topo_dist distance(const struct rdp_topo *t, hwloc_obj_t a,
				   hwloc_obj_t b)
{
	hwloc_obj_t x, y, na, nb;

	for (x = a->parent; x; x = x->parent)
		for (y = b->parent; y; y = y->parent)
			if (x == y)
				goto found;
	return RDP_DIST_UNKNOWN;
found:
	if (is_host_bridge(x))
		return RDP_DIST_HOST_BRIDGE;
	if (x->type == HWLOC_OBJ_BRIDGE)
		return RDP_DIST_SWITCH;
	na = hwloc_get_non_io_ancestor_obj(t->hw, a);
	nb = hwloc_get_non_io_ancestor_obj(t->hw, b);
	if (na && nb && na->nodeset && nb->nodeset &&
	    hwloc_bitmap_intersects(na->nodeset, nb->nodeset))
		return RDP_DIST_NODE;
	return RDP_DIST_OTHER_NODE;
}

static void insert_sorted(struct rdp_topo_gpu *gpus, size_t n,
			  const struct rdp_topo_gpu *g)
{
	size_t i = n;

	while (i > 0 && (gpus[i - 1].dist > g->dist ||
			 (gpus[i - 1].dist == g->dist &&
			  strcmp(gpus[i - 1].bus_id, g->bus_id) > 0))) {
		gpus[i] = gpus[i - 1];
		i--;
	}
	gpus[i] = *g;
}

int rdp_topo_gpus(const struct rdp_topo *t, const struct rdp_topo_nic *nic,
		  struct rdp_topo_gpu *gpus, size_t cap, size_t *n_out)
{
	hwloc_obj_t p = NULL, dev = NULL;
	struct rdp_topo_gpu g;
	size_t n = 0;

	if (nic && nic->on_pci)
		dev = hwloc_get_pcidev_by_busidstring(t->hw, nic->bus_id);
	while ((p = hwloc_get_next_pcidev(t->hw, p)) && n < cap) {
		if (!pci_is_gpu(p, &g))
			continue;
		g.dist = dev ? distance(t, dev, p) : RDP_DIST_UNKNOWN;
		g.node = single_node(t, p);
		insert_sorted(gpus, n++, &g);
	}
	*n_out = n;
	return 0;
}

int rdp_topo_nearest_gpu(const struct rdp_topo *t, const char *nic,
			 char *bus_id_out, size_t len, enum rdp_topo_dist *dist)
{
	struct rdp_topo_gpu gpus[RDP_TOPO_GPU_MAX];
	struct rdp_topo *own = NULL;
	struct rdp_topo_nic n;
	size_t count;
	int ret;

	if (!t) {
		ret = rdp_topo_load(NULL, NULL, &own);
		if (ret)
			return ret;
		t = own;
	}
	ret = rdp_topo_nic(t, nic, &n);
	if (!ret)
		ret = rdp_topo_gpus(t, &n, gpus, RDP_TOPO_GPU_MAX, &count);
	if (!ret && !count)
		ret = -ENODEV;
	if (!ret) {
		snprintf(bus_id_out, len, "%s", gpus[0].bus_id);
		if (dist)
			*dist = gpus[0].dist;
	}
	rdp_topo_free(own);
	return ret;
}

void rdp_topo_report_read(const struct rdp_sysfs *fs, const char *xml,
			  const char *dev, struct rdp_topo_report *r)
{
	struct rdp_topo *t;

	memset(r, 0, sizeof(*r));
	if (load(fs, xml, 1, &t))
		return;
	r->loaded = 1;
	r->have_nic = !rdp_topo_nic(t, dev, &r->nic);
	if (!r->have_nic)
		soft_netdev(t, dev, r->nic.netdev, sizeof(r->nic.netdev));
	rdp_topo_gpus(t, r->have_nic ? &r->nic : NULL, r->gpus,
		      RDP_TOPO_GPU_MAX, &r->n_gpus);
	rdp_topo_free(t);
}
