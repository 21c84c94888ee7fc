"""Solo play in Canadian French: the quiz pages, a question with the answering core's refusals
and its feedback, results, nicknames and the leaderboard, the reader, the error pages and the
login page, and the words ordering.js is handed."""

from __future__ import annotations

import html
import re
from types import SimpleNamespace

from tests.conftest import csrf_token
from tests.web.helpers import QUIZ, answer_blindly, next_link, one_answer_question

FRENCH = {"Accept-Language": "fr-CA"}
NBSP = "\u00a0"
#: Fields that read as an answer to a question of any kind (see Kind.read_form): each kind
#: takes its own, and an ordering question's places 1 to n, whatever its n.
ANY_KIND = {"choice": "1", "number": "1", "text": "a guess", **{f"place-{n}": str(n) for n in range(1, 9)}}


def french(client, url: str, status: int = 200) -> str:
    response = client.get(url, headers=FRENCH)
    assert response.status_code == status
    page = response.get_data(as_text=True)
    assert '<html lang="fr-CA">' in page
    return page


def post(client, url: str, page: str, **fields):
    return client.post(url, headers=FRENCH, data={"csrf_token": csrf_token(page), **fields})


def start(client) -> str:
    response = post(client, f"{QUIZ}/attempts", french(client, QUIZ), length="standard", difficulty="")
    assert response.status_code == 303
    return response.location


def attribute(page: str, name: str) -> str:
    return html.unescape(re.search(rf'\b{name}="([^"]*)"', page).group(1))


def test_the_home_and_quiz_pages_read_in_french(bundled, client):
    home = french(client, "/")
    assert "<h1>Quiz</h1>" in home
    assert "Testez vos connaissances. Après chaque réponse, vous voyez le passage de l’article qui la prouve." in home
    assert re.search(r'<p class="meta">\d+ questions, chaque réponse appuyée par l’article</p>', home)

    quiz = french(client, QUIZ)
    assert '<h2 id="article-heading">D’après l’article</h2>' in quiz and ">Lire l’article</a>" in quiz
    assert re.search(r"\s10 questions\s+</label>", quiz) and re.search(r"\sToutes les \d+ questions\s+</label>", quiz)
    # Each difficulty with its count, the colon spaced the French way.
    assert len(re.findall(rf"\w+{NBSP}: \d+", quiz)) == 3
    assert '<button type="submit">Commencer le quiz</button>' in quiz


def test_a_question_its_refusals_and_its_feedback_read_in_french(bundled, client):
    url = one_answer_question(client, start(client))
    position = int(url.rsplit("/", 1)[1])
    question = french(client, url)
    assert f'<p class="progress-label" id="progress-label">Question {position} sur 10</p>' in question
    assert "Appuyez sur une touche numérique pour choisir, sur Entrée pour envoyer." in question
    assert '<button type="submit">Envoyer la réponse</button>' in question
    assert ">Quitter le quiz</a> (vous pourrez reprendre plus tard)" in question

    # The kind refuses an empty answer, the answering core one to a question further on.
    refused = post(client, url, question)
    assert refused.status_code == 422
    assert '<ul class="errors" id="answer-errors"><li>Choisissez une réponse.</li></ul>' in refused.get_data(as_text=True)
    ahead = post(client, url.replace(f"/questions/{position}", f"/questions/{position + 1}"), question, **ANY_KIND)
    assert ahead.status_code == 303 and ahead.location == url
    assert f"Répondez aux questions dans l’ordre{NBSP}: répondez d’abord à la question {position}." in french(client, url)

    assert post(client, url, question, choice="1").status_code == 303
    feedback = french(client, url)
    assert re.search(rf"<title>Question {position} sur 10{NBSP}: (bonne|mauvaise) réponse · ", feedback)
    assert "<strong>Bonne réponse!</strong>" in feedback or "<strong>Pas tout à fait.</strong>" in feedback
    assert '<span class="tag tag-picked">Votre réponse</span>' in feedback
    assert '<h2 id="why-heading">Pourquoi</h2>' in feedback and ">Le lire dans l’article</a>" in feedback
    assert ">Question suivante</a>" in feedback


