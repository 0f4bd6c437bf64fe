// Live reload for `blogbuild serve`. The server injects this script into the HTML it serves, never into
// built files. It listens on /__blogbuild/events (Server-Sent Events):
//   reload {generation, pages, assets, all}  this page changed: its new <main> is put in place (the reader's
//                                            place, drawn diagrams and typeset math kept); a shared asset,
//                                            everything, or a change outside <main>: a full reload
//   css    {generation, stylesheets}         swap the stylesheets, no reload
//   error  {errors: [{path, line, stage, message, text, excerpt}]}   show the overlay
//   ok     {generation}                      remove the overlay (the status then names the saved file's warnings)
// Before a reload it remembers the nearest heading above the viewport, and after the reload it scrolls
// back there once the theme says math and diagrams are rendered (`blogbuild:rendered`), because KaTeX
// and mermaid change the page height after load.
(function () {
  "use strict";
  var script = document.currentScript;
  var generation = Number((script && script.getAttribute("data-generation")) || 0);
  var SCROLL_KEY = "blogbuild:scroll";
  var OVERLAY_ID = "blogbuild-error-overlay";

  function normalize(path) {
    try { path = decodeURI(path); } catch (error) { /* keep it as it is */ }
    return path.replace(/\/index\.html$/, "/");
  }
  var here = normalize(location.pathname);
  var servedPage = normalize((script && script.getAttribute("data-page")) || "");

  function isThisPage(pages) {
    for (var i = 0; i < pages.length; i++) {
      var page = normalize(pages[i]);
      if (page === here || (servedPage && page === servedPage)) { return true; }
    }
    return false;
  }

  // ---- scroll position -------------------------------------------------------------------------
  function saveScroll() {
    var headings = document.querySelectorAll("h1[id], h2[id], h3[id], h4[id], h5[id], h6[id]");
    var nearest = null;
    for (var i = 0; i < headings.length; i++) {
      if (headings[i].getBoundingClientRect().top <= 1) { nearest = headings[i]; } else { break; }
    }
    var state = { path: location.pathname, scrollY: window.scrollY };
    if (nearest) {
      state.id = nearest.id;
      state.offset = -nearest.getBoundingClientRect().top;
    }
    try { sessionStorage.setItem(SCROLL_KEY, JSON.stringify(state)); } catch (error) { /* private mode */ }
  }

  function restoreScroll() {
    var state = null;
    try { state = JSON.parse(sessionStorage.getItem(SCROLL_KEY) || "null"); } catch (error) { state = null; }
    if (!state || state.path !== location.pathname) { return; }
    if ("scrollRestoration" in history) { history.scrollRestoration = "manual"; }
    var userScrolled = false;
    function apply() {
      if (userScrolled) { return; }
      var target = state.id ? document.getElementById(state.id) : null;
      var y = target ? target.getBoundingClientRect().top + window.scrollY + (state.offset || 0) : state.scrollY;
      window.scrollTo(0, Math.max(0, y));
    }
    function finish() {
      apply();
      try { sessionStorage.removeItem(SCROLL_KEY); } catch (error) { /* ignore */ }
    }
    // The reader's own scrolling wins over a late restore.
    window.addEventListener("wheel", function () { userScrolled = true; }, { once: true, passive: true });
    window.addEventListener("keydown", function () { userScrolled = true; }, { once: true });
    window.addEventListener("touchstart", function () { userScrolled = true; }, { once: true, passive: true });
    document.addEventListener("blogbuild:rendered", finish, { once: true });
    // Themes without math or diagrams may never say `rendered`: fall back to load plus a moment.
    function fallback() { setTimeout(apply, 300); setTimeout(finish, 3000); }
    if (document.readyState === "complete") { fallback(); } else { window.addEventListener("load", fallback, { once: true }); }
  }

  function reload() {
    saveScroll();
    location.reload();
  }

  // ---- the new content in place ------------------------------------------------------------------
  // What must be equal for an in-place update: the stylesheets and scripts, the header and the footer.
  function frame(doc) {
    var parts = [];
    doc.querySelectorAll("link[rel~='stylesheet'], script[src]").forEach(function (node) {
      var url = node.getAttribute("href") || node.getAttribute("src") || "";
      if (url.indexOf("/__blogbuild/") < 0) { parts.push(url.replace(/[?&]blogbuild=\d+/, "")); }
    });
    ["header.site-header", "footer.site-footer"].forEach(function (selector) {
      var node = doc.querySelector(selector);
      parts.push(node ? node.outerHTML : "");
    });
    return parts.join("\n");
  }

  // Taken now, as the server sent it: this script runs at the end of <body>, before the theme's deferred
  // scripts change the header (menus, the theme toggle).
  var servedFrame = frame(document);

  function nearestHeading() {
    var headings = document.querySelectorAll("#main h1[id], #main h2[id], #main h3[id], #main h4[id], #main h5[id], #main h6[id]");
    var nearest = null;
    for (var i = 0; i < headings.length; i++) {
      if (headings[i].getBoundingClientRect().top <= 1) { nearest = headings[i]; } else { break; }
    }
    return nearest ? { id: nearest.id, top: nearest.getBoundingClientRect().top } : null;
  }

  // Fetch this page as the server now has it and swap its <main> in: the text changes where the reader
  // is, nothing jumps, and a diagram whose source did not change keeps its drawing. Anything else
  // (the frame changed, a fetch failed) falls back to a full reload.
  function updateInPlace(newGeneration) {
    var scrollY = window.scrollY;
    var anchor = nearestHeading();
    return fetch(location.pathname + location.search, { cache: "no-store" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, "text/html");
        var fresh = next.getElementById("main");
        var old = document.getElementById("main");
        var nextFrame = frame(next);
        if (!fresh || !old || nextFrame !== servedFrame) { throw new Error("the page's frame changed"); }
        // A script in the content (comments, an embed's own) would not run when put in place: reload.
        var runnable = Array.prototype.some.call(fresh.querySelectorAll("script"), function (node) {
          var type = (node.getAttribute("type") || "").toLowerCase();
          return !type || type === "module" || type.indexOf("javascript") >= 0 || type.indexOf("ecmascript") >= 0;
        });
        if (runnable) { throw new Error("the content holds a script"); }
        var drawn = {};
        old.querySelectorAll("pre.mermaid[data-processed][data-source]").forEach(function (block) {
          var source = block.getAttribute("data-source");
          (drawn[source] = drawn[source] || []).push(block);
        });
        fresh.querySelectorAll("pre.mermaid").forEach(function (block) {
          var kept = drawn[block.textContent];
          if (kept && kept.length) { block.replaceWith(kept.shift()); }
        });
        var adopted = document.adoptNode(fresh);
        old.replaceWith(adopted);
        document.title = next.title;
        // The same heading at the same height, else the same scroll offset.
        var target = anchor ? document.getElementById(anchor.id) : null;
        window.scrollTo(0, target ? target.getBoundingClientRect().top + window.scrollY - anchor.top : scrollY);
        generation = newGeneration;
        servedFrame = nextFrame;
        document.dispatchEvent(new CustomEvent("blogbuild:content-replaced"));
      })
      .catch(function () { reload(); });
  }

  // ---- stylesheets -------------------------------------------------------------------------------
  function swapStylesheets(stylesheets, stamp) {
    var wanted = stylesheets.map(normalize);
    var links = document.querySelectorAll('link[rel~="stylesheet"]');
    for (var i = 0; i < links.length; i++) {
      var url;
      try { url = new URL(links[i].href, location.href); } catch (error) { continue; }
      if (url.origin !== location.origin) { continue; }
      if (wanted.length && wanted.indexOf(normalize(url.pathname)) < 0) { continue; }
      url.searchParams.set("blogbuild", String(stamp));
      links[i].href = url.pathname + url.search;
    }
  }

  // ---- error overlay -----------------------------------------------------------------------------
  function removeOverlay() {
    var overlay = document.getElementById(OVERLAY_ID);
    if (overlay) { overlay.parentNode.removeChild(overlay); }
  }

  function element(tag, text, style) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    if (style) { node.setAttribute("style", style); }
    return node;
  }

  function showOverlay(errors) {
    removeOverlay();
    var overlay = element("div", null,
      "position:fixed;top:0;left:0;right:0;z-index:2147483647;max-height:70vh;overflow:auto;" +
      "background:#2b0a0a;color:#ffe9e9;border-bottom:4px solid #ff5555;padding:1rem 1.25rem;" +
      "font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;box-shadow:0 4px 24px rgba(0,0,0,.5);" +
      "text-align:left;white-space:normal");
    overlay.id = OVERLAY_ID;
    overlay.setAttribute("role", "alert");
    var close = element("button", "\u00d7",
      "float:right;font-size:20px;line-height:1;background:none;color:inherit;border:1px solid #ff9999;" +
      "border-radius:4px;padding:2px 9px;cursor:pointer");
    close.type = "button";
    close.setAttribute("aria-label", "Dismiss build error");
    close.addEventListener("click", removeOverlay);
    overlay.appendChild(close);
    overlay.appendChild(element("strong", "blogbuild: the last build failed \u2014 showing the last good pages",
      "display:block;margin-bottom:.5rem;color:#ff9999"));
    (errors || []).forEach(function (error) {
      var block = element("section", null, "margin:.75rem 0");
      var where = error.path ? error.path + (error.line ? ":" + error.line : "") : "";
      if (where) {
        var location = element("div", where, "font-weight:bold;color:#ffd479");
        location.className = "blogbuild-error-location";
        block.appendChild(location);
      }
      var message = element("div", (error.stage ? error.stage + ": " : "") + (error.message || error.text || ""));
      message.className = "blogbuild-error-message";
      block.appendChild(message);
      if (error.excerpt && error.excerpt.length) {
        var pre = element("pre", null,
          "margin:.5rem 0 0;padding:.5rem;background:#1a0505;overflow:auto;color:#ffe9e9");
        error.excerpt.forEach(function (row) {
          var marked = row.line === error.line;
          var line = element("div", (marked ? "> " : "  ") + String(row.line).padStart(4, " ") + " | " + row.text,
            marked ? "background:#5c1616" : null);
          pre.appendChild(line);
        });
        block.appendChild(pre);
      }
      overlay.appendChild(block);
    });
    (document.body || document.documentElement).appendChild(overlay);
  }

  // ---- warnings of the file just saved ---------------------------------------------------------------
  // A dismissible panel at the bottom: the last rebuild's warnings about the files saved for it (the
  // server's status carries them), dismissed for that generation only.
  var WARNINGS_ID = "blogbuild-warning-panel";
  var DISMISSED_KEY = "blogbuild-warnings-dismissed";

  function removeWarnings() {
    var panel = document.getElementById(WARNINGS_ID);
    if (panel) { panel.parentNode.removeChild(panel); }
  }

  function showWarnings(warnings, generation) {
    removeWarnings();
    var dismissed = null;
    try { dismissed = sessionStorage.getItem(DISMISSED_KEY); } catch (error) { /* private mode */ }
    if (!warnings || !warnings.length || dismissed === String(generation)) { return; }
    var panel = element("div", null,
      "position:fixed;bottom:0;left:0;right:0;z-index:2147483646;max-height:40vh;overflow:auto;" +
      "background:#2b2205;color:#fff6d6;border-top:4px solid #e0b000;padding:.75rem 1.25rem;" +
      "font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;text-align:left");
    panel.id = WARNINGS_ID;
    panel.setAttribute("role", "status");
    var close = element("button", "\u00d7",
      "float:right;font-size:18px;line-height:1;background:none;color:inherit;border:1px solid #e0b000;" +
      "border-radius:4px;padding:2px 8px;cursor:pointer");
    close.type = "button";
    close.setAttribute("aria-label", "Dismiss these warnings");
    close.addEventListener("click", function () {
      try { sessionStorage.setItem(DISMISSED_KEY, String(generation)); } catch (error) { /* private mode */ }
      removeWarnings();
    });
    panel.appendChild(close);
    panel.appendChild(element("strong", "blogbuild: " + warnings.length + " warning" +
      (warnings.length === 1 ? "" : "s") + " in the file you saved", "display:block;color:#ffd479"));
    warnings.forEach(function (warning) {
      var row = element("div", null, "margin:.25rem 0");
      row.className = "blogbuild-warning";
      row.appendChild(element("span", warning.path + (warning.line ? ":" + warning.line : "") + ": ",
        "font-weight:bold;color:#ffd479"));
      row.appendChild(element("span", warning.message));
      panel.appendChild(row);
    });
    (document.body || document.documentElement).appendChild(panel);
  }

  // ---- server state ------------------------------------------------------------------------------
  // catchUp: after (re)connecting, a page older than the server's reloads; after "ok" the "reload" event
  // that follows says what to do with this page.
  // A status answer can arrive after a later build's "error" or "ok" event: it then says nothing newer about
  // the overlay than that event did, and must not undo it (a stale "ok" would hide a fresh error).
  var buildEvents = 0;

  function checkStatus(catchUp) {
    var page = servedPage || here;
    var asked = buildEvents;
    fetch("/__blogbuild/status?page=" + encodeURIComponent(page), { cache: "no-store" })
      .then(function (response) { return response.json(); })
      .then(function (status) {
        if (asked === buildEvents) {
          if (status.ok) { removeOverlay(); showWarnings(status.warnings, status.generation); }
          else { showOverlay(status.errors); }
        }
        // A rebuild may have happened between serving this page and connecting: catch up.
        var newer = status.page_generation !== null && status.page_generation > generation;
        if (catchUp && (newer || (generation === 0 && status.generation > 0))) { reload(); }
      })
      .catch(function () { /* the server is restarting; the event stream reconnects */ });
  }

  function parse(event) {
    try { return JSON.parse(event.data); } catch (error) { return {}; }
  }

  function connect() {
    if (!window.EventSource) { return; }
    var source = new EventSource("/__blogbuild/events");
    source.addEventListener("open", function () { checkStatus(true); });
    source.addEventListener("reload", function (event) {
      var data = parse(event);
      if (data.all || generation === 0 || (data.assets || []).length) {
        reload();
      } else if (isThisPage(data.pages || [])) {
        updateInPlace(data.generation || generation);
      }
    });
    source.addEventListener("css", function (event) {
      var data = parse(event);
      swapStylesheets(data.stylesheets || [], data.generation || Date.now());
    });
    source.addEventListener("error", function (event) {
      // The EventSource's own connection errors arrive as "error" events without data.
      if (event.data) { buildEvents += 1; showOverlay(parse(event).errors); }
    });
    source.addEventListener("ok", function () { buildEvents += 1; removeOverlay(); checkStatus(false); });
    window.addEventListener("pagehide", function () { source.close(); });
  }

  restoreScroll();
  connect();
})();
