"""What Hugo ships itself and a site uses without having it: the partials `google_analytics.html` and
`_funcs/get-page-images`, which a site's templates call by name (a site's or theme's partial of the same name
wins: runner.Runner.partial looks here last), and the RSS feed and robots.txt Hugo writes when no layout of the
site's renders them. Each gives what Hugo 0.168's gives, checked against the hugo binary
(tests/test_hugo_papermod.py, tests/test_hugo_feeds.py).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup

from .escape import go_string, html_text
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


_W3C = "2006-01-02T15:04:05-07:00"
ROBOTS_TXT = "User-agent: *\n"   # Hugo's robots.txt (enableRobotsTXT) when no layout writes one
_RFC822 = "Mon, 02 Jan 2006 15:04:05 -0700"


def rss_feed(page: Any) -> str:
    """Hugo's RSS 2.0 feed of a list page (the home page, a section, a taxonomy, a term), byte for byte: the
    home page's and a section's regular pages, a taxonomy's terms, a term's pages, in the list's order, up to
    services.rss.limit; the author (params.author: a name, or a map with name and email) as editor and
    webmaster; each item's summary XML-escaped."""
    from .functions import xml_escape
    site = page.Site
    pages = (site.RegularPages if page.IsHome else page.RegularPages) if page.IsHome or page.IsSection \
        else page.Pages
    limit = site.Config.Services.RSS.Limit
    pages = list(pages)[:limit] if limit >= 1 else list(pages)
    author = site.Params.get("author")
    email = str(author.get("email") or "") if isinstance(author, dict) else ""
    name = str((author.get("name") if isinstance(author, dict) else author) or "")
    editor = f"{email} ({name})" if email and name else email
    title, site_title = str(page.Title), str(site.Title)
    text = html_text   # html/template's escaping of text, as the feed's own template has it
    heading = site_title if title == site_title else (f"{title} on " if title else "") + site_title
    about = f"in {title} " if title != site_title and title else ""
    out = ['<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n'
           '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n\t<channel>\n',
           f"\t\t<title>{text(heading)}</title>\n\t\t<link>{text(page.Permalink)}</link>\n",
           f"\t\t<description>Recent content {text(about)}on {text(site_title)}</description>\n",
           f"\t\t<generator>Hugo</generator>\n\t\t<language>{text(site.Language.Locale)}</language>\n\t\t"]
    if email:
        out.append(f"\n\t\t\t<managingEditor>{text(editor)}</managingEditor>\n\t\t")
    out.append("\n\t\t")
    if email:
        out.append(f"\n\t\t\t<webMaster>{text(editor)}</webMaster>\n\t\t")
    out.append("\n\t\t")
    if site.Copyright:
        out.append(f"\n\t\t\t<copyright>{text(site.Copyright)}</copyright>\n\t\t")
    out.append("\n\t\t")
    if not page.Date.IsZero and pages:
        newest = max(pages, key=lambda item: item.Lastmod.value)
        out.append(f"\n\t\t\t<lastBuildDate>{newest.Lastmod.Format(_RFC822)}</lastBuildDate>\n\t\t")
    feed = page.OutputFormats.Get("rss")
    if feed is not None:
        out.append(f'\n\t\t\t<atom:link href="{feed.Permalink}" rel="self" type="{feed.MediaType}" />')
    for item in pages:
        out.append(f"\n\t\t\t<item>\n\t\t\t\t<title>{text(item.Title)}</title>\n"
                   f"\t\t\t\t<link>{text(item.Permalink)}</link>\n"
                   f"\t\t\t\t<pubDate>{item.PublishDate.Format(_RFC822)}</pubDate>"
                   + (f"<author>{text(editor)}</author>" if email else "")
                   + f"\n\t\t\t\t<guid>{text(item.Permalink)}</guid>\n"
                   f"\t\t\t\t<description>{xml_escape(item.Summary)}</description>\n\t\t\t</item>")
    out.append("\n\t</channel>\n</rss>\n")
    return "".join(out)


def sitemap_xml(site: Any) -> str:
    """Hugo's sitemap.xml, byte for byte: every page in Hugo's default order but those whose `sitemap` says
    disable, each with its lastmod, change frequency and priority (its front matter's, else the site's)."""
    import html
    out = ['<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n<urlset '
           'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"\n  xmlns:xhtml="http://www.w3.org/1999/xhtml">\n  ']
    for page in site.every_page():
        settings = page.Sitemap
        if settings.Disable:
            continue
        out.append(f"<url>\n    <loc>{html.escape(page.Permalink, quote=False)}</loc>")
        if not page.Lastmod.IsZero:
            out.append(f"\n    <lastmod>{page.Lastmod.Format(_W3C)}</lastmod>")
        if settings.ChangeFreq:
            out.append(f"\n    <changefreq>{html_text(settings.ChangeFreq)}</changefreq>")
        if settings.Priority >= 0:
            out.append(f"\n    <priority>{go_string(settings.Priority)}</priority>")
        out.append("\n  </url>")
    out.append("\n</urlset>\n")
    return "".join(out)
