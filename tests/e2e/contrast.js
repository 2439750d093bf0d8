// The contrast check of tests/e2e/test_contrast.py, evaluated in the page after
// axe-core: axe's color-contrast rule (short texts included: a piece's number is
// one character), then each board text not drawn with its own outline against the
// fill of the shape it sits on (axe cannot find an SVG text's background).
// Resolves to [[what, why], ...], empty when everything passes. ``within``: a
// selector to check only what it matches (then no board texts), else the page.
async (within) => {
     const o = Object.assign({}, axe._audit.checks['color-contrast'].options, {ignoreLength: true});
     axe.configure({checks: [{id: 'color-contrast', options: o}]});
     const r = await axe.run(within || document, {runOnly: {type: 'rule', values: ['color-contrast']}});
     const found = r.violations.flatMap(v => v.nodes.map(n => [n.target.join(' '), n.failureSummary]));
     const C = axe.commons.color;
     const parse = (c) => { const x = new C.Color(); x.parseString(c); return x; };
     for (const t of within ? [] : document.querySelectorAll('#board svg text')) {
       const st = getComputedStyle(t);
       if (st.display === 'none' || (st.stroke !== 'none' && parseFloat(st.strokeWidth) > 0)) continue;
       let shape = t.previousElementSibling;
       while (shape && !['use', 'circle', 'rect', 'path', 'polygon'].includes(shape.tagName)) shape = shape.previousElementSibling;
       const bgEl = shape || t.closest('svg').querySelector('rect, circle');
       const bg = getComputedStyle(bgEl).fill;
       if (!bg.startsWith('rgb')) continue;
       const ratio = C.getContrast(parse(bg), parse(st.fill));
       if (ratio < 4.5) found.push([t.textContent + ' in ' + (t.parentElement.getAttribute('class') || ''),
                                    `contrast ${ratio.toFixed(2)} (${st.fill} on ${bg})`]);
     }
     return found;
   }
