/*
 * report.js - nb_report --html's page: reads the profile's views that
 * nb_report wrote into the page (textarea.nb-data blocks, tab-separated,
 * as its --stdio tables and --folded stacks) and draws, per event, a flame
 * graph (d3-flame-graph), the hottest functions, the hottest function's
 * source with each line's samples as heat, the data lines, and the samples
 * by instruction of the hottest function (Chart.js: where IEBS skid puts
 * samples after the event's instruction, PEBS on it).
 */
'use strict';

(function () {
	const TOP = 25;

	function block(ev, kind) {
		const e = document.querySelector('textarea.nb-data[data-ev="' + ev + '"][data-kind="' + kind + '"]');
		return e ? e.value : '';
	}

	function rows(text) {
		return text.split('\n').filter((l) => l.length).map((l) => l.split('\t'));
	}

	function el(tag, attrs, text) {
		const e = document.createElement(tag);
		for (const k in attrs || {})
			e.setAttribute(k, attrs[k]);
		if (text !== undefined)
			e.textContent = text;
		return e;
	}

	/* folded stacks ("outer;...;inner COUNT") as the nested values
	 * d3-flame-graph draws (each node's value: the samples under it) */
	function tree(folded) {
		const root = { name: 'all', value: 0, children: [] };

		for (const line of folded.split('\n')) {
			const sp = line.lastIndexOf(' ');
			if (sp < 0)
				continue;
			const n = Number(line.slice(sp + 1));
			let node = root;
			root.value += n;
			for (const f of line.slice(0, sp).split(';')) {
				let c = node.children.find((x) => x.name === f);
				if (!c) {
					c = { name: f, value: 0, children: [] };
					node.children.push(c);
				}
				c.value += n;
				node = c;
			}
		}
		return root;
	}

	function table(parent, head, data, total) {
		const t = el('table');
		const h = el('tr');
		h.appendChild(el('th', { class: 'n' }, 'samples'));
		h.appendChild(el('th', { class: 'n' }, '%'));
		for (const x of head)
			h.appendChild(el('th', {}, x));
		t.appendChild(h);
		for (const r of data.slice(0, TOP)) {
			const tr = el('tr');
			tr.appendChild(el('td', { class: 'n' }, r[0]));
			tr.appendChild(el('td', { class: 'n' }, total ? (100 * r[0] / total).toFixed(2) : ''));
			tr.appendChild(el('td', {}, r[1]));
			tr.appendChild(el('td', {}, r[2] || ''));
			t.appendChild(tr);
		}
		parent.appendChild(t);
		if (data.length > TOP)
			parent.appendChild(el('p', {}, (data.length - TOP) + ' more rows: nb_report --stdio'));
	}

	/* the hottest function's source file, each line's samples as heat (the
	 * line view's rows "FILE:LINE"), the hottest line outlined */
	function source(parent, ev, lines) {
		const src = rows(block(ev, 'source'));
		if (!src.length) {
			parent.appendChild(el('p', {}, 'No source: the program has no line information or its file is not readable here.'));
			return;
		}
		const file = src[0][1];
		const count = new Map();
		let max = 0, hot = 0;
		for (const r of lines) {
			const i = r[1].lastIndexOf(':');
			if (r[1].slice(0, i) !== file)
				continue;
			const ln = Number(r[1].slice(i + 1)), n = Number(r[0]);
			count.set(ln, n);
			if (n > max) {
				max = n;
				hot = ln;
			}
		}
		parent.appendChild(el('p', {}, file + ' (the hottest line, ' + hot + ', outlined)'));
		const pre = el('pre', { class: 'source' });
		const from = Math.max(1, hot - 15), to = Math.min(src.length - 1, hot + 15);
		for (let ln = from; ln <= to; ln++) {
			const n = count.get(ln) || 0;
			const s = el('span', ln === hot ? { class: 'hottest', id: 'hottest-line-' + ev } : {},
				String(n || '').padStart(8) + ' ' + String(ln).padStart(5) + '  ' + (src[ln] ? src[ln][1] : ''));
			if (n)
				s.style.background = 'rgba(220, 40, 20, ' + (0.1 + 0.6 * n / max).toFixed(3) + ')';
			pre.appendChild(s);
		}
		parent.appendChild(pre);
	}

	/* samples by instruction of the hottest function, in address order */
	function histogram(parent, ev, hot, ips) {
		const mine = ips.filter((r) => (r[2] || '').startsWith(hot + ' '));
		if (!mine.length)
			return;
		mine.sort((a, b) => parseInt(a[1].split(':').pop(), 16) - parseInt(b[1].split(':').pop(), 16));
		const box = el('div', { class: 'chart' });
		const canvas = el('canvas', { id: 'ip-chart-' + ev });
		box.appendChild(canvas);
		parent.appendChild(box);
		new Chart(canvas, {
			type: 'bar',
			data: {
				labels: mine.map((r) => r[1].split(':').pop()),
				datasets: [{ label: 'samples in ' + hot + ' by instruction', data: mine.map((r) => Number(r[0])),
					backgroundColor: 'rgba(200, 60, 30, 0.7)' }],
			},
			options: { animation: false, scales: { x: { title: { display: true, text: 'instruction address' } },
				y: { title: { display: true, text: 'samples' } } } },
		});
	}

	function event(main, e) {
		const ev = e[1], name = e[2], mode = e[3], period = e[4], total = Number(e[5]);
		const sec = el('section', { id: 'event-' + ev });
		sec.appendChild(el('h2', {}, name + ' (' + (mode === 'pebs' ? 'PEBS' : 'IEBS') +
			', a sample every ' + period + '): ' + total + ' samples'));

		sec.appendChild(el('h3', {}, 'Flame graph (call stacks, recorded with -g; one frame without)'));
		const fl = el('div', { class: 'flame', id: 'flame-' + ev });
		sec.appendChild(fl);
		main.appendChild(sec);
		const chart = flamegraph.default().width(Math.min(1200, document.body.clientWidth - 40))
			.cellHeight(18).transitionDuration(0).minFrameSize(1);
		d3.select(fl).datum(tree(block(ev, 'folded'))).call(chart);

		const syms = rows(block(ev, 'sym'));
		sec.appendChild(el('h3', {}, 'Hottest functions'));
		table(sec, ['function', 'object'], syms, total);

		const hot = syms.length ? syms[0][1] : '';
		sec.appendChild(el('h3', {}, 'Source of the hottest function, ' + hot));
		source(sec, ev, rows(block(ev, 'line')));

		sec.appendChild(el('h3', {}, 'Samples by instruction in ' + hot));
		histogram(sec, ev, hot, rows(block(ev, 'ip')));

		const data = rows(block(ev, 'data'));
		sec.appendChild(el('h3', {}, 'Data lines (64 bytes) of the samples with a data address'));
		if (data.length)
			table(sec, ['data line', 'function; variable+offset'], data, data.reduce((s, r) => s + Number(r[0]), 0));
		else
			sec.appendChild(el('p', {}, 'No sample has a data address (IEBS, or an event without one).'));
	}

	const meta = rows(document.getElementById('nb-meta').value);
	const main = document.getElementById('nb-events');
	const evs = meta.filter((r) => r[0] === 'event');
	for (const r of meta)
		if (r[0] === 'command')
			document.getElementById('nb-command').textContent = r[1];
	document.getElementById('nb-summary').textContent = evs.length + ' event' + (evs.length === 1 ? '' : 's') +
		' sampled: ' + evs.map((r) => r[2]).join(', ');
	for (const e of evs)
		event(main, e);
	document.body.setAttribute('data-nb-ready', '1');
}());
