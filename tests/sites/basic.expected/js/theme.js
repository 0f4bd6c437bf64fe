/* blogbuild default theme: color scheme toggle, copy buttons, copy-link, back-to-top, menus.
   No dependencies, no build step. The color scheme itself is set before paint by an inline
   script in base.html; this file only handles changes. */
(function () {
  "use strict";

  var root = document.documentElement;
  var chinese = /^zh/i.test(root.lang || "");
  var words = chinese
    ? { copy: "复制", copied: "已复制", copyCode: "复制代码", failed: "复制失败", linkCopied: "链接已复制" }
    : { copy: "Copy", copied: "Copied", copyCode: "Copy code", failed: "Copy failed", linkCopied: "Link copied" };
  var STORAGE_KEY = "blogbuild-theme";
  // data-copy-code="off" on this script: the site turned code copy buttons off (PaperMod's ShowCodeCopyButtons).
  var script = document.currentScript;
  var copyButtons = !(script && script.getAttribute("data-copy-code") === "off");

  function storedTheme() {
    try { return localStorage.getItem(STORAGE_KEY); } catch (error) { return null; }
  }

  function applyTheme(theme, remember) {
    root.setAttribute("data-theme", theme);
    root.style.colorScheme = theme;
    if (remember) {
      try { localStorage.setItem(STORAGE_KEY, theme); } catch (error) { /* private mode: not remembered */ }
    }
    var toggle = document.getElementById("theme-toggle");
    if (toggle) toggle.setAttribute("aria-pressed", theme === "dark" ? "true" : "false");
    // render.js listens to re-draw diagrams in the new colors.
    document.dispatchEvent(new CustomEvent("blogbuild:themechange", { detail: { theme: theme } }));
  }

  function setUpThemeToggle() {
    var toggle = document.getElementById("theme-toggle");
    if (toggle) {
      toggle.setAttribute("aria-pressed", root.getAttribute("data-theme") === "dark" ? "true" : "false");
      toggle.addEventListener("click", function () {
        applyTheme(root.getAttribute("data-theme") === "dark" ? "light" : "dark", true);
      });
    }
    // Follow the system while the reader has not chosen, unless the site fixes a default scheme.
    if (window.matchMedia && !root.hasAttribute("data-default-theme")) {
      var query = window.matchMedia("(prefers-color-scheme: dark)");
      var follow = function (event) {
        var stored = storedTheme();
        if (stored !== "light" && stored !== "dark") applyTheme(event.matches ? "dark" : "light", false);
      };
      if (query.addEventListener) query.addEventListener("change", follow);
    }
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    // Plain http (a LAN preview): the old selection-based copy still works.
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var done = false;
      try { done = document.execCommand("copy"); } catch (error) { done = false; }
      document.body.removeChild(area);
      if (done) resolve(); else reject(new Error("copy failed"));
    });
  }

  function flash(button, text) {
    var label = button.querySelector(".copy-label");
    var target = label || button;
    var before = target.textContent;
    target.textContent = text;
    button.classList.add("copied");
    window.setTimeout(function () {
      target.textContent = before;
      button.classList.remove("copied");
    }, 1600);
  }

  function setUpCopyButtons() {
    var blocks = document.querySelectorAll(".post-content .highlight, .post-content pre:not(.mermaid)");
    Array.prototype.forEach.call(blocks, function (block) {
      // A <pre> inside .highlight is handled with its wrapper.
      if (block.tagName === "PRE" && block.closest(".highlight")) return;
      if (block.querySelector(":scope > .copy-code")) return;
      var code = block.querySelector("code") || block.querySelector("pre") || block;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy-code";
      button.setAttribute("aria-label", words.copyCode);
      var label = document.createElement("span");
      label.className = "copy-label";
      label.textContent = words.copy;
      button.appendChild(label);
      button.addEventListener("click", function () {
        copyText(code.textContent.replace(/\n$/, "")).then(
          function () { flash(button, words.copied); },
          function () { flash(button, words.failed); });
      });
      block.classList.add("has-copy");
      block.appendChild(button);
    });
  }

  function setUpCopyLink() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-copy-url]"), function (button) {
      button.addEventListener("click", function () {
        copyText(button.getAttribute("data-copy-url")).then(
          function () { button.setAttribute("title", words.linkCopied); button.classList.add("copied"); },
          function () { button.setAttribute("title", words.failed); });
      });
    });
  }

  function setUpBackToTop() {
    var link = document.querySelector(".back-to-top");
    if (!link) return;
    var update = function () {
      link.classList.toggle("shown", window.scrollY > 400);
    };
    window.addEventListener("scroll", update, { passive: true });
    update();
  }

  function setUpMenus() {
    // One dropdown open at a time; a click elsewhere or Escape closes it.
    var menus = document.querySelectorAll(".menu-dropdown");
    Array.prototype.forEach.call(menus, function (menu) {
      menu.addEventListener("toggle", function () {
        if (!menu.open) return;
        // Not the dropdowns this one is nested in: closing those would hide it again.
        Array.prototype.forEach.call(menus, function (other) {
          if (other !== menu && !other.contains(menu)) other.open = false;
        });
      });
    });
    document.addEventListener("click", function (event) {
      Array.prototype.forEach.call(menus, function (menu) {
        if (menu.open && !menu.contains(event.target)) menu.open = false;
      });
    });
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape") return;
      Array.prototype.forEach.call(menus, function (menu) {
        if (menu.open) { menu.open = false; menu.querySelector("summary").focus(); }
      });
    });
  }

  // Code blocks, tables, display math and an inline formula's unbreakable part scroll sideways on narrow screens; a scrolling box
  // must be reachable by keyboard, so it gets tabindex=0 while (and only while) it overflows.
  // The same mark drives the visible cue (style.css fades the right edge until data-scroll-end).
  function markScrollEnd(box) {
    var atEnd = box.scrollLeft + box.clientWidth >= box.scrollWidth - 2;
    if (atEnd) box.setAttribute("data-scroll-end", "");
    else box.removeAttribute("data-scroll-end");
  }

  function markScrollable() {
    var boxes = document.querySelectorAll(".post-content pre, .post-content table, .post-content .math.display, " +
                                          ".post-content pre.mermaid, .math.inline .katex-base");
    Array.prototype.forEach.call(boxes, function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("data-scroll-focus", "");
      } else if (!scrolls && box.hasAttribute("data-scroll-focus")) {
        box.removeAttribute("tabindex");
        box.removeAttribute("data-scroll-focus");
      }
      if (scrolls && !box.hasAttribute("data-scroll-watched")) {
        box.setAttribute("data-scroll-watched", "");
        box.addEventListener("scroll", function () { markScrollEnd(box); }, { passive: true });
      }
      markScrollEnd(box);
    });
  }

  // The table of contents marks the section being read: the last heading above a line near the top.
  var tocEntries = [];

  // The TOC's links and their headings, collected again when live reload replaces the page's content.
  function collectTocEntries() {
    tocEntries = [];
    Array.prototype.forEach.call(document.querySelectorAll(".toc a[href^='#']"), function (link) {
      var target = document.getElementById(decodeURIComponent(link.getAttribute("href").slice(1)));
      if (target) tocEntries.push({ link: link, heading: target });
    });
  }

  function setUpTocSpy() {
    collectTocEntries();
    if (tocEntries.length === 0) return;
    var current = null;
    var pending = false;
    function update() {
      var entries = tocEntries;
      pending = false;
      var line = window.innerHeight * 0.25;
      var found = entries.length && entries[0].heading.getBoundingClientRect().top <= line ? entries[0] : null;
      for (var index = 0; index < entries.length; index++) {
        if (entries[index].heading.getBoundingClientRect().top <= line) found = entries[index];
        else break;
      }
      if (found === current) return;
      if (current) current.link.removeAttribute("aria-current");
      if (found) found.link.setAttribute("aria-current", "true");
      current = found;
    }
    window.addEventListener("scroll", function () {
      if (!pending) { pending = true; window.requestAnimationFrame(update); }
    }, { passive: true });
    document.addEventListener("blogbuild:rendered", update);
    document.addEventListener("blogbuild:content-replaced", function () { current = null; update(); });
    update();
  }

  function start() {
    setUpThemeToggle();
    if (copyButtons) setUpCopyButtons();
    setUpCopyLink();
    setUpBackToTop();
    setUpMenus();
    setUpTocSpy();
    markScrollable();
    // Math and diagrams change widths when they render.
    document.addEventListener("blogbuild:rendered", markScrollable);
    document.addEventListener("blogbuild:diagrams", markScrollable);   // diagrams drawn as they scroll near
    window.addEventListener("load", markScrollable);
    // `blogbuild serve` put a new version of the content in place (reload.js): set up what is new in it.
    document.addEventListener("blogbuild:content-replaced", function () {
      if (copyButtons) setUpCopyButtons();
      setUpCopyLink();
      collectTocEntries();
      markScrollable();
    });
    var resizeTimer = 0;
    window.addEventListener("resize", function () {
      window.clearTimeout(resizeTimer);
      resizeTimer = window.setTimeout(markScrollable, 150);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
