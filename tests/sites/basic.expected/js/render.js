/* blogbuild default theme: math (KaTeX) and diagrams (mermaid) in the browser.
   Math is normally typeset at build time (the page holds KaTeX's HTML); with `math_render: browser`
   the build leaves the TeX in <span class="math inline"> / <div class="math display"> and KaTeX's
   script, loaded by base.html, typesets it here. Diagrams keep their source in <pre class="mermaid">;
   mermaid (an ES module; its URL is on this script tag's data-mermaid) is imported only once a diagram
   comes near the viewport, with only the chunks its diagrams need, and every diagram is drawn as it does. A diagram wider than its column gets a
   button that opens it full screen, where it can be zoomed (wheel, buttons, pinch) and panned (drag).
   When math and the diagrams in view at load are drawn, `blogbuild:rendered` is dispatched on document
   and <html data-rendered="true"> is set (live reload restores the scroll position on it; tests wait
   for it); <html data-diagrams="done"> is set once every diagram of the page is drawn. */
(function () {
  "use strict";

  var root = document.documentElement;
  // The diagram viewer's words, in the page's language (Chinese for zh* pages, English otherwise).
  var WORDS = /^zh/i.test(root.lang || "")
    ? { open: "全屏查看图表", diagram: "图表", zoomIn: "放大", zoomOut: "缩小", reset: "还原", close: "关闭" }
    : { open: "Open the diagram full screen", diagram: "Diagram", zoomIn: "Zoom in", zoomOut: "Zoom out",
        reset: "Reset", close: "Close" };
  var self = document.currentScript;
  var mermaidUrl = self && self.getAttribute("data-mermaid");
  var katexMacros = self && self.getAttribute("data-katex-macros");
  // Start loading mermaid this far before a diagram scrolls into view.
  var NEAR = "600px 0px";
  var MIN_SCALE = 0.6;

  function renderMath() {
    if (!window.katex) return;
    var elements = document.querySelectorAll(".math.inline, .math.display");
    Array.prototype.forEach.call(elements, function (element) {
      if (element.hasAttribute("data-math-rendered")) return;
      var tex = element.textContent;
      element.setAttribute("data-tex", tex);
      // throwOnError: false shows a bad formula in red (.katex-error) instead of stopping the page.
      window.katex.render(tex, element, {
        displayMode: element.classList.contains("display"),
        throwOnError: false,
        // A copy per formula: KaTeX writes \gdef definitions into the object it is given.
        macros: katexMacros ? JSON.parse(katexMacros) : {},
      });
      element.setAttribute("data-math-rendered", "");
    });
  }

  // ---- mermaid ------------------------------------------------------------------------------------

  var mermaidLoading = null;
  var mermaidModule = null;

  // A dynamic import: the entry is small and imports the chunks the page's diagrams need (with cdn_assets,
  // the page's import map gives each file its SRI hash).
  function loadMermaid() {
    if (mermaidModule) return Promise.resolve(mermaidModule);
    if (mermaidLoading) return mermaidLoading;
    mermaidLoading = import(mermaidUrl).then(function (module) {
      mermaidModule = module.default;
      return mermaidModule;
    });
    return mermaidLoading;
  }

  function initializeMermaid(mermaid) {
    var dark = root.getAttribute("data-theme") === "dark";
    mermaid.initialize({
      startOnLoad: false,
      // Dagre, the layout mermaid used before 12 (and Hugo sites' mermaid still uses): ELK, mermaid 12's
      // default, is a 1.6 MB chunk; a diagram that asks for it in its own config still gets it.
      layout: "dagre",
      theme: dark ? "dark" : "default",
      securityLevel: "strict",
      // The dark theme's default edge-label box leaves #ccc text at 4.4:1; a darker box passes WCAG AA.
      themeVariables: dark ? { edgeLabelBackground: "#1d1e20" } : {},
    });
  }

  // Diagrams are drawn one batch at a time, in order: mermaid.run is not safe to call concurrently.
  var drawing = Promise.resolve();

  function draw(blocks) {
    blocks.forEach(function (block) {
      // Keep the source: switching the color scheme draws the diagram again from it.
      if (!block.hasAttribute("data-source")) block.setAttribute("data-source", block.textContent);
    });
    drawing = drawing.then(function () {
      return loadMermaid().then(function (mermaid) {
        initializeMermaid(mermaid);
        return mermaid.run({ nodes: blocks });
      }).then(function () {
        blocks.forEach(addZoomButton);
        document.dispatchEvent(new CustomEvent("blogbuild:diagrams", { detail: { count: blocks.length } }));
      });
    }).catch(function (error) { console.error("mermaid:", error); });
    return drawing;
  }

  function allDiagramsDrawn() {
    var blocks = document.querySelectorAll("pre.mermaid");
    return Array.prototype.every.call(blocks, function (block) { return block.hasAttribute("data-processed"); });
  }

  function markWhenAllDrawn() {
    if (allDiagramsDrawn()) root.setAttribute("data-diagrams", "done");
  }

  // Resolves once the diagrams near the viewport at load are drawn; later ones draw as they come near.
  function watchDiagrams() {
    var blocks = Array.prototype.slice.call(document.querySelectorAll("pre.mermaid:not([data-processed])"));
    if (blocks.length === 0 || !mermaidUrl) {
      markWhenAllDrawn();
      return Promise.resolve();
    }
    if (!("IntersectionObserver" in window)) return draw(blocks).then(markWhenAllDrawn);
    return new Promise(function (resolve) {
      var first = true;
      var observer = new IntersectionObserver(function (entries) {
        var near = entries.filter(function (entry) { return entry.isIntersecting; })
          .map(function (entry) { return entry.target; });
        near.forEach(function (block) { observer.unobserve(block); });
        var done = near.length ? draw(near).then(markWhenAllDrawn) : Promise.resolve();
        // The observer's first call reports every block: those near the viewport decide "rendered".
        if (first) {
          first = false;
          done.then(resolve);
        }
      }, { rootMargin: NEAR });
      blocks.forEach(function (block) { observer.observe(block); });
    });
  }

  function redrawDiagrams() {
    var blocks = Array.prototype.slice.call(document.querySelectorAll("pre.mermaid[data-processed][data-source]"));
    if (!mermaidModule || blocks.length === 0) return;
    blocks.forEach(function (block) {
      block.removeAttribute("data-processed");
      block.textContent = block.getAttribute("data-source");
    });
    draw(blocks);
  }

  // ---- full screen, zoom and pan ------------------------------------------------------------------

  function addZoomButton(block) {
    var svg = block.querySelector("svg");
    var previous = block.previousElementSibling;
    if (!svg || (previous && previous.classList.contains("diagram-zoom"))) return;
    var natural = svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
    if (!(natural > block.clientWidth + 1)) return;
    block.classList.add("is-wide");
    // Shrunk to the column a very wide diagram would be unreadable: below 60% of its natural size it
    // keeps that size and scrolls sideways in its box (with the cue), and the button shows it whole.
    if (block.clientWidth < natural * MIN_SCALE) {
      svg.style.maxWidth = "none";
      svg.style.width = Math.round(natural * MIN_SCALE) + "px";
    }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "diagram-zoom";
    button.setAttribute("aria-label", WORDS.open);
    button.title = button.getAttribute("aria-label");
    button.textContent = "⤢";
    // Outside the diagram's box, so that it stays in place while the box scrolls sideways.
    button.addEventListener("click", function () { openViewer(block.querySelector("svg")); });
    block.parentNode.insertBefore(button, block);
  }

  function openViewer(svg) {
    var dialog = document.createElement("dialog");
    dialog.className = "diagram-viewer";
    dialog.setAttribute("aria-label", WORDS.diagram);
    var toolbar = document.createElement("div");
    toolbar.className = "diagram-viewer-tools";
    var stage = document.createElement("div");
    stage.className = "diagram-viewer-stage";
    var copy = svg.cloneNode(true);
    copy.removeAttribute("style");
    copy.removeAttribute("width");
    copy.removeAttribute("height");
    // A cloned SVG keeps its ids; the original's <style> targets them, so rename the copy's root id
    // only (its styles are scoped under it) to keep one element per id in the document.
    if (copy.id) {
      var oldId = copy.id;
      copy.id = oldId + "-zoomed";
      var style = copy.querySelector("style");
      if (style) style.textContent = style.textContent.split("#" + oldId).join("#" + copy.id);
    }
    stage.appendChild(copy);
    var state = { scale: 1, x: 0, y: 0 };
    function apply() {
      copy.style.transform = "translate(" + state.x + "px," + state.y + "px) scale(" + state.scale + ")";
    }
    function zoom(factor) {
      state.scale = Math.min(8, Math.max(0.25, state.scale * factor));
      apply();
    }
    [["+", WORDS.zoomIn, function () { zoom(1.25); }],
     ["−", WORDS.zoomOut, function () { zoom(0.8); }],
     ["1:1", WORDS.reset, function () { state = { scale: 1, x: 0, y: 0 }; apply(); }],
     ["×", WORDS.close, function () { dialog.close(); }]].forEach(function (spec) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = spec[0];
      button.setAttribute("aria-label", spec[1]);
      button.title = spec[1];
      button.addEventListener("click", spec[2]);
      toolbar.appendChild(button);
    });
    stage.addEventListener("wheel", function (event) {
      event.preventDefault();
      zoom(event.deltaY < 0 ? 1.1 : 1 / 1.1);
    }, { passive: false });
    var pointers = {};
    var pinch = 0;
    stage.addEventListener("pointerdown", function (event) {
      pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
      stage.setPointerCapture(event.pointerId);
    });
    stage.addEventListener("pointermove", function (event) {
      var last = pointers[event.pointerId];
      if (!last) return;
      var ids = Object.keys(pointers);
      if (ids.length === 2) {
        pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
        var a = pointers[ids[0]], b = pointers[ids[1]];
        var distance = Math.hypot(a.x - b.x, a.y - b.y);
        if (pinch) zoom(distance / pinch);
        pinch = distance;
        return;
      }
      state.x += event.clientX - last.x;
      state.y += event.clientY - last.y;
      pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
      apply();
    });
    function release(event) {
      delete pointers[event.pointerId];
      pinch = 0;
    }
    stage.addEventListener("pointerup", release);
    stage.addEventListener("pointercancel", release);
    dialog.addEventListener("close", function () { dialog.remove(); });
    dialog.appendChild(toolbar);
    dialog.appendChild(stage);
    document.body.appendChild(dialog);
    dialog.showModal();
  }

  // ---- start --------------------------------------------------------------------------------------

  // KaTeX's web fonts load after the formulas are laid out and change their widths; wait for them
  // so that listeners (scroll restore, scroll-box marking) see the final layout.
  function fontsReady() {
    if (!document.fonts || !document.fonts.ready) return Promise.resolve();
    return document.fonts.ready.catch(function () { return null; });
  }

  function finished() {
    root.setAttribute("data-rendered", "true");
    document.dispatchEvent(new CustomEvent("blogbuild:rendered"));
  }

  // Embeds (youtube, vimeo, gist, x, instagram shortcodes) load nothing from another host until the reader
  // clicks: then the box becomes the player's iframe (a gist's script runs inside an iframe of its own).
  function startEmbeds() {
    document.querySelectorAll(".embed").forEach(function (box) {
      var button = box.querySelector(".embed-load");
      if (!button) return;
      button.addEventListener("click", function () {
        var frame = document.createElement("iframe");
        frame.title = box.getAttribute("data-embed-title") || "";
        frame.setAttribute("allowfullscreen", "");
        frame.setAttribute("allow", "autoplay; encrypted-media; picture-in-picture; fullscreen");
        frame.setAttribute("referrerpolicy", "strict-origin-when-cross-origin");
        var script = box.getAttribute("data-embed-script");
        if (script) {
          var holder = document.createElement("div");
          holder.textContent = script;
          frame.srcdoc = '<base target="_blank"><script src="' + holder.innerHTML.replace(/"/g, "&quot;") +
            '"><\/script>';
        } else {
          frame.src = box.getAttribute("data-embed-src");
        }
        box.replaceChildren(frame);
        box.classList.add("embed-loaded");
      });
    });
  }

  function start() {
    startEmbeds();
    try {
      renderMath();
    } catch (error) {
      console.error("katex:", error);
    }
    var diagrams;
    try {
      diagrams = watchDiagrams();
    } catch (error) {
      diagrams = Promise.reject(error);
    }
    diagrams
      .catch(function (error) { console.error("mermaid:", error); })
      .then(fontsReady)
      .then(finished);
    document.addEventListener("blogbuild:themechange", redrawDiagrams);
    // `blogbuild serve` put a new version of the content in place (reload.js): the diagrams it kept are
    // drawn already; the new or changed ones are drawn as they come near, like at load.
    document.addEventListener("blogbuild:content-replaced", function () {
      startEmbeds();
      try { renderMath(); } catch (error) { console.error("katex:", error); }
      watchDiagrams().catch(function (error) { console.error("mermaid:", error); });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
