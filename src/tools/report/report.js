/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf report: draws the sections held in #rdp-data (plain script,
 * SVG and canvas, nothing fetched). Writes #rdp-done with its own time
 * once everything is drawn, #rdp-error when something threw.
 */
'use strict';
(function () {
var T0 = performance.now();
/* The SVG namespace as the HTML parser gives it: the page names no URL. */
var SVGNS = (function () {
	var d = document.createElement('div');
	d.innerHTML = '<svg><\/svg>';
	return d.firstChild.namespaceURI;
}());
var COLORS = ['#2b6cb0', '#c05621', '#2f855a', '#9b2c2c', '#6b46c1',
	'#b7791f', '#2c7a7b', '#97266d', '#4a5568', '#dd6b20'];
var app = document.getElementById('app');

function el(tag, props, kids) {
	var e = document.createElement(tag), k;
	for (k in props || {}) {
		if (k === 'text') e.textContent = props[k];
		else if (k === 'cls') e.className = props[k];
		else if (k === 'on') e.addEventListener('click', props[k]);
		else e.setAttribute(k, props[k]);
	}
	(kids || []).forEach(function (c) {
		if (c !== null && c !== undefined)
			e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
	});
	return e;
}
function sv(tag, attrs, text) {
	var e = document.createElementNS(SVGNS, tag), k;
	for (k in attrs) e.setAttribute(k, attrs[k]);
	if (text !== undefined) e.textContent = text;
	return e;
}
function num(v) { return typeof v === 'number' && isFinite(v); }
function fmt(v, d) {
	if (!num(v)) return v === null || v === undefined ? '-' : String(v);
	if (d === undefined) d = Math.abs(v) >= 100 ? 1 : Math.abs(v) >= 1 ? 3 : 4;
	return v.toFixed(d);
}
function bytes(b) {
	var u = ['B', 'KiB', 'MiB', 'GiB'], i = 0;
	if (!num(b)) return '-';
	while (b >= 1024 && b % 1024 === 0 && i < 3) { b /= 1024; i++; }
	return b + ' ' + u[i];
}
function get(o, path) {
	return path.split('.').reduce(function (a, k) {
		return a && typeof a === 'object' ? a[k] : undefined;
	}, o);
}
function short(v) {
	if (v === null || v === undefined) return '-';
	if (typeof v === 'object') return JSON.stringify(v);
	return String(v);
}
function table(heads, rows, opt) {
	opt = opt || {};
	var t = el('table', {}, [heads.join('') ? el('tr', {}, heads.map(function (h) {
		return el('th', { text: h });
	})) : null]);
	rows.forEach(function (r, i) {
		var tr = el('tr', {}, r.map(function (c) {
			return el('td', { text: short(c), cls: num(c) ? 'num' : '' });
		}));
		if (opt.cls) tr.className = opt.cls(i) || '';
		if (opt.click) { tr.className += ' link'; tr.addEventListener('click', opt.click.bind(null, i)); }
		t.appendChild(tr);
	});
	return t;
}
function facts(pairs) {
	return table(['', ''], pairs.filter(function (p) {
		return p[1] !== undefined && p[1] !== null && p[1] !== '';
	}));
}
/* Anything: a table of a list of objects, key/value rows of an object. */
function generic(v) {
	if (Array.isArray(v) && v.length && typeof v[0] === 'object' && v[0] !== null) {
		var keys = [];
		v.forEach(function (o) { Object.keys(o).forEach(function (k) {
			if (keys.indexOf(k) < 0) keys.push(k); }); });
		return table(keys, v.map(function (o) { return keys.map(function (k) { return o[k]; }); }));
	}
	if (v && typeof v === 'object' && !Array.isArray(v))
		return table(['', ''], Object.keys(v).map(function (k) { return [k, v[k]]; }));
	return el('p', { text: short(v) });
}
function verdict(pass) {
	return el('span', { cls: 'verdict ' + (pass ? 'pass' : 'fail'), text: pass ? 'PASS' : 'FAIL' });
}

/* A line chart on log axes: o = {title, xlabel, ylabel, xlog, ylog, xfmt,
 * series: [{name, pts: [[x, y]], dash}], hlines: [{y, label}],
 * band: {y0, y1, x0, label}, bars: {edges, counts}}. */
function chart(o) {
	var W = 560, H = 330, L = 62, R = 150, Tm = 28, B = 44;
	var pw = W - L - R, ph = H - Tm - B, xs = [], ys = [];
	var s = sv('svg', { width: W, height: H, 'class': 'chart', viewBox: '0 0 ' + W + ' ' + H });
	(o.series || []).forEach(function (se) { se.pts.forEach(function (p) {
		if (num(p[0]) && num(p[1]) && (!o.ylog || p[1] > 0)) { xs.push(p[0]); ys.push(p[1]); } }); });
	(o.hlines || []).forEach(function (h) { if (num(h.y)) ys.push(h.y); });
	if (o.band) ys.push(o.band.y0, o.band.y1);
	if (o.bars) { xs.push(o.bars.edges[0], o.bars.edges[o.bars.edges.length - 1]);
		ys.push(0, Math.max.apply(null, o.bars.counts)); }
	s.appendChild(sv('text', { x: L, y: 16, 'font-weight': 600 }, o.title));
	if (!xs.length) {
		s.appendChild(sv('text', { x: L, y: Tm + ph / 2 }, 'no figures to draw'));
		return s;
	}
	var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs);
	var y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
	if (o.ylog) { y0 = Math.pow(10, Math.floor(Math.log10(y0))); y1 = Math.pow(10, Math.ceil(Math.log10(y1))); }
	else { y0 = Math.min(0, y0); y1 = y1 > 0 ? y1 * 1.08 : 1; }
	if (x1 === x0) { x1 = o.xlog ? x0 * 2 : x0 + 1; x0 = o.xlog ? x0 / 2 : x0 - 1; }
	if (y1 === y0) y1 = y0 + 1;
	function tx(x) { return L + pw * (o.xlog ? Math.log(x / x0) / Math.log(x1 / x0) : (x - x0) / (x1 - x0)); }
	function ty(y) { return Tm + ph - ph * (o.ylog ? Math.log(y / y0) / Math.log(y1 / y0) : (y - y0) / (y1 - y0)); }
	var ticks = [], t, k;
	if (o.ylog) for (t = y0; t <= y1 * 1.0001; t *= 10) ticks.push(t);
	else for (k = 0; k <= 5; k++) ticks.push(y0 + (y1 - y0) * k / 5);
	ticks.forEach(function (v) {
		s.appendChild(sv('line', { x1: L, x2: L + pw, y1: ty(v), y2: ty(v), 'class': 'grid' }));
		s.appendChild(sv('text', { x: L - 4, y: ty(v) + 4, 'text-anchor': 'end' }, +v.toPrecision(3) + ''));
	});
	var xt = [];
	if (o.xlog) { for (t = Math.pow(2, Math.floor(Math.log2(x0))); t <= x1; t *= 2) if (t >= x0) xt.push(t);
		var step = Math.ceil(xt.length / 8); xt = xt.filter(function (v, i) { return i % step === 0; }); }
	else for (k = 0; k <= 5; k++) xt.push(x0 + (x1 - x0) * k / 5);
	xt.forEach(function (v) {
		s.appendChild(sv('line', { x1: tx(v), x2: tx(v), y1: Tm, y2: Tm + ph, 'class': 'grid' }));
		s.appendChild(sv('text', { x: tx(v), y: Tm + ph + 14, 'text-anchor': 'middle' },
			o.xfmt ? o.xfmt(v) : +v.toPrecision(3) + ''));
	});
	s.appendChild(sv('rect', { x: L, y: Tm, width: pw, height: ph, fill: 'none', 'class': 'axis' }));
	s.appendChild(sv('text', { x: L + pw / 2, y: H - 8, 'text-anchor': 'middle' }, o.xlabel));
	s.appendChild(sv('text', { x: 12, y: Tm + ph / 2, transform: 'rotate(-90 12 ' + (Tm + ph / 2) + ')',
		'text-anchor': 'middle' }, o.ylabel));
	if (o.band) {
		var bx = Math.max(L, tx(Math.max(o.band.x0 || x0, x0)));
		s.appendChild(sv('rect', { x: bx, y: ty(o.band.y1), width: Math.max(0, L + pw - bx),
			height: Math.max(1, ty(o.band.y0) - ty(o.band.y1)), fill: '#2f855a', 'fill-opacity': 0.15 }));
		s.appendChild(sv('text', { x: L + pw + 4, y: ty(o.band.y1) + 4, fill: '#2f855a' }, o.band.label));
	}
	if (o.bars) o.bars.counts.forEach(function (c, i) {
		var a = tx(o.bars.edges[i]), b = tx(o.bars.edges[i + 1]);
		s.appendChild(sv('rect', { x: a, y: ty(c), width: Math.max(1, b - a - 1), height: ty(0) - ty(c), fill: COLORS[0] }));
	});
	(o.hlines || []).forEach(function (h) {
		if (!num(h.y) || h.y < y0 || h.y > y1) return;
		s.appendChild(sv('line', { x1: L, x2: L + pw, y1: ty(h.y), y2: ty(h.y), stroke: h.color || '#c0392b',
			'stroke-dasharray': '6 3', 'stroke-width': 1.5 }));
		s.appendChild(sv('text', { x: L + 4, y: ty(h.y) - 3, fill: h.color || '#c0392b' }, h.label));
	});
	(o.series || []).forEach(function (se, i) {
		var c = se.color || COLORS[i % COLORS.length], d = '';
		se.pts.filter(function (p) { return num(p[0]) && num(p[1]) && (!o.ylog || p[1] > 0); })
			.sort(function (a, b) { return a[0] - b[0]; }).forEach(function (p, j) {
				d += (j ? 'L' : 'M') + tx(p[0]).toFixed(1) + ' ' + ty(p[1]).toFixed(1);
				s.appendChild(sv('circle', { cx: tx(p[0]), cy: ty(p[1]), r: 2.5, fill: c }));
			});
		s.appendChild(sv('path', { d: d, fill: 'none', stroke: c, 'stroke-width': 1.8,
			'stroke-dasharray': se.dash ? '5 3' : 'none' }));
		s.appendChild(sv('line', { x1: L + pw + 6, x2: L + pw + 22, y1: Tm + 10 + 15 * i, y2: Tm + 10 + 15 * i,
			stroke: c, 'stroke-width': 2, 'stroke-dasharray': se.dash ? '5 3' : 'none' }));
		s.appendChild(sv('text', { x: L + pw + 26, y: Tm + 14 + 15 * i }, se.name));
	});
	return s;
}

/* Series of one figure per (test, QPs), from results of kind. */
function seriesOf(results, kind, key, suffix, dash) {
	var m = {}, order = [];
	results.forEach(function (r) {
		if (r.kind !== kind || !num(r[key])) return;
		var n = r.test + ', ' + r.num_qps + ' QP' + (r.num_qps === 1 ? '' : 's') + (suffix || '');
		if (!m[n]) { m[n] = { name: n, pts: [], dash: dash }; order.push(n); }
		m[n].pts.push([r.size_bytes, r[key]]);
	});
	return order.map(function (n) { return m[n]; });
}
var PCTS = [['lat_p50_us', 'p50', 'p50'], ['lat_p90_us', 'p90', 'p90'], ['lat_p99_us', 'p99', 'p99'],
	['lat_p999_us', 'p99.9', 'p99.9'], ['lat_p9999_us', 'p99.99', 'p99.99']];

/* The charts of one run: bandwidth, message rate, latency, histograms,
 * intervals; limits and the band drawn. extra: {band, more: [docs]}. */
function runCharts(doc, extra) {
	extra = extra || {};
	var res = doc.results || [], lim = get(doc, 'verdict.limits') || {};
	var line = get(doc, 'device.line_rate_gbps'), box = el('div', { cls: 'charts' }), hl = [];
	var bw = seriesOf(res, 'bandwidth', 'bw_avg_gbps');
	(extra.more || []).forEach(function (m) { bw = bw.concat(seriesOf(m.doc.results || [], 'bandwidth', 'bw_avg_gbps', m.suffix, true)); });
	if (num(lim.min_bw_gbps)) hl.push({ y: lim.min_bw_gbps, label: 'min ' + lim.min_bw_gbps + ' Gb/s' });
	if (num(lim.min_bw_line_rate_pct) && num(line))
		hl.push({ y: lim.min_bw_line_rate_pct * line / 100, label: 'min ' + lim.min_bw_line_rate_pct + '% of line' });
	if (num(line)) hl.push({ y: line, label: 'line ' + line + ' Gb/s', color: '#4a5568' });
	if (bw.length)
		box.appendChild(chart({ title: 'Bandwidth', xlabel: 'message size', ylabel: 'Gb/s', xlog: true, ylog: true,
			xfmt: bytes, series: bw, hlines: hl, band: extra.band }));
	var mr = seriesOf(res, 'bandwidth', 'msg_rate_mpps');
	(extra.more || []).forEach(function (m) { mr = mr.concat(seriesOf(m.doc.results || [], 'bandwidth', 'msg_rate_mpps', m.suffix, true)); });
	if (mr.length)
		box.appendChild(chart({ title: 'Message rate', xlabel: 'message size', ylabel: 'Mpps', xlog: true, ylog: true,
			xfmt: bytes, series: mr, hlines: num(lim.min_msgrate_mpps) ? [{ y: lim.min_msgrate_mpps,
				label: 'min ' + lim.min_msgrate_mpps + ' Mpps' }] : [] }));
	var lat = [], lh = [];
	PCTS.forEach(function (p) {
		seriesOf(res, 'latency', p[0], ' ' + p[1]).forEach(function (s) { lat.push(s); });
		(extra.more || []).forEach(function (m) {
			seriesOf(m.doc.results || [], 'latency', p[0], ' ' + p[1] + m.suffix, true).forEach(function (s) { lat.push(s); }); });
		var mx = lim.max_lat_us && lim.max_lat_us[p[2]];
		if (num(mx)) lh.push({ y: mx, label: 'max ' + p[1] + ' ' + mx + ' us' });
	});
	if (lat.length)
		box.appendChild(chart({ title: 'Latency percentiles', xlabel: 'message size', ylabel: 'us', xlog: true, ylog: true,
			xfmt: bytes, series: lat, hlines: lh }));
	res.forEach(function (r) {
		var h = r.lat_histogram;
		if (h) box.appendChild(chart({ title: 'Latency histogram: ' + r.test + ' ' + bytes(r.size_bytes) + ', ' + h.samples +
			' samples', xlabel: 'latency [us]', ylabel: 'samples', xlog: h.log, bars: { edges: h.edges_us, counts: h.counts } }));
		if (r.intervals && r.intervals.length)
			box.appendChild(chart({ title: 'Bandwidth over time: ' + r.test + ' ' + bytes(r.size_bytes), xlabel: 's',
				ylabel: 'Gb/s', series: [{ name: 'interval', pts: r.intervals.map(function (i) { return [i.end_s, i.bw_gbps]; }) }] }));
	});
	return box;
}

function pointsTable(res) {
	return table(['test', 'size', 'QPs', 'BW avg [Gb/s]', 'BW peak', 'Mpps', 'p50 [us]', 'p99', 'p99.9', 'data check', 'limits'],
		res.map(function (r) {
			var th = r.thresholds, chk = r.data_check;
			return [r.test, bytes(r.size_bytes), r.num_qps, fmt(r.bw_avg_gbps), fmt(r.bw_peak_gbps), fmt(r.msg_rate_mpps),
				fmt(r.lat_p50_us), fmt(r.lat_p99_us), fmt(r.lat_p999_us), chk ? (chk.ok ? 'ok' : 'FAILED') : '-',
				th ? (th.pass ? 'pass' : th.failed.map(function (f) { return f.text; }).join('; ')) : '-'];
		}), { cls: function (i) { var r = res[i]; return (r.thresholds && !r.thresholds.pass) ||
			(r.data_check && !r.data_check.ok) ? 'bad' : ''; } });
}

function runFacts(doc) {
	var p = doc.parameters || {}, tests = {};
	(doc.results || []).forEach(function (r) { tests[r.test] = 1; });
	return facts([['Test', Object.keys(tests).join(', ') || p.test], ['Date', doc.timestamp],
		['Device', [get(doc, 'device.name'), 'port ' + get(doc, 'device.port'), get(doc, 'device.link_layer'),
			num(get(doc, 'device.line_rate_gbps')) ? get(doc, 'device.line_rate_gbps') + ' Gb/s line rate' : null]
			.filter(Boolean).join(', ')],
		['Client', [get(doc, 'client.hostname'), get(doc, 'client.kernel'), get(doc, 'client.cpu_model')].filter(Boolean).join(', ')],
		['Server', [get(doc, 'server.hostname'), get(doc, 'server.address'), get(doc, 'server.rdmaperf_version') &&
			'rdmaperf ' + get(doc, 'server.rdmaperf_version')].filter(Boolean).join(', ')],
		['Peer device', get(doc, 'peer_device.name')], ['Transport', p.transport], ['Connection', p.connection],
		['Memory', get(doc, 'memory.type')], ['Points', (doc.results || []).length],
		['rdmaperf', doc.version]]);
}

function runSection(sec) {
	var d = sec.doc, v = d.verdict, s = el('section', { cls: 'doc' });
	s.appendChild(el('h2', { text: 'Run: ' + sec.file }));
	if (v) s.appendChild(el('p', {}, [verdict(v.pass), ' ' + v.failed_points + ' of ' + v.points +
		' point(s) failed a limit']));
	s.appendChild(runFacts(d));
	s.appendChild(runCharts(d));
	s.appendChild(el('h3', { text: 'Points' }));
	s.appendChild(pointsTable(d.results || []));
	if (v && v.limits) s.appendChild(el('details', {}, [el('summary', { text: 'Limits' }), generic(v.limits)]));
	s.appendChild(el('details', {}, [el('summary', { text: 'Options (parameters)' }), generic(d.parameters || {})]));
	return s;
}

function certifySection(sec) {
	var s = el('section', { cls: 'doc' });
	s.appendChild(el('h2', {}, ['Certification: ' + sec.file + ' ', sec.verdict ? verdict(sec.verdict === 'PASS') : null]));
	s.appendChild(table(['', ''], sec.facts || []));
	if (!sec.runs.length) s.appendChild(el('p', { text: 'no run documents (TEST.json) in the folder' }));
	sec.runs.forEach(function (r) {
		var line = get(r.doc, 'device.line_rate_gbps'), band = null;
		if (num(line) && num(sec.band_lo_pct))
			band = { y0: line * sec.band_lo_pct / 100, y1: line * sec.band_hi_pct / 100, x0: sec.band_min_bytes,
				label: 'band ' + sec.band_lo_pct + '-' + sec.band_hi_pct + '%' };
		s.appendChild(el('h3', { text: r.file }));
		s.appendChild(runCharts(r.doc, { band: band }));
		s.appendChild(pointsTable(r.doc.results || []));
	});
	return s;
}

function compareSection(sec) {
	var s = el('section', { cls: 'doc' }), b = sec.base.doc, n = sec.new.doc, tol = sec.tolerance_pct;
	var rows = [], cls = [], bad = 0, key = function (r) { return r.test + '|' + r.size_bytes + '|' + r.num_qps; };
	var nm = {};
	(n.results || []).forEach(function (r) { nm[key(r)] = r; });
	(b.results || []).forEach(function (r) {
		var lat = r.kind === 'latency', f = lat ? 'lat_p50_us' : 'bw_avg_gbps', m = nm[key(r)], ch, word;
		if (!m) { rows.push([r.test, bytes(r.size_bytes), r.num_qps, f, fmt(r[f]), '-', '-', 'MISSING']); cls.push('bad'); bad++; return; }
		delete nm[key(r)];
		ch = num(r[f]) && r[f] > 0 && num(m[f]) ? (m[f] - r[f]) / r[f] * 100 : NaN;
		word = !num(ch) ? 'no figure' : (lat ? ch > tol : ch < -tol) ? 'REGRESSION' :
			(lat ? ch < -tol : ch > tol) ? 'better' : 'ok';
		bad += word === 'REGRESSION' || word === 'no figure';
		rows.push([r.test, bytes(r.size_bytes), r.num_qps, f, fmt(r[f]), fmt(m[f]), num(ch) ? (ch > 0 ? '+' : '') + ch.toFixed(1) + '%' : '-', word]);
		cls.push(word === 'REGRESSION' || word === 'no figure' ? 'bad' : word === 'better' ? 'good' : '');
	});
	Object.keys(nm).forEach(function (k) { var r = nm[k]; rows.push([r.test, bytes(r.size_bytes), r.num_qps, '', '-', '', '', 'only in new']); cls.push(''); });
	s.appendChild(el('h2', {}, ['Compare: ' + sec.base.file + ' \u2192 ' + sec.new.file + ' ', verdict(!bad)]));
	s.appendChild(el('p', { cls: 'note', text: 'A change beyond ' + tol + '% of the headline figure (average bandwidth, median latency) is marked; ' + bad + ' point(s) regressed or missing.' }));
	s.appendChild(el('div', { cls: 'side' }, [el('div', {}, [el('h3', { text: 'Baseline: ' + sec.base.file }), runFacts(b)]),
		el('div', {}, [el('h3', { text: 'New: ' + sec.new.file }), runFacts(n)])]));
	s.appendChild(table(['test', 'size', 'QPs', 'figure', 'baseline', 'new', 'change', 'verdict'], rows,
		{ cls: function (i) { return cls[i]; } }));
	s.appendChild(el('p', { cls: 'note', text: 'Solid: new; dashed: baseline.' }));
	s.appendChild(runCharts(n, { more: [{ doc: b, suffix: ' (base)' }] }));
	return s;
}

/* ---- mesh ---- */
function parseNums(str, n) {
	var a = new Float64Array(n), i = 0, start = 0, j, len = str.length;
	for (j = 0; j <= len && i < n; j++) {
		if (j === len || str.charCodeAt(j) === 44) {
			a[i++] = j > start ? +str.substring(start, j) : NaN;
			start = j + 1;
		}
	}
	for (; i < n; i++) a[i] = NaN;
	return a;
}
function medianOf(a) {
	var v = [], i, step = Math.max(1, Math.floor(a.length / 200000));
	for (i = 0; i < a.length; i += step) if (a[i] === a[i]) v.push(a[i]);
	v.sort(function (x, y) { return x - y; });
	return v.length ? v[v.length >> 1] : NaN;
}
var RED = [200, 40, 40], YEL = [235, 190, 40], GRN = [46, 140, 70], LGRN = [120, 185, 110];
function mix(a, b, t) { return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]; }
function ratioColor(r, tol) {
	var lo = 0.5, mid = 1 - tol;
	if (r >= 1) return GRN;
	if (r >= mid) return mix(LGRN, GRN, (r - mid) / (1 - mid));
	if (r <= lo) return RED;
	return mix(RED, YEL, (r - lo) / (mid - lo));
}
var STATUS = { o: ['ok', GRN], f: ['flagged', [230, 120, 30]], x: ['failed', [20, 20, 20]], s: ['skipped', [170, 170, 170]], '?': ['other', [120, 60, 160]] };

