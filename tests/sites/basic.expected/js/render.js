/* blogbuild default theme: render math (KaTeX) and diagrams (mermaid) in the browser.
   The build leaves the TeX in <span class="math inline"> / <div class="math display"> and the
   diagram source in <pre class="mermaid">, so a page without JavaScript still shows the source.
   base.html loads KaTeX and mermaid only on pages that need them and always loads this file.
   When everything is drawn, `blogbuild:rendered` is dispatched on document and
   <html data-rendered="true"> is set (live reload restores the scroll position on it; tests wait for it). */
(function () {
  "use strict";

  var root = document.documentElement;

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
      });
      element.setAttribute("data-math-rendered", "");
    });
  }

  function mermaidTheme() {
    return root.getAttribute("data-theme") === "dark" ? "dark" : "default";
  }

  function renderDiagrams() {
    var blocks = document.querySelectorAll("pre.mermaid");
    if (!window.mermaid || blocks.length === 0) return Promise.resolve();
    Array.prototype.forEach.call(blocks, function (block) {
      // Keep the source: switching the color scheme draws the diagram again from it.
      if (!block.hasAttribute("data-source")) block.setAttribute("data-source", block.textContent);
    });
    var dark = mermaidTheme() === "dark";
    window.mermaid.initialize({
      startOnLoad: false,
      theme: mermaidTheme(),
      securityLevel: "strict",
      // The dark theme's default edge-label box leaves #ccc text at 4.4:1; a darker box passes WCAG AA.
      themeVariables: dark ? { edgeLabelBackground: "#1d1e20" } : {},
    });
    return window.mermaid.run({ querySelector: "pre.mermaid" });
  }

  function redrawDiagrams() {
    var blocks = document.querySelectorAll("pre.mermaid[data-source]");
    if (!window.mermaid || blocks.length === 0) return;
    Array.prototype.forEach.call(blocks, function (block) {
      block.removeAttribute("data-processed");
      block.textContent = block.getAttribute("data-source");
    });
    renderDiagrams().catch(function (error) { console.error("mermaid:", error); });
  }

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

  function start() {
    try {
      renderMath();
    } catch (error) {
      console.error("katex:", error);
    }
    var diagrams;
    try {
      diagrams = renderDiagrams();
    } catch (error) {
      diagrams = Promise.reject(error);
    }
    diagrams
      .catch(function (error) { console.error("mermaid:", error); })
      .then(fontsReady)
      .then(finished);
    document.addEventListener("blogbuild:themechange", redrawDiagrams);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
