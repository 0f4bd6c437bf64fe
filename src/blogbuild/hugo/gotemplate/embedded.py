"""What Hugo ships itself and a site uses without having it: the partials `google_analytics.html`,
`disqus.html`, `opengraph.html`, `twitter_cards.html`, `schema.html` and `_funcs/get-page-images`, which a site's templates call by name (a site's or theme's partial of the same name
wins: runner.Runner.partial looks here last), and the RSS feed and robots.txt Hugo writes when no layout of the
site's renders them. Each gives what Hugo 0.168's gives, checked against the hugo binary
(tests/test_hugo_papermod.py, tests/test_hugo_feeds.py).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup

from .goat import GoatSVG
from .escape import attribute, go_string, html_text, js_string, js_value
from .objects import UnsupportedField, site_config, truthy
from .translations import abs_url, rel_url

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


# Hugo's Disqus embed (services.disqus.shortname), each of the page's disqus_identifier, disqus_title and
# disqus_url params set in its config function; nothing when privacy.disqus.disable is true.
_DISQUS = """<div id="disqus_thread"></div>
<script>
    window.disqus_config = function () {{
    {identifier}
    {title}
    {url}
    }};
    (function() {{
        if (["localhost", "127.0.0.1"].indexOf(window.location.hostname) != -1) {{
            document.getElementById('disqus_thread').innerHTML = 'Disqus comments not available by default when the website is previewed locally.';
            return;
        }}
        var d = document, s = d.createElement('script'); s.async = true;
        s.src = '//' + {shortname} + '.disqus.com/embed.js';
        s.setAttribute('data-timestamp', +new Date());
        (d.head || d.body).appendChild(s);
    }})();
</script>
\t\t<noscript>Please enable JavaScript to view the <a href="https://disqus.com/?ref_noscript">comments powered by Disqus.</a></noscript>
\t\t<a href="https://disqus.com" class="dsq-brlink">comments powered by <span class="logo-disqus">Disqus</span></a>
\t"""


def disqus(dot: Any, runner: Any) -> Markup:
    """Hugo's disqus.html: the Disqus thread and its loader, when the site has a shortname."""
    config = site_config(_site_of(dot, runner))
    shortname = str(getattr(config, "hugo_disqus_shortname", "") or "")
    disabled = (getattr(config, "hugo_privacy", None) or {})
    settings = {str(key).lower(): value for key, value in disabled.items()}.get("disqus")
    if not shortname or (isinstance(settings, dict)
                         and {str(key).lower(): value for key, value in settings.items()}.get("disable") is True):
        return Markup("")
    params = getattr(dot, "Params", None) or {}

    def setting(name: str, field: str) -> str:
        value = params.get(name) if hasattr(params, "get") else None
        return f"this.page.{field} = '{js_string(value)}';" if truthy(value) else ""
    return Markup(_DISQUS.format(identifier=setting("disqus_identifier", "identifier"),
                                 title=setting("disqus_title", "title"), url=setting("disqus_url", "url"),
                                 shortname=js_value(shortname)))


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
        resource = (resources.GetMatch(image) if resources is not None else None) or _global_image(image)
        if resource:
            found.append({"Image": resource, "RelPermalink": resource.RelPermalink, "Permalink": resource.Permalink})
        elif hasattr(site, "abs_url"):   # relURL and absURL: a leading slash is the host's root
            found.append({"RelPermalink": rel_url(site, image), "Permalink": abs_url(site, image)})
        elif config is not None:
            found.append({"RelPermalink": config.site_url(image), "Permalink": config.absolute_url(image)})
        else:
            found.append({"RelPermalink": image, "Permalink": image})
    return found


def _global_image(pattern: str) -> Any:
    """resources.GetMatch of the assets folders, None outside a page layout's render (a shortcode's)."""
    from .pipes import PIPES_NAMESPACES
    try:
        return PIPES_NAMESPACES["resources"].GetMatch(pattern)
    except UnsupportedField:   # no Hugo Pipes in this render
        return None


_ISO8601 = "2006-01-02T15:04:05-07:00"


def _or(*values: Any) -> Any:
    """Go's `or`: the first true value, else the last."""
    for value in values:
        if truthy(value):
            return value
    return values[-1]