function meshSection(sec) {
	var h = sec.head, n = sec.n, s = el('section', { cls: 'doc' }), tol = num(h.tolerance_pct) ? h.tolerance_pct / 100 : 0.1;
	var names = h.nodes, details = {}, detailList = sec.detail;
	s.appendChild(el('h2', { text: 'Mesh: ' + sec.file }));
	s.appendChild(facts([['Tool', h.tool + ' ' + h.version], ['Pattern', h.pattern + (h.bidirectional ? ', both directions' : '')],
		['Nodes', n], ['Rails', h.rails], ['Cells', sec.cells], ['Tolerance', num(h.tolerance_pct) ? h.tolerance_pct + '% below the rail median' : null],
		['Cells file', h.cells_file], ['Records in this page', sec.full ? 'every cell' : detailList.length +
			' cells that are not ok or have counters or a retest' + (sec.detail_cut ? ' (' + sec.detail_cut + ' more left out)' : '')]]));
	if (h.totals) { s.appendChild(el('h3', { text: 'Totals' })); s.appendChild(generic(h.totals)); }
	if (h.medians && h.medians.length) s.appendChild(generic(h.medians));
	detailList.forEach(function (c) { (details[c.rail] = details[c.rail] || {})[c.i] = c; });
	var grids = sec.grids.map(function (g) {
		return { rail: g.rail, bw: parseNums(g.bw, n * n), lat: g.lat ? parseNums(g.lat, n * n) : null,
			round: parseNums(g.round, n * n), st: g.st };
	});
	var views = [];
	grids.forEach(function (g) { views.push(heatmap(s, sec, g, details[g.rail] || {}, tol)); });
	outliers(s, sec, detailList, views);
	faults(s, h, detailList, views, names);
	retests(s, sec, detailList, views);
	['node_errors', 'pruned', 'coverage', 'cover', 'quick', 'congestion', 'retest_rounds'].forEach(function (k) {
		if (h[k] && (!Array.isArray(h[k]) || h[k].length)) {
			s.appendChild(el('h3', { text: k.replace('_', ' ') }));
			s.appendChild(generic(h[k]));
		}
	});
	timing(s, h);
	return s;
}

