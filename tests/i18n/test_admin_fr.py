"""The admin pages, and the forms of every page, in Canadian French."""

from __future__ import annotations

import re

import pytest

from quiz import accounts
from quiz.bank.exporter import export_document
from quiz.bank.yamlfile import dump_yaml
from quiz.extensions import db
from tests.accounts.conftest import PASSWORD, login
from tests.conftest import csrf_token

FRENCH = {"Accept-Language": "fr-CA"}
NBSP = "\u00a0"


@pytest.fixture
def admin_client(bundled, client, monkeypatch):
    """A client logged in as an admin, on a database holding the bundled bank."""
    monkeypatch.setattr(accounts, "PASSWORD_HASH_METHOD", "scrypt:1024:8:1")
    with bundled.app_context():
        accounts.create_user(db.session, "admin", PASSWORD, "admin")
        db.session.commit()
    assert login(client, "admin").status_code == 303
    return client


def get(client, url: str) -> str:
    response = client.get(url, headers=FRENCH)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def post(client, url: str, **data):
    data["csrf_token"] = csrf_token(get(client, url))
    return client.post(url, data=data, headers=FRENCH)


def test_the_admin_page_counts_the_bank_in_french(admin_client):
    page = get(admin_client, "/admin/")
    assert '<html lang="fr-CA">' in page
    assert "<h1>Administration</h1>" in page
    assert re.search(r"\d+ quiz et \d+ questions en jeu; 0 retirée\.", page)
    assert f'<a href="/admin/import">Importer une banque de questions</a>{NBSP}: téléversez' in page


def test_the_question_page_dates_its_revisions_in_french(admin_client):
    page = get(admin_client, "/admin/questions/streaming-service")
    assert "Révision 1 (actuelle)" in page
    # Babel's short fr-CA format, in the app's time zone.
    assert re.search(r'Créée le <time datetime="[0-9T:.-]+Z">\d{4}-\d{2}-\d{2} \d{1,2} h \d{2}</time> · \d+ réponses?<', page)
    assert ">Retirer</button>" in page


def test_retiring_says_so_in_french(admin_client):
    page = get(admin_client, "/admin/questions/streaming-service")
    admin_client.post("/admin/questions/streaming-service/retire", data={"csrf_token": csrf_token(page)}, headers=FRENCH)
    page = get(admin_client, "/admin/questions/streaming-service")
    assert f"La question est retirée{NBSP}: les nouvelles tentatives ne la posent plus." in page
    assert "<strong>Retirée</strong> le <time" in page
    assert ">Rétablir</button>" in page


def test_the_question_form_explains_its_errors_in_french(admin_client):
    response = post(
        admin_client, "/admin/new-question", quiz="kiss-and-cry", kind="single", difficulty="easy", slug="where",
        prompt="Where?", **{"choices-0": "Netflix", "choices-1": "Hulu"}, time_limit="soon",
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "La question n’a pas été enregistrée. Corrigez les champs signalés." in page
    assert "<li>Cochez le bon choix.</li>" in page
    assert '<label for="time_limit">Secondes pour répondre</label>' in page
    assert '<option selected value="easy">Facile</option>' in page
    # WTForms' own message, from the catalog WTForms ships (Flask-WTF's WTF_I18N_ENABLED).
    assert "<li>N&#39;est pas un entier valide.</li>" in page


def test_a_broken_bank_lists_its_problems_in_french(admin_client, bundled):
    with bundled.app_context():
        text = dump_yaml(export_document(db.session))
    broken = text.replace("difficulty: easy", "difficulty: simple", 2)
    response = post(admin_client, "/admin/import", text=broken)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "<h1>2 problèmes dans banque collée</h1>" in page
    assert re.search(rf"<strong>Ligne \d+, colonne \d+</strong> \(<code>questions\[\d+\]\.difficulty</code>\){NBSP}:", page)
    assert "Rien n’a été importé. Corrigez chaque problème ci-dessous, puis affichez de nouveau l’aperçu." in page


def test_a_preview_sums_up_each_section_in_french(admin_client, bundled):
    with bundled.app_context():
        text = dump_yaml(export_document(db.session))
    page = post(admin_client, "/admin/import", text=text).get_data(as_text=True)
    assert f"<strong>Articles</strong> — ajouts{NBSP}: 0, modifications{NBSP}: 0, sans changement{NBSP}: 1, retraits{NBSP}: 0" in page
    assert "L’importation de cette banque ne changerait rien." in page


def test_the_login_form_asks_in_french(client):
    page = client.get("/login", headers=FRENCH).get_data(as_text=True)
    response = client.post("/login", data={"csrf_token": csrf_token(page), "username": "", "password": ""}, headers=FRENCH)
    page = response.get_data(as_text=True)
    assert "Entrez votre nom d’utilisateur." in page and "Entrez votre mot de passe." in page
