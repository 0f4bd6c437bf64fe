"""A Hugo site's menus as Hugo assembles them for its layouts: every menu of the config (`[[menus.NAME]]`), the
sections when `sectionPagesMenu` names a menu, and the entries pages declare in front matter (`menu: main`,
`menu: [main, footer]`, `menu: {main: {weight: 2, parent: docs, params: {icon: x}}}`, or `menus:`).

An entry's key is its identifier, else its name; a page's entry whose key the config already has in that
menu is left out (Hugo warns of the duplicate). An entry linked to a page (the config's `pageRef`, or the
page that declares it) takes the page's link title as its name, its title and weight when it gives none, and
the page's URL. Children hang under the entry their `parent` names (one is made, with that name only, when no
entry has the key), and every level is in Hugo's order: weight (0 last), then name, then identifier.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from markupsafe import Markup

from .objects import GoObject, Params


class MenuEntry(GoObject):
    """One entry of a site menu: `.Name`, `.URL` (made relative to the site, as Hugo makes it), `.Weight`,
    `.Identifier`, `.KeyName`, `.Parent`, `.Children`, `.HasChildren`, `.Params`, `.Pre`, `.Post`, `.Title`,
    `.Menu`, `.Page` (its pageRef's, or the page that declares it)."""

    kind = "MenuEntry"

    def __init__(self, name: str, url: str, weight: int, children: list[MenuEntry], group: str = "",
                 page: Any = None, *, identifier: str | None = None, parent: str = "",
                 pre: str = "", post: str = "", title: str = "", menu: str = "",
                 params: Params | None = None) -> None:
        self.Name = name
        self.Page = page   # the page its pageRef names (or that declares it): its URL is the page's
        self.URL = page.RelPermalink if page is not None else url
        self.Weight = weight
        self.Identifier = name.lower() if identifier is None else identifier
        self.Parent = parent
        self.Children = children
        self.Params = params if params is not None else Params.of({"group": group} if group else {})
        self.Pre, self.Post = Markup(pre), Markup(post)
        self.Title = title
        self.Menu = menu
        self.KeyName = self.Identifier or name

    @property
    def HasChildren(self) -> bool:  # noqa: N802
        return bool(self.Children)


_FIELDS = ("identifier", "parent", "name", "pre", "post", "url", "pageref", "weight", "title", "params")


def site_menus(site: Any, configured: Mapping[str, Any], section_menu: str = "") -> dict[str, list[MenuEntry]]:
    """The site's menus by name, each its top-level entries in Hugo's order."""
    flat: dict[tuple[str, str], MenuEntry] = {}
    for menu, items in configured.items():
        for item in items if isinstance(items, list) else []:
            if isinstance(item, Mapping):
                entry = _entry(str(menu), _fields(item), site, None)
                flat[(str(menu), entry.KeyName)] = entry
    if section_menu:
        for page in site.Sections:
            key = page.Section or "/"
            if (section_menu, key) not in flat:
                flat[(section_menu, key)] = _entry("", {"identifier": key, "name": page.LinkTitle,   # no .Menu
                                                        "weight": page.Weight}, site, page)
    for page in _pages_with_menus(site):
        declared = _declared(page)
        for menu, fields in declared:
            # A list of menus shares one entry in Hugo, whose .Menu is the last of them.
            entry = _entry(declared[-1][0] if isinstance(_given(page), list) else menu, fields, site, page)
            flat.setdefault((menu, entry.KeyName), entry)
    children: dict[tuple[str, str], list[MenuEntry]] = {}
    for (menu, _key), entry in flat.items():
        if entry.Parent:
            children.setdefault((menu, entry.Parent), []).append(entry)
    for wanted, entries in children.items():
        parent = flat.get(wanted)
        if parent is None:   # Hugo makes the parent no entry names, with that name only
            parent = flat[wanted] = MenuEntry(wanted[1], "", 0, [], identifier="")
        parent.Children = _ordered(entries)
    menus: dict[str, list[MenuEntry]] = {}
    for (menu, _key), entry in flat.items():
        if not entry.Parent:
            menus.setdefault(menu, []).append(entry)
    return {menu: _ordered(entries) for menu, entries in menus.items()}


def _fields(item: Mapping[str, Any]) -> dict[str, Any]:
    keyed = {str(key).lower(): value for key, value in item.items()}
    return {name: keyed[name] for name in _FIELDS if name in keyed}


def _entry(menu: str, fields: Mapping[str, Any], site: Any, page: Any) -> MenuEntry:
    """One entry: the config's fields, linked to page (the declaring page, or the one its pageRef names)."""
    if page is None and fields.get("pageref"):
        page = site.GetPage(str(fields["pageref"]))
    name = str(fields.get("name") or "")
    title = str(fields.get("title") or "")
    weight = _int(fields.get("weight"))
    url = str(fields.get("url") or "")
    if page is not None:   # Hugo's SetPageValues
        name = name or page.LinkTitle
        title = title or page.Title
        weight = weight or page.Weight
    elif url.startswith("/"):
        url = site.config.site_url(url)
    params = fields.get("params")
    return MenuEntry(name, url, weight, [], page=page, identifier=str(fields.get("identifier") or ""),
                     parent=str(fields.get("parent") or ""), pre=Markup(str(fields.get("pre") or "")),
                     post=Markup(str(fields.get("post") or "")), title=title, menu=menu,
                     params=Params.of(params if isinstance(params, Mapping) else {}))


def _int(value: Any) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, (int, float)):
        return int(value)
    try:
        return int(str(value).strip())
    except ValueError:
        return 0