function heatmap(s, sec, g, det, tol) {
	var n = sec.n, names = sec.head.nodes, med = get(sec.head, 'medians.' + g.rail);
	var mbw = med && num(med.bw_gbps) ? med.bw_gbps : medianOf(g.bw);
	var mlat = med && num(med.lat_us) ? med.lat_us : g.lat ? medianOf(g.lat) : NaN;
	var px = Math.max(1, Math.min(40, Math.floor(720 / n))), size = n * px, mode = 'bw', mark = null, maxRound = 1, i;
	for (i = 0; i < g.round.length; i++) if (g.round[i] > maxRound) maxRound = g.round[i];
	s.appendChild(el('h3', { text: 'Rail ' + g.rail + ': sender (row) \u2192 receiver (column), median ' + fmt(mbw) + ' Gb/s' +
		(num(mlat) ? ', ' + fmt(mlat) + ' us' : '') }));
	var sel = el('select', {}, [el('option', { value: 'bw', text: 'bandwidth vs median' }),
		g.lat ? el('option', { value: 'lat', text: 'latency vs median' }) : null,
		el('option', { value: 'st', text: 'status' }), el('option', { value: 'round', text: 'round' })]);
	var legend = el('span', { cls: 'legend' });
	s.appendChild(el('div', { cls: 'controls' }, ['colour: ', sel, legend]));
	var cv = el('canvas', { width: size, height: size, 'data-rail': g.rail }), ov = el('canvas', { width: size, height: size, cls: 'over' });
	var wrap = el('div', { cls: 'heat' }, [cv, ov]), tip = el('div', { cls: 'tip' }), panel = el('div', { cls: 'cell' });
	panel.textContent = 'Click a cell for its whole record.';
	s.appendChild(wrap); document.body.appendChild(tip);
	if (n <= 64) s.appendChild(el('p', { cls: 'note', text: 'Rows and columns, in order: ' + names.join(', ') }));
	s.appendChild(panel);
	var off = document.createElement('canvas'); off.width = n; off.height = n;
	function draw() {
		var ctx = off.getContext('2d'), img = ctx.createImageData(n, n), d = img.data, k, c, st, v;
		for (k = 0; k < n * n; k++) {
			st = g.st.charAt(k);
			if (st === ' ') c = [255, 255, 255];
			else if (mode === 'st' || st === 'x' || st === 's') c = (STATUS[st] || STATUS['?'])[1];
			else if (mode === 'round') { v = g.round[k] / maxRound; c = mix([40, 60, 160], [250, 220, 60], v || 0); }
			else if (mode === 'lat') { v = g.lat[k]; c = v === v ? ratioColor(mlat / v, tol) : [220, 220, 220]; }
			else { v = g.bw[k]; c = v === v ? ratioColor(v / mbw, tol) : [220, 220, 220]; }
			d[4 * k] = c[0]; d[4 * k + 1] = c[1]; d[4 * k + 2] = c[2]; d[4 * k + 3] = 255;
		}
		ctx.putImageData(img, 0, 0);
		var x = cv.getContext('2d');
		x.imageSmoothingEnabled = false;
		x.drawImage(off, 0, 0, size, size);
		legend.textContent = '';
		(mode === 'st' ? Object.keys(STATUS).map(function (k) { return [STATUS[k][0], STATUS[k][1]]; }) :
			mode === 'round' ? [['first', [40, 60, 160]], ['last round ' + maxRound, [250, 220, 60]]] :
			[['\u2265 median', GRN], [Math.round((1 - tol) * 100) + '%', LGRN], ['below', YEL], ['\u2264 50%', RED], ['failed', STATUS.x[1]], ['skipped', STATUS.s[1]]])
			.forEach(function (l) {
				legend.appendChild(el('span', { style: 'background: rgb(' + l[1].map(Math.round).join(',') + ')' }));
				legend.appendChild(document.createTextNode(l[0]));
			});
	}
	function cellAt(ev) {
		var r = cv.getBoundingClientRect(), cx = Math.floor((ev.clientX - r.left) / r.width * n),
			cy = Math.floor((ev.clientY - r.top) / r.height * n);
		return cx >= 0 && cy >= 0 && cx < n && cy < n ? cy * n + cx : -1;
	}
	function describe(k) {
		var tx = Math.floor(k / n), rx = k % n, c = det[k], st = g.st.charAt(k), lines;
		lines = [names[tx] + ' \u2192 ' + names[rx] + ', rail ' + g.rail,
			'status: ' + (st === ' ' ? 'not measured' : (STATUS[st] || STATUS['?'])[0]) +
			(num(g.round[k]) ? ', round ' + g.round[k] : ''),
			'bandwidth: ' + fmt(g.bw[k]) + ' Gb/s' + (num(g.bw[k]) ? ' (' + (100 * g.bw[k] / mbw).toFixed(1) + '% of median)' : '')];
		if (g.lat) lines.push('latency: ' + fmt(g.lat[k]) + ' us');
		if (c) {
			if (c.reason) lines.push('why: ' + c.reason);
			if (c['class']) lines.push('points at: ' + c['class'] + ' ' + c.suspect);
			if (c.errors) ['tx', 'rx'].forEach(function (side) {
				var e = c.errors[side];
				if (e) lines.push('counters ' + side + ': link ' + e.link + ', retries ' + e.retries + ', congestion ' + e.congestion +
					(e.counters && Object.keys(e.counters).length ? ' ' + JSON.stringify(e.counters) : ''));
			});
			if (c.path) lines.push('path: ' + c.path.join(' / '));
			if (c.retest) lines.push('retest: ' + c.retest.status + (c.retest.held ? ' (held)' : ' (cleared)') +
				', ' + fmt(c.retest.bw_gbps) + ' Gb/s');
		}
		return lines.join('\n');
	}
	function select(k) {
		var c = det[k];
		mark = k; overlay([]);
		panel.textContent = '';
		panel.appendChild(el('pre', { text: describe(k) }));
		if (c) panel.appendChild(el('pre', { text: JSON.stringify(c, null, 2) }));
		else panel.appendChild(el('p', { cls: 'note', text: 'This cell\'s whole record is not in the page (ok, no counters): it is in ' +
			(sec.head.cells_file || 'cells.jsonl') + ' beside ' + sec.file + '.' }));
	}
	function overlay(cells) {
		var x = ov.getContext('2d'), q = Math.max(px, 3);
		x.clearRect(0, 0, size, size);
		x.strokeStyle = '#1060ff'; x.lineWidth = 1;
		cells.forEach(function (k) { x.strokeRect((k % n) * px - (q - px) / 2, Math.floor(k / n) * px - (q - px) / 2, q, q); });
		if (mark !== null) {
			x.strokeStyle = '#000'; x.lineWidth = 2;
			x.strokeRect((mark % n) * px - 2, Math.floor(mark / n) * px - 2, px + 4, px + 4);
		}
	}
	cv.addEventListener('mousemove', function (ev) {
		var k = cellAt(ev);
		if (k < 0) { tip.style.display = 'none'; return; }
		tip.textContent = describe(k);
		tip.style.display = 'block';
		tip.style.left = Math.min(ev.clientX + 14, window.innerWidth - 470) + 'px';
		tip.style.top = (ev.clientY + 14) + 'px';
	});
	cv.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
	cv.addEventListener('click', function (ev) { var k = cellAt(ev); if (k >= 0) select(k); });
	sel.addEventListener('change', function () { mode = sel.value; draw(); });
	draw();
	return { rail: g.rail, select: select, overlay: overlay, wrap: wrap, n: n };
}

