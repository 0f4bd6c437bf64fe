// The comment widget (giscus or utterances): its script is added only when the placeholder comes within
// a screen of the viewport, with the page's current theme; later theme switches are sent to its iframe.
(function () {
  "use strict";
  var frame = document.querySelector(".comments-frame[data-script]");
  if (!frame) {
    return;
  }
  function currentTheme() {
    var dark = document.documentElement.getAttribute("data-theme") === "dark";
    return frame.getAttribute(dark ? "data-theme-dark" : "data-theme-light");
  }
  function load() {
    var script = document.createElement("script");
    var attributes = JSON.parse(frame.getAttribute("data-attributes") || "{}");
    Object.keys(attributes).forEach(function (name) {
      script.setAttribute(name, attributes[name]);
    });
    script.setAttribute(frame.getAttribute("data-theme-attribute"), currentTheme());
    script.src = frame.getAttribute("data-script");
    script.async = true;
    script.crossOrigin = "anonymous";
    frame.appendChild(script);
    frame.setAttribute("data-loaded", "true");
  }
  if ("IntersectionObserver" in window) {
    var observer = new IntersectionObserver(function (entries) {
      if (entries.some(function (entry) { return entry.isIntersecting; })) {
        observer.disconnect();
        load();
      }
    }, { rootMargin: "0px 0px 100% 0px" });
    observer.observe(frame);
  } else {
    load();
  }
  new MutationObserver(function () {
    var widget = frame.querySelector("iframe");
    if (!widget || !widget.contentWindow) {
      return;
    }
    var theme = currentTheme();
    var message = frame.getAttribute("data-comments") === "giscus"
      ? { giscus: { setConfig: { theme: theme } } }
      : { type: "set-theme", theme: theme };
    widget.contentWindow.postMessage(message, frame.getAttribute("data-origin"));
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
})();