def test_results_nickname_and_leaderboard_read_in_french(bundled, client):
    url = start(client)
    while "/questions/" in url:
        answer_blindly(client, url)
        url = next_link(client.get(url).get_data(as_text=True))
    player = french(client, f"/player?next={url}")
    assert "<h1>Votre pseudo</h1>" in player and '<button type="submit">Enregistrer</button>' in player
    saved = post(client, "/player", player, nickname="Zoé", next=url)
    assert saved.status_code == 303 and saved.location == url

    results = french(client, url)
    assert "Pseudo enregistré." in results and "<h1>Vos résultats</h1>" in results
    assert re.search(rf"Bonnes réponses{NBSP}: <strong>\d+</strong> sur 10 en (\d+{NBSP}min )?\d+{NBSP}s</p>", results)
    assert re.search(rf"Votre meilleur résultat à ce quiz{NBSP}: \d+ sur 10 en .+ \(cette tentative\)\.", results)
    assert '<h2 id="review-heading">Récapitulatif</h2>' in results and ">Rejouer</a>" in results
    assert results.count(f"Votre réponse{NBSP}: ") == 10

    board = french(client, f"{QUIZ}/leaderboard")
    assert "<h1>Classement</h1>" in board and '<th scope="row">Zoé (vous)</th>' in board
    # The date as Canadian French writes it: "4 déc. 2026".
    assert re.search(r'<time datetime="[0-9T:.-]+Z">\d{1,2} [^\s<\d]+ \d{4}</time>', board)


def test_the_reader_the_error_pages_and_the_login_page_read_in_french(bundled, client):
    article = french(client, "/articles/kiss-and-cry?highlight=p1&back=/")
    assert "Le passage surligné est la source de la réponse." in article and ">Retour à la question</a>" in article

    missing = french(client, "/nothing-here", 404)
    assert "<h1>Page introuvable</h1>" in missing
    assert "Il n’y a rien à cette adresse. Le lien est peut-être mal écrit ou périmé." in missing
    nul = french(client, "/?q=%00", 400)
    assert "<h1>Requête incorrecte</h1>" in nul
    assert "Ce que vous avez envoyé contient un caractère NUL (\\0), qu’aucun texte ne peut contenir ici." in nul

    login = french(client, "/login")
    assert "<h1>Se connecter</h1>" in login
    refused = post(client, "/login", login, username="nobody", password="not the password")
    assert "Nom d’utilisateur ou mot de passe incorrect." in refused.get_data(as_text=True)


def test_ordering_questions_hand_their_script_and_their_reveal_french_words(app):
    items = [SimpleNamespace(number=1, text="Avant"), SimpleNamespace(number=2, text="Après")]
    with app.test_request_context("/", headers=FRENCH):
        kind = app.jinja_env.get_template("kinds/ordering.html").module
        widget = str(kind.widget(SimpleNamespace(choices=items)))
        reveal = str(kind.reveal(SimpleNamespace(choices=[
            SimpleNamespace(text="Avant", is_correct=False, placed=2),
            SimpleNamespace(text="Après", is_correct=False, placed=1),
        ])))
    # ordering.js fills in {item}, {place} and {count}.
    assert attribute(widget, "data-text-up") == f"Monter «{NBSP}{{item}}{NBSP}»"
    assert attribute(widget, "data-text-down") == f"Descendre «{NBSP}{{item}}{NBSP}»"
    assert attribute(widget, "data-text-moved") == f"«{NBSP}{{item}}{NBSP}» est maintenant en position {{place}} sur {{count}}."
    assert f'aria-label="Place de «{NBSP}Avant{NBSP}»"' in widget
    assert "Vous l’avez mis en 2e place" in reveal and "Vous l’avez mis en 1re place" in reveal
