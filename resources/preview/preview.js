// Modu Desktop preview page code: the only script the preview ever runs.
// modu.patch(keys, fresh) brings the content to the segment list `keys`, reusing the nodes of
// unchanged segments and building the new ones from `fresh` (key -> HTML); what is on screen
// stays where it is. Segments are delimited by comments <!--s:KEY--> in #modu-content.
(function () {
  "use strict";
  var following = 0;  // the latest request to follow a block (an older one stops)
  function root() { return document.getElementById("modu-content"); }
  function collect() {
    var segs = [], cur = null, nodes = root().childNodes;
    for (var i = 0; i < nodes.length; i++) {
      var n = nodes[i];
      if (n.nodeType === 8 && n.data.lastIndexOf("s:", 0) === 0) {
        cur = { key: n.data.slice(2), nodes: [n] };
        segs.push(cur);
      } else if (cur) {
        cur.nodes.push(n);
      }
    }
    return segs;
  }
  function patch(keys, fresh) {
    var box = root(), old = collect(), pool = {}, created = 0;
    old.forEach(function (s) { (pool[s.key] = pool[s.key] || []).push(s); });
    var chosen = keys.map(function (k) {
      return pool[k] && pool[k].length ? pool[k].shift() : null;
    });
    // Remove what is gone first, so that unchanged segments after an edit are never moved
    // (moving nodes would cost a relayout and lose the browser's scroll anchor).
    old.forEach(function (s) {
      if (chosen.indexOf(s) < 0) { s.nodes.forEach(function (n) { n.remove(); }); }
    });
    var cursor = box.firstChild;
    keys.forEach(function (k, i) {
      var seg = chosen[i];
      if (!seg) {
        var t = document.createElement("template");
        t.innerHTML = "<!--s:" + k + "-->" + (fresh[k] || "");
        seg = { key: k, nodes: Array.prototype.slice.call(t.content.childNodes) };
        created++;
      }
      seg.nodes.forEach(function (n) {
        if (n === cursor) { cursor = cursor.nextSibling; } else { box.insertBefore(n, cursor); }
      });
    });
    // No scrollTo: the browser's scroll anchoring keeps what the reader looks at in place, even
    // when a segment above it grows or shrinks.
    return created;
  }
  function setRoot(attrs) {
    var el = document.documentElement;
    Object.keys(attrs).forEach(function (k) {
      if (attrs[k] === null) { el.removeAttribute(k); } else { el.setAttribute(k, attrs[k]); }
    });
  }
  function scrollState() {
    var h = document.documentElement.scrollHeight - window.innerHeight;
    return { y: window.scrollY, ratio: h > 0 ? window.scrollY / h : 0 };
  }
  function restoreScroll(y) { window.scrollTo(0, y); return window.scrollY; }
  function firstElement(seg) {
    for (var i = 0; i < seg.nodes.length; i++) {
      if (seg.nodes[i].nodeType === 1) { return seg.nodes[i]; }
    }
    return null;
  }
  // Bring segment `index` to the top of the view (the block being edited); false if absent.
  // Segments off screen are laid out only when they come near (content-visibility), so the
  // target can still move once it is reached: correct for a few frames until it stays put.
  // `part` of `parts` (a paragraph of a Markdown segment): that share of the segment's
  // elements, so the cursor's paragraph comes into view, not only the blocks.
  function scrollToSegment(index, part, parts) {
    var seg = collect()[index], el = seg ? firstElement(seg) : null;
    if (seg && parts > 0) {
      var els = seg.nodes.filter(function (n) { return n.nodeType === 1; });
      if (els.length) { el = els[Math.min(els.length - 1, Math.floor(part * els.length / parts))]; }
    }
    if (!el) { return false; }
    var run = ++following, frames = 0, still = 0;
    function step() {
      if (run !== following || !el.isConnected) { return; }
      var off = el.getBoundingClientRect().top - 16;
      if (Math.abs(off) >= 1) { window.scrollTo(0, window.scrollY + off); still = 0; }
      else { still++; }
      if (still < 5 && ++frames < 60) { requestAnimationFrame(step); }
    }
    step();
    return true;
  }
  function segmentOf(node) {
    var segs = collect();
    for (var i = 0; i < segs.length; i++) {
      for (var j = 0; j < segs[i].nodes.length; j++) {
        var n = segs[i].nodes[j];
        if (n === node || (n.nodeType === 1 && n.contains(node))) { return i; }
      }
    }
    return -1;
  }
  // A double-click on a block tells the editor which segment it was (read by the page's
  // console handler in ui/preview/engine.py); nothing else leaves the page.
  document.addEventListener("dblclick", function (e) {
    var i = segmentOf(e.target);
    if (i >= 0) { console.info("modu:activate:" + i); }
  });
  window.modu = { patch: patch, setRoot: setRoot, scrollState: scrollState,
                  restoreScroll: restoreScroll, scrollToSegment: scrollToSegment,
                  segmentOf: segmentOf, keys: function () {
                    return collect().map(function (s) { return s.key; }); } };
})();
