"""The admin's pages: importing a bank through a preview, downloading it in every format,
adding questions from other tools' files and drafted from an article (both through the same
preview), browsing questions and their revisions, retiring, restoring, adding and editing
questions."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import PurePath

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import format_decimal
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from quiz import admin, drafts, giveaways
from quiz.bank import Bank, BankError, BankInvalid, parse_bank
from quiz.bank.diff import bank_digest, preview_import
from quiz.bank.exporter import export_document, revision_entry
from quiz.bank.importer import ImportReport, import_bank, lock_bank
from quiz.bank.yamlfile import dump_yaml
from quiz.extensions import db
from quiz.formats import MAX_UPLOAD_BYTES, exporters
from quiz.forms import (
    FORM_KINDS,
    ArticleForm,
    BankApplyForm,
    BankUploadForm,
    ConfirmForm,
    DraftReviewForm,
    QuestionFileForm,
    QuestionFilterForm,
    QuestionForm,
)
from quiz.kinds import KINDS
from quiz.models import Question
from quiz.web.auth import role_required

bp = Blueprint("admin", __name__, url_prefix="/admin")

#: Pages whose form carries a whole bank, or a whole article, in one field.
_BANK_FORMS = {"admin.preview", "admin.apply", "admin.draft", "admin.review_drafts"}
BANK_CHANGED = _l(
    "The bank changed after this preview was made, so nothing was imported. "
    "This is the preview against the bank as it is now."
)


@bp.url_value_preprocessor
def _allow_whole_banks(endpoint: str | None, values: dict | None) -> None:
    # A pasted bank or article, or one on its way to being applied, is one form field. Flask
    # caps a field at MAX_FORM_MEMORY_SIZE; here it may be as large as the request itself. This
    # hook runs before the before_request hooks, where the CSRF check first reads the form.
    if endpoint in _BANK_FORMS:
        request.max_form_memory_size = current_app.config["MAX_CONTENT_LENGTH"]


@bp.get("/")
@role_required("admin")
def index():
    return render_template("admin/index.html", summary=admin.bank_summary(db.session), exporters=exporters())


# Importing through a preview -----------------------------------------------------------------


@bp.get("/import")
@role_required("admin")
def import_page():
    return render_template("admin/import.html", form=BankUploadForm())


@bp.post("/import")
@role_required("admin")
def preview():
    form = BankUploadForm()
    if not form.validate():
        return render_template("admin/import.html", form=form), 422
    if form.file.data:
        raw = form.file.data.read()
        file_name = PurePath(form.file.data.filename or "").name or _("uploaded file")
    else:
        raw = form.text.data.encode()
        file_name = _("pasted bank")
    return _preview(raw, file_name)


@bp.post("/import/apply")
@role_required("admin")
def apply():
    form = BankApplyForm()
    if not form.validate():
        abort(400)
    raw, file_name = form.bank.data.encode(), form.file_name.data
    try:
        bank = _check(raw, file_name)
    except BankInvalid as invalid:
        return _errors_page(invalid, raw, file_name)
    # Checked and written under the lock: of two admins applying at once, the second finds the
    # bank changed by the first, and gets the fresh preview.
    lock_bank(db.session)
    if form.digest.data != bank_digest(db.session):
        db.session.rollback()
        return _preview(raw, file_name, notice=BANK_CHANGED, status=409)
    report = import_bank(db.session, bank)
    flash(_("Imported. %(changes)s", changes=_report_summary(report)) if report.changes_anything else _("Nothing changed."))
    return redirect(url_for(".index"), 303)


def _report_summary(report: ImportReport) -> str:
    """What an import did, in the words of the preview (the CLI's report stays in English)."""
    sections = ((_("Articles"), report.articles), (_("Quizzes"), report.quizzes), (_("Questions"), report.questions))
    return " ".join(
        _(
            "%(section)s: %(added)s added, %(changed)s changed, %(unchanged)s unchanged, %(retired)s retired.",
            section=name, added=len(section.added), changed=len(section.changed), unchanged=len(section.unchanged),
            retired=len(section.retired),
        )
        for name, section in sections
    )


def _check(raw: bytes, file_name: str) -> Bank:
    return parse_bank(raw, file_name, base_dir=None, max_bytes=current_app.config["BANK_MAX_BYTES"])


def _preview(
    raw: bytes, file_name: str, *, notice: str | None = None, status: int = 200, renamed: dict[str, str] | None = None,
    left_out: list[BankError] | None = None, lost: list[BankError] | None = None,
):
    """The preview of importing the bank ``raw``; for questions read from another tool's file,
    ``left_out`` names the file's questions that were not read and ``lost`` what read ones lost."""
    try:
        bank = _check(raw, file_name)
    except BankInvalid as invalid:
        return _errors_page(invalid, raw, file_name)
    form = BankApplyForm(formdata=None, bank=raw.decode(), digest=bank_digest(db.session), file_name=file_name)
    return render_template(
        "admin/preview.html", preview=preview_import(db.session, bank), form=form, file_name=file_name, notice=notice,
        renamed=renamed or {}, giveaways=giveaways.placed(bank), left_out=left_out or [], lost=lost or [],
    ), status


@dataclass(frozen=True)
class _ShownError:
    error: BankError
    #: The line of the file the error is on, to show beside the message.
    line_text: str | None


def _errors_page(invalid: BankInvalid, raw: bytes, file_name: str, *, bank: bool = True):
    """Every problem of a file, each with its line when the file is text; a bank comes back in a
    text area to fix it there, another tool's file is fixed in that tool."""
    text = raw.decode(errors="replace")
    lines = text.splitlines()
    if not bank:
        try:
            raw.decode()
        except UnicodeDecodeError:
            # A workbook, or text that is not UTF-8: its "lines" would be bytes shown as noise.
            lines = []
    shown = [_ShownError(error, lines[error.line - 1] if 0 < error.line <= len(lines) else None) for error in invalid.errors]
    form = BankUploadForm(formdata=None, text=text) if bank else None
    again = url_for(".import_page") if bank else url_for(".import_questions_page")
    return render_template("admin/errors.html", errors=shown, file_name=file_name, form=form, again=again), 422


@bp.get("/bank.yaml")
@role_required("admin")
def download():
    return export("yaml")


@bp.get("/export/<name>")
@role_required("admin")
def export(name: str):
    """The bank in play as a file of the format ``name``, as ``quiz export --format`` writes it."""
    chosen = next((entry for entry in exporters() if entry.name == name), None) or abort(404)
    assert chosen.write is not None  # exporters() are the formats that write
    return Response(
        chosen.write(export_document(db.session)),
        content_type=chosen.media_type,
        headers={"Content-Disposition": f"attachment; filename={chosen.filename('questions')}"},
    )


# Questions from another tool's file --------------------------------------------------------------


def _quizzes_in_play(form: QuestionFileForm) -> bool:
    form.quiz.choices = [(quiz.slug, quiz.title) for quiz in admin.quizzes(db.session, in_play=True)]
    if not form.quiz.choices:
        flash(_("There is no quiz to add questions to: import a bank with a quiz first."))
    return bool(form.quiz.choices)


@bp.get("/import-questions")
@role_required("admin")
def import_questions_page():
    form = QuestionFileForm(quiz=request.args.get("quiz"))
    if not _quizzes_in_play(form):
        return redirect(url_for(".index"), 303)
    return render_template("admin/import_questions.html", form=form, max_bytes=MAX_UPLOAD_BYTES)


@bp.post("/import-questions")
@role_required("admin")
def import_questions():
    form = QuestionFileForm()
    if not _quizzes_in_play(form):
        return redirect(url_for(".index"), 303)
    if not form.validate():
        return render_template("admin/import_questions.html", form=form, max_bytes=MAX_UPLOAD_BYTES), 422
    file_name = PurePath(form.file.data.filename or "").name or _("uploaded file")
    # The request's own cap (MAX_CONTENT_LENGTH) bounds what is read here.
    raw = form.file.data.read()
    if len(raw) > MAX_UPLOAD_BYTES:
        form.file.errors.append(_(
            "The file is %(size)s bytes; the limit is %(limit)s.",
            size=format_decimal(len(raw)), limit=format_decimal(MAX_UPLOAD_BYTES),
        ))
        return render_template("admin/import_questions.html", form=form, max_bytes=MAX_UPLOAD_BYTES), 422
    chosen = form.chosen_format
    assert chosen.read is not None  # chosen among the importers
    try:
        read = chosen.read(raw, file_name)
        if form.strict.data:
            read.strict()
    except BankInvalid as invalid:
        return _errors_page(invalid, raw, file_name, bank=False)
    added = admin.with_new_questions(db.session, read.entries, form.quiz.data)
    return _preview(
        dump_yaml(added.document).encode(), f"{file_name} ({chosen.label})", renamed=added.renamed,
        left_out=read.skipped, lost=read.notes,
    )


# A quiz drafted from an article ----------------------------------------------------------------


@bp.get("/generate")
@role_required("admin")
def draft_page():
    return render_template("admin/generate.html", form=ArticleForm())


@bp.post("/generate")
@role_required("admin")
def draft():
    form = ArticleForm()
    if not form.validate():
        return render_template("admin/generate.html", form=form), 422
    if form.file.data:
        raw, article_field = form.file.data.read(), form.file
        file_name = PurePath(form.file.data.filename or "").name or _("uploaded file")
    else:
        raw, article_field, file_name = form.text.data.encode(), form.text, _("pasted article")
    try:
        drafted = drafts.draft_article(
            db.session, raw, file_name, title=form.title.data, article_id=form.article_id.data, quiz_id=form.quiz_id.data,
            names=form.names.data,
        )
    except drafts.DraftsRefused as refused:
        fields = {
            drafts.ARTICLE: article_field, drafts.TITLE: form.title, drafts.ARTICLE_ID: form.article_id,
            drafts.QUIZ_ID: form.quiz_id,
        }
        for name, messages in refused.fields.items():
            fields[name].errors = [*fields[name].errors, *messages]
        return render_template("admin/generate.html", form=form), 422
    review = DraftReviewForm(formdata=None, data={
        "title": drafted.title, "quiz_title": drafted.quiz_title, "article_id": drafted.article_id,
        "quiz_id": drafted.quiz_id, "text": drafted.text,
        "questions": [{**QuestionForm.data_from_entry(entry), "include": True} for entry in drafted.questions],
    })
    return _review_page(review)


@bp.post("/generate/review")
@role_required("admin")
def review_drafts():
    form = DraftReviewForm()
    valid = form.validate()
    if not form.carried_intact:
        abort(400)
    if not valid:
        return _review_page(form, 422)
    picked = [(question, *question.entry()) for question in form.picked]
    try:
        added = drafts.drafted_quiz(
            db.session, title=form.title.data, quiz_title=form.quiz_title.data, article_id=form.article_id.data,
            quiz_id=form.quiz_id.data, text=form.text.data, questions=[entry for _question, entry, _numbers in picked],
        )
    except drafts.DraftsRefused as refused:
        for rank, errors in refused.questions.items():
            question, _entry, numbers = picked[rank]
            question.show_errors(errors, numbers)
        form.form_errors.extend(message for messages in refused.fields.values() for message in messages)
        form.form_errors.extend(refused.other)
        return _review_page(form, 422)
    return _preview(dump_yaml(added.document).encode(), _("new quiz %(id)s", id=form.quiz_id.data), renamed=added.renamed)


def _review_page(form: DraftReviewForm, status: int = 200):
    return render_template("admin/review.html", form=form), status


# Questions -----------------------------------------------------------------------------------


@bp.get("/questions")
@role_required("admin")
def questions():
    form = QuestionFilterForm(request.args)
    form.quiz.choices = [("", _("Any"))] + [(quiz.slug, quiz.title) for quiz in admin.quizzes(db.session)]
    form.tag.choices = [("", _("Any"))] + [(tag, tag) for tag in admin.tags_in_use(db.session)]
    valid = form.validate()
    filters = admin.QuestionFilter(
        quiz=form.quiz.data, tag=form.tag.data, difficulty=form.difficulty.data, retired=form.retired.data,
    ) if valid else admin.QuestionFilter()
    listing = admin.list_questions(db.session, filters, request.args.get("page", 1, type=int))
    # The filters that differ from the defaults, for links to other pages of the same list.
    query = {name: value for name, value in asdict(filters).items() if value != getattr(admin.QuestionFilter, name)}
    return render_template("admin/questions.html", form=form, valid=valid, listing=listing, query=query)


def _question(slug: str) -> Question:
    return admin.question_by_slug(db.session, slug) or abort(404)


@bp.get("/questions/<slug>")
@role_required("admin")
def question(slug: str):
    question = _question(slug)
    return render_template(
        "admin/question.html", question=question, history=admin.revision_history(db.session, question), form=ConfirmForm(),
    )


@bp.post("/questions/<slug>/<any(retire, restore):action>")
@role_required("admin")
def retire_or_restore(slug: str, action: str):
    question = _question(slug)
    if not ConfirmForm().validate():
        abort(400)
    in_play = question.retired_at is None
    # A second click (another tab, a reload) finds the question already as asked: nothing to do.
    if in_play == (action == "retire"):
        change = admin.retire_question if action == "retire" else admin.restore_question
        try:
            change(db.session, question)
        except admin.EntryInvalid as invalid:
            flash(
                _("The question could not be retired: %(reason)s", reason=invalid) if action == "retire"
                else _("The question could not be restored: %(reason)s", reason=invalid)
            )
            return redirect(url_for(".question", slug=slug), 303)
    flash(_("The question is retired: new attempts no longer ask it.") if action == "retire" else _("The question is back in play."))
    return redirect(url_for(".question", slug=slug), 303)


def _quiz_choices(form: QuestionForm) -> None:
    form.quiz.choices = [(quiz.slug, quiz.title) for quiz in admin.quizzes(db.session, in_play=True)]


@bp.route("/new-question", methods=["GET", "POST"])
@role_required("admin")
def new_question():
    form = QuestionForm(quiz=request.args.get("quiz"))
    _quiz_choices(form)
    if not form.quiz.choices:
        flash(_("There is no quiz to add a question to: import a bank with a quiz first."))
        return redirect(url_for(".index"), 303)
    return _save(form, None)


@bp.route("/questions/<slug>/edit", methods=["GET", "POST"])
@role_required("admin")
def edit_question(slug: str):
    question = _question(slug)
    if question.retired_at is not None or question.current_revision is None:
        flash(_("Restore the question before editing it."))
        return redirect(url_for(".question", slug=slug), 303)
    if question.current_revision.kind not in FORM_KINDS:
        flash(_(
            "%(kind)s questions are edited in the bank file: download it, edit the question and import it again.",
            kind=KINDS[question.current_revision.kind].label,
        ))
        return redirect(url_for(".question", slug=slug), 303)
    if request.method == "GET":
        entry = revision_entry(question.slug, question.quiz.slug, question.current_revision, question.group_name)
        form = QuestionForm(data=QuestionForm.data_from_entry(entry))
    else:
        form = QuestionForm()
    _quiz_choices(form)
    form.slug.data = question.slug
    return _save(form, question)


def _save(form: QuestionForm, question: Question | None):
    """Render the form, or check and save what it sent: the same for a new and an edited question."""
    if request.method == "GET":
        return render_template("admin/edit.html", form=form, question=question)
    if form.validate():
        entry, numbers = form.entry()
        try:
            report = admin.save_question(db.session, entry, replacing=question.slug if question else None)
        except admin.EntryInvalid as invalid:
            form.show_errors(invalid.errors, numbers)
        else:
            slug = str(entry["id"]) if question is None else question.slug
            flash(_("Saved.") if report.changes_anything else _("Nothing to save: the question is unchanged."))
            return redirect(url_for(".question", slug=slug), 303)
    return render_template("admin/edit.html", form=form, question=question), 422