function show(views, rail, k, marks) {
	var v = views.filter(function (x) { return x.rail === rail; })[0];
	if (!v) return;
	if (k !== null) v.select(k);
	v.overlay(marks || []);
	v.wrap.scrollIntoView({ block: 'center' });
}

function outliers(s, sec, list, views) {
	var bad = list.filter(function (c) { return c.status !== 'ok' && c.status !== 'skipped'; }), rows;
	bad.sort(function (a, b) {
		var fa = a.status === 'failed', fb = b.status === 'failed';
		if (fa !== fb) return fa ? -1 : 1;
		return (num(a.bw_gbps) ? a.bw_gbps : 0) - (num(b.bw_gbps) ? b.bw_gbps : 0);
	});
	s.appendChild(el('h3', { text: 'Outliers: ' + bad.length + ' cell(s) flagged or failed, worst first' +
		(bad.length > 300 ? ' (the first 300 listed)' : '') }));
	if (!bad.length) { s.appendChild(el('p', { text: 'none' })); return; }
	rows = bad.slice(0, 300);
	s.appendChild(table(['sender', 'receiver', 'rail', 'status', 'Gb/s', 'us', 'points at', 'why'], rows.map(function (c) {
		return [c.tx, c.rx, c.rail, c.status, fmt(c.bw_gbps), fmt(c.lat_us), c['class'] ? c['class'] + ' ' + c.suspect : '', c.reason];
	}), { cls: function (i) { return rows[i].status === 'failed' ? 'bad' : ''; },
		click: function (i) { show(views, rows[i].rail, rows[i].i); } }));
}

