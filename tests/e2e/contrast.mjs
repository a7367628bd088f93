// WCAG contrast of every piece of text on the page, computed in the page from the
// styles it ends up with: the text colour against the background it sits on (the
// element's and its ancestors' backgrounds blended), and the chips' role letters.

/** Runs in the page: [{ what, text, ratio }] for every visible text below `minimum`. */
export function lowContrast(minimum) {
  const parse = (c) => {
    let m = c.match(/^rgba?\(([^)]+)\)$/);
    if (m) {
      const v = m[1]
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
    }
    m = c.match(/^color\(srgb ([^)]+)\)$/);
    if (m) {
      const v = m[1].split(/[ /]+/).filter(Boolean).map(Number);
      return [v[0] * 255, v[1] * 255, v[2] * 255, v.length > 3 ? v[3] : 1];
    }
    return [0, 0, 0, 0];
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
  };
  const lum = ([r, g, b]) => {
    const f = (x) => {
      const c = x / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let c = [255, 255, 255, 1];
    for (const l of layers.reverse()) c = over(l, c);
    return c;
  };
  const out = [];
  const seen = new Set();
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("[hidden], noscript, script, style, canvas, option, [disabled]")) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const cs = getComputedStyle(el);
    if (cs.visibility === "hidden" || cs.display === "none") continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const checks = [];
    if (own) checks.push([parse(cs.color), background(el), el.textContent.trim().slice(0, 30)]);
    const before = getComputedStyle(el, "::before");
    if (before.content && before.content !== "none" && before.content !== "normal" && before.content !== '""') {
      const bb = parse(before.backgroundColor);
      checks.push([
        parse(before.color),
        bb[3] > 0 ? over(bb, background(el)) : background(el),
        `${before.content} on ${el.className}`,
      ]);
    }
    for (const [fg, bg, text] of checks) {
      const x = ratio(over(fg, bg), bg);
      const key = `${el.className}|${text}`;
      if (x < minimum && !seen.has(key)) {
        seen.add(key);
        out.push({
          what: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${String(el.className).replace(/ /g, ".")}`,
          text,
          ratio: Math.round(x * 100) / 100,
        });
      }
    }
  }
  return out;
}
