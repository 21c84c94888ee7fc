"""The article reader page."""

from flask import Blueprint, abort, render_template, request

from quiz import reading
from quiz.extensions import db
from quiz.web.redirects import local_path

bp = Blueprint("reader", __name__)


@bp.get("/articles/<slug>")
def article(slug: str):
    article = reading.article_by_slug(db.session, slug) or abort(404)
    highlight = request.args.get("highlight")
    return render_template(
        "reader/article.html",
        article=article,
        paragraphs=reading.read(db.session, article, highlight),
        highlight=highlight,
        # The page the quote was opened from (a question's feedback, a review), to go back to.
        back=local_path(request.args.get("back")),
    )