function faults(s, h, list, views, names) {
	var fl = h.faults || [];
	s.appendChild(el('h3', { text: 'Faults located: ' + fl.length }));
	if (!fl.length) { s.appendChild(el('p', { text: 'none' })); return; }
	s.appendChild(table(['part', 'name', 'node', 'rail', 'switch', 'port', 'bad / total', 'confidence'], fl.map(function (f) {
		return [f.part, f.name, f.node, f.rail, f['switch'], f.port, f.bad + ' / ' + f.total, fmt(f.confidence, 3)];
	}), { click: function (i) {
		var f = fl[i], rail = num(f.rail) ? f.rail : views.length ? views[0].rail : 0, marks = [];
		list.forEach(function (c) {
			if (c.rail !== rail || c.status === 'ok') return;
			if ((f.node && (c.tx === f.node || c.rx === f.node)) ||
				(f['switch'] && c.path && c.path.some(function (p) { return p.indexOf(f['switch']) >= 0; })))
				marks.push(c.i);
		});
		show(views, rail, null, marks);
	} }));
	s.appendChild(el('p', { cls: 'note', text: 'Click a fault to mark its flagged cells on the heatmap.' }));
}

function retests(s, sec, list, views) {
	var r = list.filter(function (c) { return c.retest; });
	if (!r.length) return;
	s.appendChild(el('h3', { text: 'Retests: ' + r.length }));
	s.appendChild(table(['sender', 'receiver', 'rail', 'first', 'Gb/s', 'retest', 'Gb/s', 'held'], r.map(function (c) {
		return [c.tx, c.rx, c.rail, c.status, fmt(c.bw_gbps), c.retest.status, fmt(c.retest.bw_gbps), c.retest.held ? 'held' : 'cleared'];
	}), { cls: function (i) { return r[i].retest.held ? 'bad' : 'good'; }, click: function (i) { show(views, r[i].rail, r[i].i); } }));
}

