"""Which language a page is shown in: the visitor's choice, else the browser's, else English."""

from __future__ import annotations

import re

import pytest

from quiz.web.language import COOKIE, locale_for

FOOTER_EN = "Every answer comes with the passage of the article that proves it."
FOOTER_FR = "Chaque réponse s’accompagne du passage de l’article qui la prouve."


def html_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)">', html)[1]


@pytest.mark.parametrize("tag, locale", [
    ("fr", "fr_CA"), ("fr-CA", "fr_CA"), ("fr_FR", "fr_CA"), ("FR-be", "fr_CA"),
    ("en", "en"), ("en-GB", "en"), ("de", None), ("", None), (None, None),
])
def test_language_tags_find_the_locale_they_are_shown_in(tag, locale):
    assert locale_for(tag) == locale


def test_without_a_preference_pages_are_in_english(client):
    response = client.get("/")
    html = response.get_data(as_text=True)
    assert html_lang(html) == "en" and FOOTER_EN in html
    assert response.headers["Content-Language"] == "en"
    assert "Accept-Language" in response.headers["Vary"]


@pytest.mark.parametrize("accepted", ["fr-CA", "fr", "fr-FR,fr;q=0.9,en;q=0.8", "fr-FR,en;q=0.8", "de-DE, fr;q=0.5", "en;q=0.4, fr-BE"])
def test_a_browser_asking_for_french_gets_canadian_french(client, accepted):
    response = client.get("/", headers={"Accept-Language": accepted})
    html = response.get_data(as_text=True)
    assert html_lang(html) == "fr-CA" and FOOTER_FR in html and FOOTER_EN not in html
    assert response.headers["Content-Language"] == "fr-CA"


@pytest.mark.parametrize("accepted", ["de", "en-GB,fr;q=0.4", "*", "fr;q=0, de"])
def test_other_languages_get_english_unless_french_is_preferred(client, accepted):
    assert html_lang(client.get("/", headers={"Accept-Language": accepted}).get_data(as_text=True)) == "en"


def test_the_switcher_offers_the_other_language_in_its_own_words(client):
    english = client.get("/join?code=AB").get_data(as_text=True)
    assert '<a href="/language/fr_CA?next=/join?code%3DAB" lang="fr-CA" hreflang="fr-CA">Français</a>' in english
    french = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<a href="/language/en?next=/" lang="en" hreflang="en">English</a>' in french
    assert "Français</a>" not in french


def test_a_chosen_language_is_kept_in_a_cookie_and_beats_the_browser(client):
    response = client.get("/language/fr_CA?next=/join")
    assert response.status_code == 303 and response.headers["Location"] == "/join"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=fr_CA;") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Max-Age=31536000" in cookie
    # A redirect says nothing in any language.
    assert "Content-Language" not in response.headers
    html = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert html_lang(html) == "fr-CA" and FOOTER_FR in html
    client.get("/language/en?next=/")
    assert html_lang(client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)) == "en"


def test_the_language_cookie_is_secure_where_the_session_cookie_is(make_app):
    client = make_app(SESSION_COOKIE_SECURE=True).test_client()
    assert "Secure" in client.get("/language/fr_CA").headers["Set-Cookie"]


@pytest.mark.parametrize("next_page", ["https://example.org/", "//example.org/", "javascript:alert(1)", ""])
def test_choosing_a_language_never_sends_the_visitor_away(client, next_page):
    response = client.get("/language/fr_CA", query_string={"next": next_page})
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_an_unknown_language_is_not_found_and_sets_nothing(client):
    response = client.get("/language/de")
    assert response.status_code == 404 and "Set-Cookie" not in response.headers


def test_a_forged_cookie_falls_back_to_the_browser(client):
    client.set_cookie(COOKIE, "xx")
    assert html_lang(client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)) == "fr-CA"
