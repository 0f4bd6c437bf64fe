"""`site.Config.Privacy`: Hugo's privacy settings of each service (`.GoogleAnalytics.RespectDoNotTrack`,
`.YouTube.PrivacyEnhanced`, `.X.EnableDNT`, …), every one false unless the config's `privacy` sets it."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Hugo's services and the fields of each besides Disable (config/privacy), false by default.
_SERVICES = {"Disqus": (), "GoogleAnalytics": ("RespectDoNotTrack",), "Instagram": ("Simple",),
             "Vimeo": ("EnableDNT", "Simple"), "YouTube": ("PrivacyEnhanced",),
             "X": ("EnableDNT", "Simple")}


def privacy_settings(given: Mapping[str, Any]) -> dict[str, dict[str, bool]]:
    """Each service's fields (Hugo's names) from the config's privacy mapping (keys in any case); a value
    that is not true or false is false, as Hugo's decoder leaves a field it cannot set at its default."""
    keyed = {str(name).lower(): value for name, value in given.items()}
    settings = {}
    for service, names in _SERVICES.items():
        entry = keyed.get(service.lower())
        fields = {str(name).lower(): value for name, value in entry.items()} if isinstance(entry, Mapping) else {}
        settings[service] = {name: fields.get(name.lower()) is True for name in ("Disable", *names)}
    return settings