def _param(params: Any, key: str) -> Any:
    return params.get(key) if isinstance(params, dict) else None


def _plain(value: Any) -> Markup:
    from .functions import FUNCTIONS
    return Markup(FUNCTIONS["plainify"](value))


def _shared_description(dot: Any, site: Any) -> str:
    """`or .Description .Summary site.Params.description | plainify | htmlUnescape`, trimmed, escaped for an
    attribute ("" when there is none)."""
    import html
    text = html.unescape(str(_plain(_or(dot.Description, dot.Summary, _param(site.Params, "description")))))
    return str(attribute(text.strip("\n\r\t "))) if text else ""


def _dates(dot: Any, published: str, modified: str) -> list[str]:
    """The page's publish date and lastmod in ISO 8601, each unless it is zero (Hugo's `with` of a time)."""
    return [line.format(date.Format(_ISO8601)) for line, date in ((published, dot.PublishDate),
                                                                  (modified, dot.Lastmod)) if not date.IsZero]


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else []


def opengraph(dot: Any, runner: Any) -> Markup:
    """Hugo's opengraph.html: the Open Graph properties of a page (site name, title, description, locale;
    a regular page's section, dates and first six tags; its images, audio, videos, series neighbours; the
    site's facebook app or admins from params.social)."""
    site = _site_of(dot, runner)
    params = site.Params
    out = [f'<meta property="og:url" content="{attribute(dot.Permalink)}">']
    site_name = _plain(_or(site.Title, _param(params, "title")))
    if site_name:
        out.append(f'\n\t<meta property="og:site_name" content="{attribute(site_name)}">')
    title = _plain(_or(dot.Title, site.Title, _param(params, "title")))
    if title:
        out.append(f'\n\t<meta property="og:title" content="{attribute(title)}">')
    description = _shared_description(dot, site)
    if description:
        out.append(f'\n\t<meta property="og:description" content="{description}">')
    locale = _or(_param(dot.Params, "locale"), site.Language.Locale)
    if truthy(locale):
        out.append(f'\n\t<meta property="og:locale" content="{attribute(go_string(locale).replace("-", "_"))}">')
    if dot.IsPage:
        out.append('\n\t<meta property="og:type" content="article">')
        if dot.Section:
            out.append(f'\n\t\t<meta property="article:section" content="{attribute(dot.Section)}">')
        out.extend(_dates(dot, '\n\t\t<meta property="article:published_time" content="{}">',
                          '\n\t\t<meta property="article:modified_time" content="{}">'))
        for term in list(dot.GetTerms("tags"))[:6]:
            out.append(f'\n\t\t<meta property="article:tag" content="{attribute(_plain(term.Page.Title))}">')
    else:
        out.append('\n\t<meta property="og:type" content="website">')
    for image in page_images(dot, runner)[:6]:
        out.append(f'\n\t\t<meta property="og:image" content="{attribute(image["Permalink"])}">')
    for name, key in (("audio", "audio"), ("video", "videos")):
        for item in _list(_param(dot.Params, key))[:6]:
            out.append(f'\n\t\t<meta property="og:{name}" content="{attribute(abs_url(site, go_string(item)))}">')
    for term in dot.GetTerms("series"):
        for other in list(term.Pages)[:7]:
            if other != dot:
                out.append(f'\n\t\t\t<meta property="og:see_also" content="{attribute(other.Permalink)}">')
    social = _param(params, "social")
    if isinstance(social, dict):
        if truthy(social.get("facebook_app_id")):
            out.append(f'\n\t\t\t<meta property="fb:app_id" content="{attribute(social["facebook_app_id"])}">')
        elif truthy(social.get("facebook_admin")):
            out.append(f'\n\t\t\t\t<meta property="fb:admins" content="{attribute(social["facebook_admin"])}">')
    out.append("\n")
    return Markup("".join(out))


