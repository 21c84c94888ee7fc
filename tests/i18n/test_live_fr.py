"""Classroom sessions in Canadian French: the join page and its refusals, a student's phone, the
projector with its keyboard hints and counts whose words follow the number, and the host's
lists, with the words live.js draws handed to it in French."""

from __future__ import annotations

import html
import re

from tests.conftest import csrf_token
from tests.web.live_helpers import correct_number, create_session, join_code, joined, log_in, press, submit

FRENCH = {"Accept-Language": "fr-CA"}
NBSP = "\u00a0"


def french(client, url: str) -> str:
    response = client.get(url, headers=FRENCH)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert '<html lang="fr-CA">' in page
    return page


def attribute(page: str, name: str) -> str:
    return html.unescape(re.search(rf'\b{name}="([^"]*)"', page).group(1))


def test_the_join_page_and_its_refusals_read_in_french(bundled):
    host = log_in(bundled, "host")
    session_id = create_session(host)
    code = join_code(host, session_id)
    joined(bundled, code, "Zoé", session_id)

    phone = bundled.test_client()
    page = french(phone, "/join")
    assert "<h1>Rejoindre une séance</h1>" in page and '<button type="submit">Rejoindre</button>' in page
    wrong = "000000" if code != "000000" else "111111"
    response = phone.post("/join", headers=FRENCH, data={"csrf_token": csrf_token(page), "code": wrong, "nickname": "Ana"})
    assert response.status_code == 404
    assert "Aucune séance ouverte n’a ce code. Vérifiez l’écran et réessayez." in response.get_data(as_text=True)
    # Nicknames are one whatever their case and accents.
    response = phone.post("/join", headers=FRENCH, data={"csrf_token": csrf_token(page), "code": code, "nickname": "ZOE"})
    assert response.status_code == 422
    assert "Quelqu’un dans cette séance a déjà ce pseudo. Choisissez-en un autre." in response.get_data(as_text=True)


def test_a_students_phone_reads_in_french_and_hands_live_js_its_words(bundled):
    host = log_in(bundled, "host")
    session_id = create_session(host, question_count=2)
    ana = joined(bundled, join_code(host, session_id), "Ana", session_id)
    lobby = french(ana, f"/live/{session_id}")
    assert "<h1>Vous y êtes!</h1>" in lobby and "Vous êtes <strong>Ana</strong> · " in lobby
    assert "En attente du début de la séance. Gardez cette page ouverte." in lobby
    # What live.js draws by itself when a question opens, or once an answer is received.
    assert attribute(lobby, "data-text-progress") == "Question {number} sur {count}"
    assert attribute(lobby, "data-text-seconds-left-one") == "{n} s restante"
    assert attribute(lobby, "data-text-seconds-left-other") == "{n} s restantes"
    assert attribute(lobby, "data-text-submit") == "Envoyer la réponse"
    assert attribute(lobby, "data-text-choose") == "Choisissez une réponse."
    assert attribute(lobby, "data-text-received") == "Réponse reçue"
    assert attribute(lobby, "data-text-waiting") == "En attente du dévoilement de la réponse."

    press(host, session_id, "start")
    question = french(ana, f"/live/{session_id}")
    assert '<p class="progress-label">Question 1 sur 2</p>' in question
    assert re.search(r"<span data-countdown-value>\d+</span> s restantes</span>", question)
    assert '<button type="submit">Envoyer la réponse</button>' in question
    submit(ana, session_id, correct_number(bundled, session_id, question), question)
    waiting = french(ana, f"/live/{session_id}")
    assert "<h1>Réponse reçue</h1>" in waiting and "En attente du dévoilement de la réponse." in waiting


def test_the_projector_reads_in_french_with_counts_worded_by_number(bundled):
    host = log_in(bundled, "host")
    session_id = create_session(host, question_count=1, show_leaderboard=False)
    code = join_code(host, session_id)
    lobby = french(host, f"/host/sessions/{session_id}")
    assert re.search(r'<h1>Rejoignez la séance sur <span class="join-url">[^<]+/join</span></h1>', lobby)
    assert f'aria-label="Code de la séance {" ".join(code)}"' in lobby
    assert "0 élève présent" in lobby
    assert f"Touches{NBSP}:" in lobby and "lancer" in lobby
    ana = joined(bundled, code, "Ana", session_id)
    joined(bundled, code, "Ben", session_id)
    assert "2 élèves présents" in french(host, f"/host/sessions/{session_id}")

    press(host, session_id, "start")
    submit(ana, session_id, 1)
    question = french(host, f"/host/sessions/{session_id}")
    assert '<p class="progress-label">Question 1 sur 1</p>' in question
    assert "<span data-answered>1</span> sur 2 a répondu" in question
    assert attribute(question, "data-text-answered-one") == "{n} sur 2 a répondu"
    assert attribute(question, "data-text-answered-other") == "{n} sur 2 ont répondu"
    assert re.search(r"<kbd>N</kbd> ou <kbd>→</kbd> ou <kbd>R</kbd> dévoiler la réponse", question)
    assert ">Dévoiler la réponse</button>" in question and ">Fermer la question</button>" in question

    press(host, session_id, "close")
    assert f"Question fermée{NBSP}: 1 sur 2 a répondu." in french(host, f"/host/sessions/{session_id}")
    press(host, session_id, "reveal")
    revealed = french(host, f"/host/sessions/{session_id}")
    assert "<caption>Réponses de la classe (1 sur 2)</caption>" in revealed
    assert '<span class="tag tag-correct">Bonne réponse</span>' in revealed
    assert re.search(rf'<span class="percent">\d+{NBSP}%</span>', revealed)
    assert ">Terminer et afficher le podium</button>" in revealed
    press(host, session_id, "next")
    podium = french(host, f"/host/sessions/{session_id}")
    assert "<h1>Podium</h1>" in podium and "Résultats et téléchargements" in podium


def test_the_hosts_lists_read_in_french_with_french_numbers(bundled):
    host = log_in(bundled, "host")
    session_id = create_session(host, question_count=1)
    ana = joined(bundled, join_code(host, session_id), "Ana", session_id)
    dashboard = french(host, "/host")
    assert "<h1>Animer une séance</h1>" in dashboard and "<td>salle d’attente</td>" in dashboard
    assert f"Animer «{NBSP}Kiss &amp; Cry" in dashboard

    press(host, session_id, "start")
    submit(ana, session_id, 1)
    press(host, session_id, "finish")
    results = french(host, f"/host/sessions/{session_id}/results")
    assert "<h1>Résultats</h1>" in results and "Télécharger toutes les réponses (CSV)" in results
    assert f"Réponses de chaque élève{NBSP}: ✓ bonne réponse, ✗ mauvaise réponse, – aucune réponse; secondes entre parenthèses" in results
    # Seconds with a decimal comma.
    assert re.search(r'<span class="hint">\(\d+,\d\)</span>', results)