def _pages_with_menus(site: Any) -> Iterable[Any]:
    """Every page whose front matter declares menu entries (regular pages, then sections, then the home page's
    _index.md)."""
    for page in site.RegularPages:
        if page._post is not None and ("menu" in page._post.params or "menus" in page._post.params):
            yield page
    for page in site.every_page():
        if page.IsSection and ("menu" in page.Params or "menus" in page.Params):
            yield page
    home = site.home_page()
    if "menu" in home.Params or "menus" in home.Params:
        yield home


def _given(page: Any) -> Any:
    params = page._post.params if page._post is not None else page.Params
    return params.get("menu", params.get("menus"))


def _declared(page: Any) -> list[tuple[str, dict[str, Any]]]:
    """(menu, fields) of each entry a page declares: a menu's name, a list of names, or a map of menu to fields."""
    given = _given(page)
    if isinstance(given, str):
        return [(given, {})]
    if isinstance(given, list):
        return [(str(name), {}) for name in given if isinstance(name, (str, int))]
    if isinstance(given, Mapping):
        return [(str(menu), _fields(fields) if isinstance(fields, Mapping) else {}) for menu, fields in given.items()]
    return []


def _ordered(entries: list[MenuEntry]) -> list[MenuEntry]:
    """Hugo's menu order: by weight (0 last), then name (case folded first), then identifier."""
    return sorted(entries, key=lambda entry: (entry.Weight == 0, entry.Weight, entry.Name.lower(), entry.Name,
                                              entry.Identifier))


def page_entries(page: Any) -> dict[str, MenuEntry]:
    """The entries a page declares, by menu (what Hugo's page menus hold, kept or not in the site's menus)."""
    declared = _declared(page)
    shared = isinstance(_given(page), list)
    return {menu: _entry(declared[-1][0] if shared else menu, fields, page._site, page) for menu, fields in declared}


def same_entry(one: MenuEntry, other: MenuEntry) -> bool:
    """Hugo's isEqual: the same identifier (else URL, else name) under the same parent."""
    return _unique_id(one) == _unique_id(other) and one.Parent == other.Parent


def _unique_id(entry: MenuEntry) -> str:
    return entry.Identifier or entry.URL or entry.Name