def twitter_cards(dot: Any, runner: Any) -> Markup:
    """Hugo's twitter_cards.html: a large-image card with the page's first image, else a summary card; the
    title, description and params.social.twitter as the site (an @ put before it)."""
    site = _site_of(dot, runner)
    images = page_images(dot, runner)
    if images:
        out = ['\n\t<meta name="twitter:card" content="summary_large_image">',
               f'\n\t<meta name="twitter:image" content="{attribute(images[0]["Permalink"])}">']
    else:
        out = ['\n\t<meta name="twitter:card" content="summary">']
    title = _plain(_or(dot.Title, site.Title, _param(site.Params, "title")))
    if title:
        out.append(f'\n\t<meta name="twitter:title" content="{attribute(title)}">')
    description = _shared_description(dot, site)
    if description:
        out.append(f'\n\t<meta name="twitter:description" content="{description}">')
    social = _param(site.Params, "social")
    handle = social.get("twitter") if isinstance(social, dict) else None
    if truthy(handle):
        text = go_string(handle)
        text = text if text.startswith("@") else "@" + text
        out.append(f'\n\t\t\t<meta name="twitter:site" content="{attribute(text)}">')
    out.append("\n")
    return Markup("".join(out))


def schema(dot: Any, runner: Any) -> Markup:
    """Hugo's schema.html: schema.org microdata of a page (name, description, dates, word count, images,
    keywords: the keywords taxonomy's terms, else front matter keywords, else the tags, else every taxonomy's
    terms)."""
    site = _site_of(dot, runner)
    out: list[str] = []
    name = _plain(_or(dot.Title, site.Title))
    if name:
        out.append(f'\n\t<meta itemprop="name" content="{attribute(name)}">')
    description = _shared_description(dot, site)
    if description:
        out.append(f'\n\t<meta itemprop="description" content="{description}">')
    out.extend(_dates(dot, '\n\t<meta itemprop="datePublished" content="{}">',
                      '\n\t<meta itemprop="dateModified" content="{}">'))
    if dot.WordCount:
        out.append(f'\n\t<meta itemprop="wordCount" content="{attribute(dot.WordCount)}">')
    for image in page_images(dot, runner)[:6]:
        out.append(f'\n\t<meta itemprop="image" content="{attribute(image["Permalink"])}">')
    keywords = [term.Title for term in dot.GetTerms("keywords")]
    if not keywords:
        keywords = list(dot.Keywords) or [term.Title for term in dot.GetTerms("tags")]
    if not keywords:
        for taxonomy in sorted(site.Taxonomies):
            keywords.extend(term.Title for term in dot.GetTerms(taxonomy))
    if keywords:
        out.append(f'\n\t<meta itemprop="keywords" content="{attribute(",".join(map(go_string, keywords)))}">')
    return Markup("".join(out))


# By the partial's key (its name with .html), what renders it: f(dot, runner) -> HTML or a returned value.
EMBEDDED_PARTIALS: dict[str, Callable[[Any, Any], Any]] = {
    "google_analytics.html": google_analytics,
    "disqus.html": disqus,
    "_funcs/get-page-images.html": page_images,
    "opengraph.html": opengraph,
    "twitter_cards.html": twitter_cards,
    "schema.html": schema,
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


def goat_code_block(svg: GoatSVG, attributes: Sequence[tuple[str, Any]]) -> str:
    """Hugo's embedded _markup/render-codeblock-goat.html, for a ```goat block a site has no hook of its own for:
    the block's diagram (hugo/gotemplate/goat.py) in an <svg> sized by the block's width and height attributes, else by a viewBox of
    the diagram's own size, in a div with the block's class; the template's layout whitespace as Hugo writes it."""
    given = dict(attributes)
    width, height = given.get("width"), given.get("height")
    classes = given.get("class")
    if truthy(width) or truthy(height):
        size = (f'width="{attribute(width)}"' if truthy(width) else "") + "\n\t\t\t\t" + \
               (f'height="{attribute(height)}"' if truthy(height) else "")
    else:
        size = f'viewBox="0 0 {svg.width} {svg.height}"'
    return (f'\n\n\n<div class="goat svg-container {attribute(classes if truthy(classes) else "")}">\n\t\n\t\t<svg\n'
            '\t\t\txmlns="http://www.w3.org/2000/svg"\n\t\t\tfont-family="Menlo,Lucida Console,monospace"\n'
            f"\t\t\t\n\t\t\t\t{size}\n\t\t\t>\n\t\t\t{svg.body}\n\t\t</svg>\n\t\n</div>\n")