function timing(s, h) {
	var rs = (h.rounds || []).concat(h.retest_rounds || []).filter(function (r) { return r.timing; });
	if (!h.timing && !rs.length) return;
	s.appendChild(el('h3', { text: 'Timing' }));
	if (h.timing) s.appendChild(generic(h.timing));
	if (rs.length)
		s.appendChild(chart({ title: 'Each round: wall time and time measured', xlabel: 'round', ylabel: 's',
			series: [{ name: 'wall', pts: rs.map(function (r) { return [r.round, r.timing.wall_s]; }) },
				{ name: 'measured', pts: rs.map(function (r) { return [r.round, r.timing.measured_s]; }) }] }));
}

var DRAW = { run: runSection, certify: certifySection, compare: compareSection, mesh: meshSection };

function fail(e) {
	var box = document.getElementById('rdp-error') || app.appendChild(el('div', { id: 'rdp-error' }));
	box.textContent = 'The report could not be drawn: ' + (e && e.stack ? e.stack : e);
	var done = document.getElementById('rdp-done');
	if (done) done.parentNode.removeChild(done);
}
window.addEventListener('error', function (ev) { fail(ev.error || ev.message); });

try {
	var data = JSON.parse(document.getElementById('rdp-data').textContent);
	app.textContent = '';
	app.appendChild(el('h1', { text: 'rdmaperf report' }));
	var toc = el('ul');
	app.appendChild(toc);
	data.forEach(function (sec, i) {
		var part = (DRAW[sec.kind] || function () { return el('p', { text: 'unknown section ' + sec.kind }); })(sec);
		part.id = 'sec' + i;
		toc.appendChild(el('li', {}, [el('a', { href: '#sec' + i, text: sec.kind + ': ' + (sec.file || (sec.base && sec.base.file + ' vs ' + sec.new.file)) })]));
		app.appendChild(part);
	});
	var ms = performance.now() - T0;
	/* data-ms: this script, parsing the data to the last drawing;
	 * data-page-ms: from the start of the page's load. */
	app.appendChild(el('div', { id: 'rdp-done', 'data-ms': ms.toFixed(1),
		'data-page-ms': performance.now().toFixed(1),
		text: 'Drawn in ' + ms.toFixed(1) + ' ms by rdmaperf report.' }));
	document.title = 'rdmaperf report: ' + data.map(function (x) { return x.kind; }).join(', ');
} catch (e) {
	fail(e);
	throw e;
}
}());
