"""Partials Hugo ships itself, which a site's templates call by name without having them: `google_analytics.html`
and `_funcs/get-page-images`. A site's or theme's partial of the same name wins (runner.Runner.partial looks
here last). Each gives what Hugo 0.168's gives, checked against the hugo binary (tests/test_hugo_papermod.py).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup

from .objects import site_config

# Hugo's Google Analytics 4 tag (services.googleAnalytics.ID, a G- id; Hugo writes nothing for a UA- one and
# nothing while serving), with its respectDoNotTrack test on.
_GTAG = """
      <script async src="https://www.googletagmanager.com/gtag/js?id={id}"></script>
      <script>
        var doNotTrack = false;
        if ( true ) {{
          var dnt = (navigator.doNotTrack || window.doNotTrack || navigator.msDoNotTrack);
          var doNotTrack = (dnt == "1" || dnt == "yes");
        }}
        if (!doNotTrack) {{
          window.dataLayer = window.dataLayer || [];
          function gtag(){{dataLayer.push(arguments);}}
          gtag('js', new Date());
          gtag('config', '{id}');
        }}
      </script>"""


def _site_of(dot: Any, runner: Any) -> Any:
    return getattr(dot, "_site", None) or runner.templates.site


def google_analytics(dot: Any, runner: Any) -> Any:
    config = site_config(_site_of(dot, runner))
    analytics = getattr(config, "analytics", None)
    google_id = str(getattr(analytics, "google_id", "") or "")
    if not google_id.startswith("G-") or getattr(config, "serving", False):
        return Markup("")
    return Markup(_GTAG.format(id=google_id))


def page_images(dot: Any, runner: Any) -> list[dict[str, Any]]:
    """The images a page is shared with: its `images` param, else its bundle's *feature* image (or *cover*,
    *thumbnail*), else the site's first `images`; each as {Image, RelPermalink, Permalink}."""
    site = _site_of(dot, runner)
    config = site_config(site)
    params = getattr(dot, "Params", None) or {}
    wanted = params.get("images") if isinstance(params, dict) else None
    wanted = [wanted] if isinstance(wanted, str) else list(wanted or [])
    try:
        resources = dot.Resources.ByType("image")
    except Exception:  # noqa: BLE001 - a page without a bundle has no resources
        resources = None
    found: list[dict[str, Any]] = []
    if not wanted and resources is not None:
        featured = resources.GetMatch("*feature*") or resources.GetMatch("{*cover*,*thumbnail*}")
        if featured:
            found.append({"Image": featured, "RelPermalink": featured.RelPermalink, "Permalink": featured.Permalink})
    if not wanted and not found:
        site_images = getattr(site, "Params", {}).get("images") if isinstance(getattr(site, "Params", None), dict) \
            else None
        wanted = ([site_images] if isinstance(site_images, str) else list(site_images or []))[:1]
    for image in wanted:
        image = str(image)
        if urlsplit(image).scheme:
            found.append({"RelPermalink": image, "Permalink": image})
            continue
        resource = resources.GetMatch(image) if resources is not None else None
        if resource:
            found.append({"Image": resource, "RelPermalink": resource.RelPermalink, "Permalink": resource.Permalink})
        elif config is not None:
            found.append({"RelPermalink": config.site_url(image), "Permalink": config.absolute_url(image)})
        else:
            found.append({"RelPermalink": image, "Permalink": image})
    return found


# By the partial's key (its name with .html), what renders it: f(dot, runner) -> HTML or a returned value.
EMBEDDED_PARTIALS: dict[str, Callable[[Any, Any], Any]] = {
    "google_analytics.html": google_analytics,
    "_funcs/get-page-images.html": page_images,
}
